/* Filter box for catalogue tables: hides rows that do not contain every typed word. Works with
   Material's instant navigation (document$) and without it. */
(function () {
  function setup() {
    document.querySelectorAll(".catalog-filter[data-filter-for]").forEach(function (box) {
      var input = box.querySelector("input");
      var count = box.querySelector(".catalog-filter-count");
      var holder = document.getElementById(box.getAttribute("data-filter-for"));
      var table = holder && holder.querySelector("table");
      if (!input || !table || input.dataset.ready) return;
      input.dataset.ready = "1";
      var rows = Array.prototype.slice.call(table.tBodies[0].rows);
      function apply() {
        var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
        var shown = 0;
        rows.forEach(function (row) {
          var text = row.textContent.toLowerCase();
          var ok = words.every(function (w) { return text.indexOf(w) !== -1; });
          row.hidden = !ok;
          if (ok) shown += 1;
        });
        if (count) count.textContent = words.length ? shown + " of " + rows.length + " rows" : "";
      }
      input.addEventListener("input", apply);
      apply();
    });
  }
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  else document.addEventListener("DOMContentLoaded", setup);
})();

/* Skip link: move keyboard focus to the content it skips to, not only the scroll position. Left to the
   theme, the click goes through its instant navigation, which leaves focus on the page itself, so the
   next Tab starts again from the header. The link is handled here, before the theme sees it: the hash
   goes into the address (history entry as a normal fragment link) and the target takes focus. */
(function () {
  window.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a.md-skip") : null;
    if (!link || !link.hash) return;
    var target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) return;
    event.preventDefault();
    event.stopPropagation();
    if (location.hash !== link.hash) history.pushState(history.state, "", link.hash);
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  }, true);
})();

/* Phones: a data table wider than the screen becomes a list of cards, one per row: the row's header (the
   operation, the label...) first, then one line per column, named by its column headers ("FAKE 1.0 · PLAN-A",
   then the value), so no value lies off screen and no row loses its operation name. Only tables that do not
   fit change; on a wide screen, or once the screen widens, they are plain tables again. The markup stays the
   table it is (caption, column and row headers): the card layout draws its cells as blocks, which would drop
   the table from the accessibility tree, so the same table/row/header/cell roles are stated while it applies
   (the pattern of a responsive accessible table). The column names come from the header cells at run time,
   not from attributes in the page, which would weigh on every cell of a long table. */
(function () {
  var narrow = window.matchMedia("(max-width: 40em)");
  var ROLES = [["thead, tbody", "rowgroup"], ["tr", "row"], ["th[scope=col]", "columnheader"],
               ["th[scope=row]", "rowheader"], ["td", "cell"]];

  /* A header cell's words, its lines (<br>) joined by " · ". */
  function headerText(th) {
    var parts = [];
    th.childNodes.forEach(function (node) {
      var text = node.nodeName === "BR" ? "" : node.textContent.replace(/\s+/g, " ").trim();
      if (text) parts.push(text);
    });
    return parts.join(" · ");
  }

  /* Each column's name: the words of every header cell above it, top row first, joined by " · " (a label's
     header spans its plan entries in the row below: "FAKE 1.0 · PLAN A"). Row and column spans are laid out
     as the table draws them. */
  function columnNames(table) {
    var head = table.tHead;
    if (!head || !head.rows.length) return null;
    var names = [];
    var taken = [];
    Array.prototype.forEach.call(head.rows, function (tr, r) {
      taken[r] = taken[r] || [];
      var col = 0;
      Array.prototype.forEach.call(tr.cells, function (th) {
        while (taken[r][col]) col += 1;
        var text = headerText(th);
        for (var dy = 0; dy < (th.rowSpan || 1); dy += 1) {
          taken[r + dy] = taken[r + dy] || [];
          for (var dx = 0; dx < (th.colSpan || 1); dx += 1) taken[r + dy][col + dx] = true;
        }
        for (var x = 0; x < (th.colSpan || 1); x += 1) {
          names[col + x] = names[col + x] || [];
          if (text) names[col + x].push(text);
        }
        col += th.colSpan || 1;
      });
    });
    return Array.prototype.map.call(names, function (parts) { return (parts || []).join(" · "); });
  }

  function plain(table) {
    if (!table.classList.contains("catalog-cards")) return;
    table.classList.remove("catalog-cards");
    /* An empty class="" would end the theme's table:not([class]) rules (and ours) for good. */
    if (!table.classList.length) table.removeAttribute("class");
    table.removeAttribute("role");
    ROLES.forEach(function (pair) {
      table.querySelectorAll(pair[0]).forEach(function (el) { el.removeAttribute("role"); });
    });
  }

  function cards(table, names) {
    table.classList.add("catalog-cards");
    table.setAttribute("role", "table");
    ROLES.forEach(function (pair) {
      table.querySelectorAll(pair[0]).forEach(function (el) { el.setAttribute("role", pair[1]); });
    });
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        var col = 0;
        Array.prototype.forEach.call(row.cells, function (cell) {
          if (cell.getAttribute("scope") !== "row" && names[col]) cell.setAttribute("data-col", names[col]);
          col += cell.colSpan || 1;
        });
      });
    });
  }

  /* Whether the table is wider than the room it has. The theme's scroller spans the content's side padding
     (.md-typeset__scrollwrap has negative margins, the .md-typeset__table inside it pads them back), so a table
     up to two paddings (2 x .8rem) wider than the text still had scrollWidth <= the scroller's clientWidth and
     stayed a table with its last column off the screen; what overflows is the scroller's own content. */
  function tooWide(table) {
    var box = table.closest(".md-typeset__scrollwrap") || table.parentElement;
    return table.scrollWidth > box.clientWidth + 1 || box.scrollWidth > box.clientWidth + 1;
  }

  function layout() {
    document.querySelectorAll("article table").forEach(function (table) {
      plain(table);
      if (!narrow.matches || !table.tHead || !table.tBodies.length) return;
      var names = columnNames(table);
      if (names && tooWide(table)) cards(table, names);
    });
  }

  if (typeof document$ !== "undefined") document$.subscribe(layout);
  else document.addEventListener("DOMContentLoaded", layout);
  narrow.addEventListener("change", layout);
  /* Tables drawn after the page loaded (compare.js: the any-pair result) are measured once they are in. */
  document.addEventListener("catalog:tables-drawn", layout);
  /* A table in a folded section (<details>) is measured at load while folded, which is not how it lays out
     open: measure again when one opens. `toggle` does not bubble; a capturing listener sees it. */
  document.addEventListener("toggle", function (event) {
    if (event.target instanceof HTMLDetailsElement && event.target.open) layout();
  }, true);
})();

/* A followed link to one change (#CHANGE-ID) marks its row or sentence (catalog.css: .catalog-targeted).
   :target alone misses it after the theme's instant navigation, which changes the address with pushState;
   so the mark follows the address on every page the theme shows and on every change of fragment. A fragment
   that is not valid percent-encoding names nothing. */
(function () {
  function mark() {
    var named = null;
    try {
      named = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    } catch (error) {
      named = null;
    }
    document.querySelectorAll(".catalog-targeted").forEach(function (x) {
      if (x !== named) x.classList.remove("catalog-targeted");
    });
    if (named && named.matches("tr[id], p[id], li[id]")) named.classList.add("catalog-targeted");
  }
  window.addEventListener("hashchange", mark);
  if (typeof document$ !== "undefined") document$.subscribe(mark);
  else document.addEventListener("DOMContentLoaded", mark);
})();

/* A comparison too long for one page continues on page-N pages (render.COMPARE_PAGE_ROWS), and a permalink to a
   value row that is on a later page (compare/A...B/#CHANGE-ID, as every change was linked before the split)
   still lands on it: the first page names its lookup (data-catalog-moved, render.moved_lookup), which gives each
   later page and the ids of its rows, and the address is replaced with that page's. */
(function () {
  /* The lookup is a file like any other of the site: the address it names is followed only when it is a string
     that resolves to a page of this site's own origin over http(s) (never another origin, `//host`, a backslashed
     host, `javascript:` or `data:`); anything else is ignored. */
  function onThisSite(address) {
    if (typeof address !== "string") return null;
    var target;
    try {
      target = new URL(address, location.href);
    } catch (error) {
      return null;
    }
    var web = target.protocol === "http:" || target.protocol === "https:";
    return web && target.origin === location.origin ? target : null;
  }
  function follow() {
    var holder = document.querySelector("[data-catalog-moved]");
    if (!holder || !location.hash) return;
    var id;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch (error) {
      return;
    }
    if (!/^[a-z0-9-]+--[0-9a-f]{8}$/.test(id) || document.getElementById(id)) return;
    var source = onThisSite(holder.getAttribute("data-catalog-moved"));
    if (!source) return;
    fetch(source)
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (lookup) {
        if (!lookup) return;
        var page = Object.prototype.hasOwnProperty.call(lookup.ids, id) ? lookup.ids[id] : -1;
        var hash = " " + id.slice(-8) + " ";
        for (var i = 0; page < 0 && i < lookup.hashes.length; i++) {
          if ((" " + lookup.hashes[i] + " ").indexOf(hash) >= 0) page = i;
        }
        var target = page >= 0 ? onThisSite(lookup.pages[page]) : null;
        if (target) location.replace(target.href.split("#")[0] + "#" + id);
      })
      .catch(function () { /* no lookup: the page stays as it is */ });
  }
  window.addEventListener("hashchange", follow);
  if (typeof document$ !== "undefined") document$.subscribe(follow);
  else document.addEventListener("DOMContentLoaded", follow);
})();
