/*
 * docweave theme behaviour. Every page works without it; this file adds:
 *   - the colour theme switch (auto, light, dark), remembered per browser;
 *   - the search box over the index under /search/, entirely in the
 *     browser, loading the index's pieces as a search needs them;
 *   - the menu button on small screens;
 *   - the filter above the repository cards of a site with many;
 *   - folding of menu directories when the site sets collapsibleMenu.
 *   - tabs: one panel at a time, groups that belong together switching
 *     together, the reader's choice remembered per browser;
 *   - on the 404 page, sending a link from before versioning on to the
 *     same page in the repository's default version.
 * The version switcher needs none of it: it is a <details> of plain links.
 * No network other than the site itself: the index's manifest is fetched
 * from the URL the page names in <meta name="docweave-search-index">, its
 * pieces from beside it.
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

  // The index comes in pieces (docs/theme.md, "Search"): a manifest, one
  // book of pages per repository version, the words of the pages' texts
  // in chunks, and the texts themselves, a run of a book's pages a file.
  // A search loads the books it ranks, the word chunks its words are in
  // and the texts of the results it shows; the browser keeps every piece
  // but the manifest for good, as each is named by its content.
  var MAX_RESULTS = 10;
  var manifestURL = "";
  var manifest = null; // promise of the manifest, once asked for
  var books = []; // per book: its manifest entry, first page number, items
  var chunks = []; // the manifest's word chunks: {first, file}
  var totalPages = 0; // the site's pages, for the words' weights
  var loaded = {}; // file → promise of its content

  function fetchFile(file) {
    return fetch(new URL(file, manifestURL).href, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("search index: " + file + ": HTTP " + r.status);
      return r.json();
    });
  }

  // fetchPiece fetches a piece of the index once: its name is its content.
  function fetchPiece(file) {
    if (!loaded[file]) {
      loaded[file] = fetchFile(file);
      loaded[file].catch(function () {
        delete loaded[file]; // try again on the next search
      });
    }
    return loaded[file];
  }

  function loadManifest() {
    if (!manifest) {
      manifest = fetchFile(manifestURL).then(function (m) {
        if (!m || m.format !== 1) throw new Error("search index: unknown format");
        var start = 0;
        totalPages = 0;
        m.books.forEach(function (ref) {
          totalPages += ref.pages;
        });
        books = m.books.map(function (ref) {
          var book = { ref: ref, start: start, preferred: preferredVersion(ref), items: null };
          start += ref.pages;
          return book;
        });
        chunks = m.words;
        return m;
      });
      manifest.catch(function () {
        manifest = null;
      });
    }
    return manifest;
  }

  // loadBooks loads the books for which want(book) holds and makes their
  // pages searchable items, each with lower-cased copies of what is
  // matched.
  function loadBooks(want) {
    return Promise.all(
      books.filter(want).map(function (book) {
        return fetchPiece(book.ref.file).then(function (data) {
          if (book.items) return;
          book.items = data.pages.map(function (p, i) {
            var e = {
              title: p[0],
              url: data.base + p[1],
              repository: book.ref.repository,
              section: data.sections[p[2]] || "",
              tags: p[3] || [],
              textFile: p[4] ? data.texts[p[4][0]] : "",
              textAt: p[4] ? p[4][1] : 0,
              version: book.ref.version,
              versionIsDefault: book.ref.versionIsDefault,
              versionRank: book.ref.versionRank || 0
            };
            return {
              entry: e,
              page: book.start + i,
              preferred: book.preferred,
              title: e.title.toLowerCase(),
              tags: e.tags.join(" ").toLowerCase(),
              place: (e.repository + " " + e.section).toLowerCase(),
              text: ""
            };
          });
        });
      })
    );
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

  // folded is a query word's singular when it ends like an English
  // plural ("images" → "image", "taxonomies" → "taxonomy"), else "".
  function folded(w) {
    if (w.length > 4 && /ies$/.test(w)) return w.slice(0, -3) + "y";
    if (w.length > 3 && /[^su]s$/.test(w)) return w.slice(0, -1);
    return "";
  }

  // searchTerms are the words a search looks for: the query's, each with
  // its singular (word.one) if it has one. The singular is found in
  // titles, tags and places as the word is, but in the text only as a
  // whole word: "images" finds a text's "image", "sprockets" does not
  // find "sprocketball".
  function searchTerms(query) {
    return terms(query).map(function (w) {
      return { word: w, one: folded(w) };
    });
  }

  // forms lists a search term's word and its singular.
  function forms(term) {
    return term.one ? [term.word, term.one] : [term.word];
  }

  // allForms lists the words and singulars of the terms, for highlighting.
  function allForms(words) {
    return [].concat.apply([], words.map(forms));
  }

  // wordsOf splits a query word the way the index splits text into words
  // (textWords in site/searchindex.go): runs of letters and digits.
  function wordsOf(term) {
    return term.split(/[^\p{L}\p{N}]+/u).filter(function (w) {
      return w.length > 0;
    });
  }

  // codePointOrder compares two strings by code point, the order of the
  // word chunks (Go sorts UTF-8 bytes, which is the same). JavaScript's <
  // compares UTF-16 units, which puts a character above U+FFFF (a pair of
  // surrogates, 0xD800-0xDFFF) before one of U+E000-U+FFFF.
  function codePointOrder(a, b) {
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) {
      var x = a.charCodeAt(i);
      var y = b.charCodeAt(i);
      if (x === y) continue;
      var xPair = x >= 0xd800 && x <= 0xdfff;
      var yPair = y >= 0xd800 && y <= 0xdfff;
      if (xPair && !yPair && y >= 0xe000) return 1;
      if (yPair && !xPair && x >= 0xe000) return -1;
      return x < y ? -1 : 1;
    }
    return a.length - b.length;
  }

  // chunksFor lists the word chunks that may hold words starting with
  // part (only the word itself for a part of one letter).
  function chunksFor(part) {
    var lo = 0;
    var hi = chunks.length - 1;
    var at = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (codePointOrder(chunks[mid].first, part) <= 0) {
        at = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    var out = [];
    for (var i = at; i < chunks.length; i++) {
      if (i > at && (part.length < 2 || chunks[i].first.indexOf(part) !== 0)) break;
      out.push(chunks[i].file);
    }
    return out;
  }

  // pagesWith resolves to the page numbers whose text has a word starting
  // with part (for a part of one letter: that word), as the set text, and
  // those with such a word in a heading, as the set head.
  function pagesWith(part, whole) {
    return Promise.all(chunksFor(part).map(function (f) { return fetchPiece(f); })).then(function (loadedChunks) {
      var found = { text: new Set(), head: new Set() };
      var add = function (set, gaps) {
        var page = 0;
        gaps.forEach(function (gap) {
          page += gap;
          set.add(page);
        });
      };
      loadedChunks.forEach(function (c) {
        for (var i = 0; i < c.words.length; i++) {
          var w = c.words[i];
          if (part.length < 2 || whole ? w !== part : w.indexOf(part) !== 0) continue;
          add(found.text, c.pages[i]);
          if (c.heads && c.heads[i]) add(found.head, c.heads[i]);
        }
      });
      return found;
    });
  }

  function intersect(sets) {
    return new Set(
      Array.from(sets[0]).filter(function (page) {
        return sets.every(function (s) { return s.has(page); });
      })
    );
  }

  // textHits resolves to one {text, head} per search term: the pages
  // whose text (and those whose headings) hold it, every letter-and-digit
  // run of the word starting a word there, or its singular as a word.
  function textHits(words) {
    var none = function () {
      return { text: new Set(), head: new Set() };
    };
    var hitsOf = function (parts, whole) {
      if (parts.length === 0) return Promise.resolve(none());
      return Promise.all(
        parts.map(function (part) {
          return pagesWith(part, whole);
        })
      ).then(function (found) {
        return {
          text: intersect(found.map(function (f) { return f.text; })),
          head: intersect(found.map(function (f) { return f.head; }))
        };
      });
    };
    return Promise.all(
      words.map(function (term) {
        return Promise.all([hitsOf(wordsOf(term.word), false), term.one ? hitsOf(wordsOf(term.one), true) : none()]).then(function (h) {
          return {
            text: new Set(Array.from(h[0].text).concat(Array.from(h[1].text))),
            head: new Set(Array.from(h[0].head).concat(Array.from(h[1].head)))
          };
        });
      })
    );
  }

  // score weighs an item for the query words: for each word, title hits
  // weigh most, then tags, then repository and section, then the text,
  // times the word's weight (rarer words weigh more). It returns the
  // weight and how many of the words occur, the rare ones (words on at
  // most half the site's pages) and all of them.
  function score(item, words, inText, weights) {
    var total = 0;
    var rare = 0;
    var all = 0;
    for (var i = 0; i < words.length; i++) {
      var s = 0;
      var at = firstOf(item.title, words[i]);
      if (at >= 0) s += at === 0 || !/[\p{L}\p{N}]/u.test(item.title.charAt(at - 1)) ? 12 : 8;
      if (firstOf(item.tags, words[i]) >= 0) s += 6;
      if (firstOf(item.place, words[i]) >= 0) s += 3;
      if (inText[i].head.has(item.page)) s += 4;
      if (inText[i].text.has(item.page)) s += 1;
      if (s === 0) continue;
      all++;
      if (weights[i].rare) rare++;
      total += s * weights[i].weight;
    }
    return { weight: total, rare: rare, all: all, titled: titled(item, words) };
  }

  // titled tells whether every word of an item's title starts with a
  // query word: "Key/Value store" for "key value store", not "Key/Value
  // Store Walkthrough".
  // firstOf is where in s a search term's word, or else its singular,
  // first occurs (-1: nowhere).
  function firstOf(s, term) {
    var at = s.indexOf(term.word);
    return at < 0 && term.one ? s.indexOf(term.one) : at;
  }

  // A word naming the repository ("babel" in "@babel/preset-env") needs
  // no query word.
  function titled(item, words) {
    var repository = item.entry.repository.toLowerCase();
    var t = wordsOf(item.title).filter(function (tw) {
      return tw !== repository;
    });
    return (
      t.length > 0 &&
      t.every(function (tw) {
        return allForms(words).some(function (w) {
          return tw.indexOf(w) === 0;
        });
      })
    );
  }

  // depth is how many directories deep a URL is: of two pages as good,
  // the more general one, higher in the tree, comes first.
  function depth(url) {
    return url.split("/").length;
  }

  // wordWeights gives each query word its weight from the share of the
  // site's pages whose text holds it: a word on every page ("the", "a",
  // "how") counts little, a word on a few pages much.
  function wordWeights(inText) {
    var pages = Math.max(1, totalPages);
    return inText.map(function (hits) {
      var n = hits.text.size;
      return { weight: Math.log(1 + pages / (1 + n)), rare: n / pages <= 0.5 };
    });
  }

  // rank returns the best items of the loaded books within scope: those
  // of the versions the reader most likely wants first, then the pages
  // holding the most of the query's rare words (all of them first), then
  // the most of all its words, then by weight.
  function rank(words, inText, scope) {
    var weights = wordWeights(inText);
    var hits = [];
    books.forEach(function (book) {
      if (!inScope(book, scope)) return;
      (book.items || []).forEach(function (item) {
        var s = score(item, words, inText, weights);
        if (s.all > 0) hits.push({ item: item, s: s, preferred: preferredIn(book, scope) });
      });
    });
    hits.sort(function (a, b) {
      return (
        b.preferred - a.preferred ||
        b.s.rare - a.s.rare ||
        b.s.all - a.s.all ||
        b.s.titled - a.s.titled ||
        b.s.weight - a.s.weight ||
        depth(a.item.entry.url) - depth(b.item.entry.url) ||
        (a.item.entry.versionRank || 0) - (b.item.entry.versionRank || 0) ||
        a.item.title.localeCompare(b.item.title)
      );
    });
    return hits.slice(0, MAX_RESULTS).map(function (h) {
      return h.item;
    });
  }

  // A scope is what the select beside the search box restricts results
  // to: "" (everything), a repository's name, or a repository and version
  // as "repository@version" (scopeOf).
  function scopeOf(value) {
    if (!value) return null;
    var at = value.indexOf("@");
    return at < 0 ? { repository: value } : { repository: value.slice(0, at), version: value.slice(at + 1) };
  }

  function inScope(book, scope) {
    if (!scope) return true;
    if (book.ref.repository !== scope.repository) return false;
    return scope.version === undefined || book.ref.version === scope.version;
  }

  // preferredIn tells whether a book's pages rank with the first: a
  // version chosen in the scope is wanted, whatever the version switcher
  // says.
  function preferredIn(book, scope) {
    return book.preferred || !!(scope && scope.version !== undefined);
  }

  // search resolves to the best results for query, each with its text
  // loaded. The other versions' books are loaded only when the preferred
  // ones give fewer than a page of results: they rank after them anyway.
  function search(query, scope) {
    var words = searchTerms(query);
    if (words.length === 0) return Promise.resolve([]);
    var inText;
    return loadManifest()
      .then(function () {
        return Promise.all([
          loadBooks(function (b) { return inScope(b, scope) && preferredIn(b, scope); }),
          textHits(words)
        ]);
      })
      .then(function (got) {
        inText = got[1];
        var results = rank(words, inText, scope);
        if (results.length >= MAX_RESULTS) return results;
        return loadBooks(function (b) { return inScope(b, scope) && !preferredIn(b, scope); }).then(function () {
          return rank(words, inText, scope);
        });
      })
      .then(function (results) {
        return Promise.all(
          results.map(function (item) {
            if (!item.entry.textFile) return "";
            return fetchPiece(item.entry.textFile).then(
              function (texts) {
                return String(texts[item.entry.textAt] || "");
              },
              function () {
                return ""; // the result without its snippet
              }
            );
          })
        ).then(function (texts) {
          results.forEach(function (item, i) {
            item.entry.text = texts[i];
            item.text = texts[i].toLowerCase();
          });
          return results;
        });
      })
      .catch(function (err) {
        // A piece may be gone because the site was published anew since
        // the manifest was read: the next search reads it again.
        manifest = null;
        throw err;
      });
  }

  // SNIPPET is about how many characters of a page's text a result shows.
  var SNIPPET = 160;

  // matches lists where the query words occur in lower (a lower-cased
  // title or text) as sorted, non-overlapping [start, end, word index]:
  // anywhere in a title, at the start of a word in a text (as the index
  // matches them). A word with punctuation is looked for whole, and its
  // letter-and-digit parts too.
  function matches(lower, words, anywhere) {
    var found = [];
    words.forEach(function (w, wi) {
      var parts = wordsOf(w);
      var looks = parts.length > 1 || parts[0] !== w ? [w].concat(parts) : [w];
      looks.forEach(function (c) {
        for (var at = lower.indexOf(c); at >= 0 && c; at = lower.indexOf(c, at + 1)) {
          if (anywhere || at === 0 || !/[\p{L}\p{N}]/u.test(lower.charAt(at - 1))) found.push([at, at + c.length, wi]);
        }
      });
    });
    found.sort(function (x, y) {
      return x[0] - y[0] || y[1] - x[1];
    });
    var out = [];
    found.forEach(function (m) {
      var last = out[out.length - 1];
      if (last && m[0] < last[1]) {
        if (m[1] > last[1]) last[1] = m[1];
        return;
      }
      out.push(m.slice());
    });
    return out;
  }

  // marked appends text.slice(start, end) to parent with the matches in
  // it as <mark>; built with DOM nodes, never from HTML strings.
  function marked(parent, text, found, start, end) {
    var at = start;
    found.forEach(function (m) {
      if (m[0] < start || m[1] > end) return;
      if (m[0] > at) parent.appendChild(document.createTextNode(text.slice(at, m[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(m[0], m[1]);
      parent.appendChild(mark);
      at = m[1];
    });
    if (end > at) parent.appendChild(document.createTextNode(text.slice(at, end)));
  }

  // snippet returns the part of the text holding the most of the query's
  // words, every match in it in <mark>.
  function snippet(item, words) {
    var text = item.entry.text || "";
    var found = item.text.length === text.length ? matches(item.text, allForms(words), false) : [];
    var frag = document.createDocumentFragment();
    var best = 0;
    var bestCount = 0;
    found.forEach(function (m) {
      var seen = {};
      var count = 0;
      found.forEach(function (n) {
        if (n[0] >= m[0] && n[1] <= m[0] + SNIPPET && !seen[n[2]]) {
          seen[n[2]] = true;
          count++;
        }
      });
      if (count > bestCount) {
        best = m[0];
        bestCount = count;
      }
    });
    var start = found.length ? Math.max(0, best - 40) : 0;
    var end = Math.min(text.length, start + SNIPPET);
    if (start > 0) frag.appendChild(document.createTextNode("…"));
    marked(frag, text, found, start, end);
    if (end < text.length) frag.appendChild(document.createTextNode("…"));
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

  // fillScope lists the repositories of the site, and the versions of
  // versioned ones, in the select beside the search box, keeping the
  // choice made.
  function fillScope(select) {
    if (!select) return;
    var choices = [["", "All repositories"]];
    var seen = {};
    books.forEach(function (book) {
      var r = book.ref.repository;
      if (!seen[r]) {
        seen[r] = true;
        choices.push([r, r]);
      }
      if (book.ref.version) choices.push([r + "@" + book.ref.version, r + " " + book.ref.version]);
    });
    var key = choices.map(function (c) { return c[0]; }).join("\n");
    if (select.getAttribute("data-choices") === key) return;
    var chosen = select.value;
    select.textContent = "";
    choices.forEach(function (c) {
      var option = document.createElement("option");
      option.value = c[0];
      option.textContent = c[1];
      select.appendChild(option);
    });
    select.value = key.split("\n").indexOf(chosen) >= 0 ? chosen : "";
    select.setAttribute("data-choices", key);
    // One repository without versions: nothing to choose.
    select.hidden = choices.length <= 2;
  }

  function setupSearch() {
    var box = $(".search");
    var input = $("#dw-search-input");
    var list = $("#dw-search-results");
    var status = $("#dw-search-status");
    var scopeSelect = $("#dw-search-scope");
    var meta = document.querySelector('meta[name="docweave-search-index"]');
    if (!box || !input || !list || !meta || !window.fetch) return;
    box.hidden = false;
    manifestURL = new URL(meta.getAttribute("content"), location.href).href;
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
      var scope = scopeOf(scopeSelect ? scopeSelect.value : "");
      // A failed search is tried once more: it read the manifest again.
      search(query, scope)
        .catch(function () {
          return search(query, scope);
        })
        .then(
          function (results) {
            if (input.value.trim() !== query) return; // typed on meanwhile
            var words = searchTerms(query);
            list.textContent = "";
            results.forEach(function (item) {
              var li = document.createElement("li");
              var a = document.createElement("a");
              a.href = item.entry.url;
              var title = document.createElement("span");
              title.className = "search-title";
              var t = item.entry.title;
              marked(title, t, item.title.length === t.length ? matches(item.title, allForms(words), true) : [], 0, t.length);
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

    // Focus is a promise of a search: its manifest and books load then.
    // The manifest is read anew at every focus (usually a 304), so a
    // reader who keeps the page open searches the site as last published;
    // pieces already loaded are kept, as their names are their content.
    input.addEventListener("focus", function () {
      manifest = null;
      loadManifest()
        .then(function () {
          fillScope(scopeSelect);
          return loadBooks(function (b) { return b.preferred; });
        })
        .catch(function () {});
    });
    if (scopeSelect) {
      // The select's choices come from the manifest: it loads as a
      // pointer comes near the select or the select gets focus.
      var fill = function () {
        loadManifest()
          .then(function () {
            fillScope(scopeSelect);
          })
          .catch(function () {});
      };
      scopeSelect.addEventListener("pointerenter", fill);
      scopeSelect.addEventListener("focus", fill);
      scopeSelect.addEventListener("change", function () {
        if (input.value.trim()) show();
      });
    }
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

  /* ---- repository filter ---------------------------------------------- */

  // setupRepositoryFilter shows the filter above many repository cards:
  // it keeps the cards whose name, description or versions hold every
  // word typed, and says how many it keeps.
  function setupRepositoryFilter() {
    var box = $(".repository-filter");
    var input = $("#dw-repository-filter");
    var status = $(".repository-filter-status");
    if (!box || !input || !status) return;
    var cards = Array.prototype.slice.call(document.querySelectorAll("#dw-repositories > .repository-card")).map(function (li) {
      return { li: li, text: li.textContent.toLowerCase() };
    });
    box.hidden = false;
    input.addEventListener("input", function () {
      var words = terms(input.value);
      var shown = 0;
      cards.forEach(function (c) {
        var keep = words.every(function (w) {
          return c.text.indexOf(w) >= 0;
        });
        c.li.hidden = !keep;
        if (keep) shown++;
      });
      status.textContent = words.length === 0 ? "" : shown + " of " + cards.length + " repositories";
    });
  }

  // Tabs (the tabs shortcode): without scripts the panels are stacked
  // sections, each under its title; here the tab list appears and one
  // panel shows at a time. Arrow keys, Home and End move between tabs.
  // Groups that belong together switch together: those with the same
  // data-tabs-group (the shortcode's group=, Docusaurus' groupId), else
  // those with the same set of labels (Go, Java, Python…). The choice is
  // remembered for the next pages, per group, in localStorage.
  var TABS_STORE = "docweave-tabs";

  function tabsKey(box, labels) {
    var group = box.getAttribute("data-tabs-group");
    if (group) return "group:" + group;
    return "labels:" + labels.slice().sort().join("\u001f");
  }

  function rememberedTabs() {
    try {
      return JSON.parse(localStorage.getItem(TABS_STORE) || "{}") || {};
    } catch (e) {
      return {};
    }
  }

  function rememberTab(key, label) {
    var all = rememberedTabs();
    delete all[key];
    all[key] = label;
    var keys = Object.keys(all);
    while (keys.length > 50) delete all[keys.shift()]; // the oldest go
    try {
      localStorage.setItem(TABS_STORE, JSON.stringify(all));
    } catch (e) {
      /* private mode: the choice lasts for this page only */
    }
  }

  function setupTabs() {
    var groups = [];
    var remembered = rememberedTabs();
    document.querySelectorAll("[data-tabs]").forEach(function (box) {
      var list = box.querySelector("[role=tablist]");
      var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
      var labels = tabs.map(function (tab) {
        return tab.getAttribute("data-label") || tab.textContent;
      });
      var panels = tabs.map(function (tab) {
        return document.getElementById(tab.getAttribute("aria-controls"));
      });
      var group = { key: tabsKey(box, labels), labels: labels };
      function select(index, focus) {
        tabs.forEach(function (tab, i) {
          var on = i === index;
          tab.setAttribute("aria-selected", on ? "true" : "false");
          tab.tabIndex = on ? 0 : -1;
          if (panels[i]) panels[i].hidden = !on;
        });
        if (focus) tabs[index].focus();
      }
      group.select = select;
      // choose selects tab index and, keeping it where the reader sees
      // it, the same label in every group that belongs with this one.
      function choose(index, focus) {
        var before = tabs[index].getBoundingClientRect().top;
        select(index, focus);
        groups.forEach(function (other) {
          if (other === group || other.key !== group.key) return;
          var at = other.labels.indexOf(labels[index]);
          if (at >= 0) other.select(at, false);
        });
        var moved = tabs[index].getBoundingClientRect().top - before;
        if (moved) window.scrollBy(0, moved);
        rememberTab(group.key, labels[index]);
      }
      tabs.forEach(function (tab, i) {
        tab.addEventListener("click", function () { choose(i, false); });
        tab.addEventListener("keydown", function (e) {
          var n = tabs.length;
          var next = { ArrowRight: (i + 1) % n, ArrowLeft: (i + n - 1) % n, Home: 0, End: n - 1 }[e.key];
          if (next !== undefined) {
            e.preventDefault();
            choose(next, true);
          }
        });
      });
      list.hidden = false;
      box.classList.add("tabs-ready");
      groups.push(group);
      // The reader's remembered choice, else the tab the page selects.
      var first = tabs.map(function (tab) { return tab.getAttribute("aria-selected"); }).indexOf("true");
      var chosen = labels.indexOf(remembered[group.key]);
      if (tabs.length) select(chosen >= 0 ? chosen : Math.max(0, first), false);
    });
  }

  function start() {
    followVersionMove();
    setupVariantSwitch();
    setupMenuButton();
    setupCollapsibleMenu();
    setupSearch();
    setupRepositoryFilter();
    setupTabs();
    root.setAttribute("data-docweave-ready", "true");
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
