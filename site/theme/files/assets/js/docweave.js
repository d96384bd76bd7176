/*
 * docweave theme behaviour. Every page works without it; this file adds:
 *   - the colour theme switch (auto, light, dark), remembered per browser;
 *   - the search box over /search/index.json, entirely in the browser;
 *   - the menu button on small screens;
 *   - folding of menu directories when the site sets collapsibleMenu.
 *   - on the 404 page, sending a link from before versioning on to the
 *     same page in the repository's default version.
 * The version switcher needs none of it: it is a <details> of plain links.
 * No network other than the site itself: the index is fetched from the
 * URL the page names in <meta name="docweave-search-index">.
 */
(function () {
  "use strict";

  var root = document.documentElement;
  var STORE = "docweave-theme";

  function $(selector) {
    return document.querySelector(selector);
  }

  /* ---- colour theme ---------------------------------------------------- */

  function setupVariantSwitch() {
    var box = $(".variant-switch");
    var select = $("#dw-variant");
    if (!box || !select) return;
    select.value = root.getAttribute("data-theme") || "auto";
    select.addEventListener("change", function () {
      root.setAttribute("data-theme", select.value);
      try {
        localStorage.setItem(STORE, select.value);
      } catch (e) {
        /* private mode: the choice lasts for this page only */
      }
    });
    box.hidden = false;
  }

  /* ---- links from before versioning ----------------------------------- */

  // followVersionMove runs on the 404 page of a site with versioned
  // repositories: a path below a repository's root whose first segment is
  // not one of its versions (a link made before versioning was turned on)
  // is sent on to the same path in the repository's default version. A
  // path that already names a version is left alone, so this never loops.
  function followVersionMove() {
    var data = document.getElementById("dw-version-moves");
    if (!data) return;
    var moves;
    try {
      moves = JSON.parse(data.textContent);
    } catch (e) {
      return;
    }
    var path = location.pathname;
    for (var i = 0; i < (moves || []).length; i++) {
      var m = moves[i];
      if (path.indexOf(m.root) !== 0) continue;
      var rest = path.slice(m.root.length);
      var first = decodeURIComponent(rest.split("/")[0]);
      if (rest === "" || m.slugs.indexOf(first) >= 0) continue;
      location.replace(m["default"] + rest + location.search + location.hash);
      return;
    }
  }

  /* ---- menu ------------------------------------------------------------ */

  function setupMenuButton() {
    var button = $(".menu-button");
    var menu = $("#dw-menu");
    if (!button || !menu) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      menu.classList.toggle("open", open);
    });
  }

  var folderCount = 0;

  function setupCollapsibleMenu() {
    if (document.body.getAttribute("data-collapsible-menu") !== "true") return;
    var sections = document.querySelectorAll("#dw-menu li.menu-section");
    Array.prototype.forEach.call(sections, function (li) {
      var list = li.querySelector(":scope > ul");
      var link = li.querySelector(":scope > a");
      if (!list || !link) return;
      folderCount++;
      list.id = list.id || "dw-menu-folder-" + folderCount;
      var onPath = li.querySelector('[aria-current="page"]') !== null;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "menu-fold";
      button.setAttribute("aria-controls", list.id);
      button.setAttribute("aria-label", "Show pages of " + link.textContent);
      setFolded(button, list, !onPath);
      button.addEventListener("click", function () {
        setFolded(button, list, button.getAttribute("aria-expanded") === "true");
      });
      li.insertBefore(button, list);
      li.classList.add("foldable");
    });
  }

  function setFolded(button, list, folded) {
    button.setAttribute("aria-expanded", String(!folded));
    list.hidden = folded;
  }

  /* ---- search ---------------------------------------------------------- */

  var MAX_RESULTS = 10;
  var index = null; // the loaded entries, each with lower-cased copies
  var loading = null;

  function loadIndex(url) {
    if (!loading) {
      loading = fetch(url, { credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("search index: HTTP " + r.status);
          return r.json();
        })
        .then(function (entries) {
          index = entries.map(function (e) {
            return {
              entry: e,
              preferred: preferredVersion(e),
              title: (e.title || "").toLowerCase(),
              tags: (e.tags || []).join(" ").toLowerCase(),
              place: ((e.repository || "") + " " + (e.section || "")).toLowerCase(),
              text: (e.text || "").toLowerCase()
            };
          });
          return index;
        });
    }
    return loading;
  }

  // reading is the repository and version of the page being read, from
  // the version switcher ({} outside versioned repositories).
  var reading = (function () {
    var nav = document.querySelector("nav.versions[data-version]");
    if (!nav) return {};
    return { repository: nav.getAttribute("data-repository"), version: nav.getAttribute("data-version") };
  })();

  // preferredVersion tells whether an entry is in the version a reader of
  // this page most likely wants: every entry of a repository without
  // versions; for a versioned repository, the version being read when the
  // reader is in that repository, else its default version. Entries of
  // the other versions are ranked after all preferred ones, so twenty
  // copies of one page from twenty versions do not crowd out the rest.
  function preferredVersion(e) {
    if (!e.version) return true;
    if (reading.repository && e.repository === reading.repository) return e.version === reading.version;
    return !!e.versionIsDefault;
  }

  function terms(query) {
    return query
      .toLowerCase()
      .split(/\s+/)
      .filter(function (t) {
        return t.length > 0;
      });
  }

  // score ranks an entry for the query terms: every term must occur
  // somewhere; title hits weigh most, then tags, then repository and
  // section, then the text.
  function score(item, words) {
    var total = 0;
    for (var i = 0; i < words.length; i++) {
      var w = words[i];
      var s = 0;
      var at = item.title.indexOf(w);
      if (at >= 0) s += at === 0 || item.title.charAt(at - 1) === " " ? 12 : 8;
      if (item.tags.indexOf(w) >= 0) s += 6;
      if (item.place.indexOf(w) >= 0) s += 3;
      if (item.text.indexOf(w) >= 0) s += 1;
      if (s === 0) return 0;
      total += s;
    }
    return total;
  }

  function search(query) {
    var words = terms(query);
    if (!index || words.length === 0) return [];
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var s = score(index[i], words);
      if (s > 0) hits.push({ item: index[i], score: s });
    }
    hits.sort(function (a, b) {
      return (
        b.item.preferred - a.item.preferred ||
        b.score - a.score ||
        (a.item.entry.versionRank || 0) - (b.item.entry.versionRank || 0) ||
        a.item.title.localeCompare(b.item.title)
      );
    });
    return hits.slice(0, MAX_RESULTS).map(function (h) {
      return h.item;
    });
  }

  // snippet returns the text around the first term found, as a fragment
  // with the term in <mark>; built with DOM nodes, never from HTML strings.
  function snippet(item, words) {
    var text = item.entry.text || "";
    var at = -1;
    var word = "";
    for (var i = 0; i < words.length && at < 0; i++) {
      at = item.text.indexOf(words[i]);
      word = words[i];
    }
    var frag = document.createDocumentFragment();
    if (at < 0) {
      frag.appendChild(document.createTextNode(text.slice(0, 120) + (text.length > 120 ? "…" : "")));
      return frag;
    }
    var start = Math.max(0, at - 50);
    var end = Math.min(text.length, at + word.length + 70);
    frag.appendChild(document.createTextNode((start > 0 ? "…" : "") + text.slice(start, at)));
    var mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + word.length);
    frag.appendChild(mark);
    frag.appendChild(document.createTextNode(text.slice(at + word.length, end) + (end < text.length ? "…" : "")));
    return frag;
  }

  // versionLabel is the small label naming the version a result comes
  // from; screen readers hear "version v1.1.0".
  function versionLabel(name) {
    var label = document.createElement("span");
    label.className = "search-version";
    var hidden = document.createElement("span");
    hidden.className = "visually-hidden";
    hidden.textContent = " version ";
    label.appendChild(hidden);
    label.appendChild(document.createTextNode(name));
    return label;
  }

  function setupSearch() {
    var box = $(".search");
    var input = $("#dw-search-input");
    var list = $("#dw-search-results");
    var status = $("#dw-search-status");
    var meta = document.querySelector('meta[name="docweave-search-index"]');
    if (!box || !input || !list || !meta || !window.fetch) return;
    box.hidden = false;
    var url = meta.getAttribute("content");
    var timer = null;

    function close() {
      list.hidden = true;
      list.textContent = "";
    }

    function show() {
      var query = input.value.trim();
      if (!query) {
        close();
        status.textContent = "";
        return;
      }
      loadIndex(url).then(
        function () {
          if (input.value.trim() !== query) return; // typed on meanwhile
          var words = terms(query);
          var results = search(query);
          list.textContent = "";
          results.forEach(function (item) {
            var li = document.createElement("li");
            var a = document.createElement("a");
            a.href = item.entry.url;
            var title = document.createElement("span");
            title.className = "search-title";
            title.textContent = item.entry.title;
            a.appendChild(title);
            var where = [item.entry.repository, item.entry.section].filter(Boolean).join(" › ");
            if (where || item.entry.version) {
              var place = document.createElement("span");
              place.className = "search-where";
              place.textContent = where;
              if (item.entry.version) place.appendChild(versionLabel(item.entry.version));
              a.appendChild(place);
            }
            var text = document.createElement("span");
            text.className = "search-snippet";
            text.appendChild(snippet(item, words));
            a.appendChild(text);
            li.appendChild(a);
            list.appendChild(li);
          });
          if (results.length === 0) {
            var none = document.createElement("li");
            none.className = "search-none";
            none.textContent = "No page matches “" + query + "”.";
            list.appendChild(none);
          }
          list.hidden = false;
          status.textContent = results.length === 0 ? "No results" : results.length + (results.length === 1 ? " result" : " results");
        },
        function () {
          list.textContent = "";
          var li = document.createElement("li");
          li.className = "search-none";
          li.textContent = "The search index could not be loaded.";
          list.appendChild(li);
          list.hidden = false;
          status.textContent = "Search is unavailable";
        }
      );
    }

    function links() {
      return Array.prototype.slice.call(list.querySelectorAll("a"));
    }

    input.addEventListener("focus", function () {
      loadIndex(url).catch(function () {});
    });
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(show, 80);
    });
    input.addEventListener("keydown", function (e) {
      var all = links();
      if (e.key === "ArrowDown" && all.length) {
        e.preventDefault();
        all[0].focus();
      } else if (e.key === "Enter" && all.length) {
        e.preventDefault();
        all[0].click();
      } else if (e.key === "Escape") {
        input.value = "";
        close();
      }
    });
    list.addEventListener("keydown", function (e) {
      var all = links();
      var at = all.indexOf(document.activeElement);
      if (e.key === "ArrowDown" && at < all.length - 1) {
        e.preventDefault();
        all[at + 1].focus();
      } else if (e.key === "ArrowUp") {
        e.preventDefault();
        (at > 0 ? all[at - 1] : input).focus();
      } else if (e.key === "Escape") {
        close();
        input.focus();
      }
    });
    document.addEventListener("click", function (e) {
      if (!box.contains(e.target)) close();
    });
  }

  // Tabs (the tabs shortcode): without scripts the panels are stacked
  // sections, each under its title; here the tab list appears and one
  // panel shows at a time. Arrow keys, Home and End move between tabs.
  function setupTabs() {
    document.querySelectorAll("[data-tabs]").forEach(function (box) {
      var list = box.querySelector("[role=tablist]");
      var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
      var panels = tabs.map(function (tab) {
        return document.getElementById(tab.getAttribute("aria-controls"));
      });
      function select(index, focus) {
        tabs.forEach(function (tab, i) {
          var on = i === index;
          tab.setAttribute("aria-selected", on ? "true" : "false");
          tab.tabIndex = on ? 0 : -1;
          if (panels[i]) panels[i].hidden = !on;
        });
        if (focus) tabs[index].focus();
      }
      tabs.forEach(function (tab, i) {
        tab.addEventListener("click", function () { select(i, false); });
        tab.addEventListener("keydown", function (e) {
          var n = tabs.length;
          var next = { ArrowRight: (i + 1) % n, ArrowLeft: (i + n - 1) % n, Home: 0, End: n - 1 }[e.key];
          if (next !== undefined) {
            e.preventDefault();
            select(next, true);
          }
        });
      });
      list.hidden = false;
      box.classList.add("tabs-ready");
      if (tabs.length) select(0, false);
    });
  }

  function start() {
    followVersionMove();
    setupVariantSwitch();
    setupMenuButton();
    setupCollapsibleMenu();
    setupSearch();
    setupTabs();
    root.setAttribute("data-docweave-ready", "true");
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
