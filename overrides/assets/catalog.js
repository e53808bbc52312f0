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
