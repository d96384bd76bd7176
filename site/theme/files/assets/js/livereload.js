/*
 * docweave live reload, included only in daemon mode (the theme parameter
 * docweaveLiveReloadPort). It keeps a server-sent-events stream open to
 * the daemon's live-reload server on the same host name and reloads the
 * page when a new site is published:
 *   - event "reload" ({"build_id","site","pages","time"}): reload now;
 *   - event "hello" ({"build_id"}), sent on every (re)connection: when it
 *     names a newer build than the first one seen, a publish was missed
 *     while disconnected, so reload too.
 * When the server is away the browser retries by itself; when it refuses
 * the stream (the daemon restarting), this script retries later, with a
 * growing delay, and never shows an error to the reader.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var port = script && script.getAttribute("data-port");
  if (!port || !window.EventSource) return;
  var url = location.protocol + "//" + location.hostname + ":" + port + "/sse";
  var firstBuild = null;
  var delay = 2000;

  function reload() {
    location.reload();
  }

  function connect() {
    var source = new EventSource(url);
    source.addEventListener("hello", function (e) {
      var build = "";
      try {
        build = JSON.parse(e.data).build_id || "";
      } catch (err) {
        /* not ours: ignore */
      }
      delay = 2000;
      if (firstBuild === null) {
        firstBuild = build;
      } else if (build && build !== firstBuild) {
        reload();
      }
    });
    source.addEventListener("reload", reload);
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30000);
      }
    };
  }

  connect();
})();
