/* Any-pair comparison on /compare/, computed in the browser from downloads/catalog.json; no server.

   Why a port and not precomputed records: every pair of sides of a catalogue of 20 labels x 4 plan
   entries x 1,000 operations is 6,400 (label:plan) pairs of 1,000 values each, far too much to publish;
   catalog.json, which the site publishes anyway, is all the input the comparison needs.

   `compareSides(data, from, to)` is a pure function over catalog.json data. It is a line-by-line port of
   catalog_docs.compare.compare_sides + diffjson.comparison_data, and returns exactly what
   `catalog-docs diff FROM TO --format json` prints (tests/compare/test_compare_js.py runs it under node and
   checks that, on several catalogues). The rest of the file only formats its records, as
   catalog_docs.formats does: grouped by label, then plan entry, then transition. */
(function (root) {
  "use strict";

  var KINDS = ["value-changed", "plan-added", "plan-removed", "entry-added", "entry-removed", "entry-changed",
               "label-added", "label-removed", "not-shown-added", "not-shown-removed", "not-shown-changed",
               "value-added", "value-removed", "label-changed", "plan-changed", "service-changed", "area-added",
               "area-removed", "area-changed"];
  var VALUE_KINDS = ["value-changed", "value-added", "value-removed"];

  function fail(message) {
    var error = new Error(message);
    error.name = "CompareError";
    throw error;
  }

  function quoted(text) { return "'" + text + "'"; }

  function findVersion(data, label) {
    for (var i = 0; i < data.versions.length; i++) if (data.versions[i].label === label) return data.versions[i];
    return null;
  }

  function findPlan(version, name) {
    for (var i = 0; i < version.plans.length; i++) if (version.plans[i].name === name) return version.plans[i];
    return null;
  }

  /* `LABEL` or `LABEL:PLAN`, checked against the catalogue (as compare.parse_side). */
  function parseSide(data, text) {
    var at = text.indexOf(":");
    var label = (at < 0 ? text : text.slice(0, at)).trim();
    var plan = at < 0 ? "" : text.slice(at + 1).trim();
    var labels = data.versions.map(function (v) { return quoted(v.label); }).join(", ");
    if (!label || plan.indexOf(":") !== -1) fail(quoted(text) + " is not LABEL or LABEL:PLAN; valid labels: " + labels);
    var version = findVersion(data, label);
    if (!version) fail("unknown version label " + quoted(label) + "; valid labels: " + labels);
    if (at >= 0 && !plan) {
      fail(quoted(text) + ": expected LABEL:PLAN with a plan entry after ':'; valid here: " +
           version.plans.map(function (p) { return quoted(label + ":" + p.name); }).join(", "));
    }
    if (at >= 0 && !findPlan(version, plan)) {
      fail("plan entry " + quoted(plan) + " is not listed under " + quoted(label) + "; listed there: " +
           version.plans.map(function (p) { return quoted(p.name); }).join(", "));
    }
    return { revision: null, label: label, plan: at >= 0 ? plan : null, name: null };
  }

  /* A place on one side (compare.Place): every field present, null where it does not apply. */
  function place(label, plan, entry, value) {
    return { label: label === undefined ? null : label, plan: plan === undefined ? null : plan,
             position: entry ? entry.position : null, path: entry ? entry.path : null,
             value: value === undefined ? null : value, not_shown: null, section: null, service: null, area: null };
  }

  /* ---- change ids: a port of catalog_docs.compare.ids.make_id (the same id for the same record) ---- */

  function fnv1a(text) {
    var bytes = new TextEncoder().encode(text), h = 0x811c9dc5;
    for (var i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
    return ("0000000" + h.toString(16)).slice(-8);
  }

  function slug(name) { return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 48).replace(/-+$/, ""); }

  function makeId(kind, parts) {
    var hashed = kind, names = [];
    parts.forEach(function (p, i) {
      hashed += "\u001f" + (p === null ? "" : "\u001e" + p);
      if (p === null || ((i === 1 || i === 3) && parts[i - 1] === p)) return;
      var s = slug(p);
      if (s) names.push(s);
    });
    return [kind].concat(names, [fnv1a(hashed)]).join("--");
  }

  /* compare.Change.id: kind, label and plan entry on each side, and the listing entry (the earlier side's
     where it has one) the record is about. */
  function changeId(kind, from, to) {
    var entry = from.position !== null ? from : to;
    var thing = entry.position !== null ? (entry.path !== null ? entry.path : "entry-" + entry.position) : null;
    return makeId(kind, [from.label, to.label, from.plan, to.plan, thing]);
  }

  function change(kind, from, to, extra) {
    return { id: changeId(kind, from, to), kind: kind, from: from, to: to, basis: (extra && extra.basis) || null,
             seen_under: (extra && extra.seen_under) || [], fields: (extra && extra.fields) || [],
             values: (extra && extra.values) || {}, possibly_renamed: null, acknowledged: null };
  }

  /* The facts of a plan entry as listed under a label (compare.facts): its place among the label's plan
     entries and its source, on the side that has it; `added` says which side that is. */
  function planFacts(version, plan, added) {
    var order = version.plans.indexOf(plan) + 1;
    function pair(value) { return added ? { from: null, to: value } : { from: value, to: null }; }
    return { fields: ["order", "source"], values: { order: pair(order), source: pair(plan.source) } };
  }

  function compareValues(entries, before, after, a, b, changes, unchanged) {
    for (var i = 0; i < entries.length; i++) {
      var e = entries[i], va = a.values[i].value, vb = b.values[i].value;
      var x = place(before[0], before[1], e, va), y = place(after[0], after[1], e, vb);
      if (va !== vb) changes.push(change("value-changed", x, y));
      else unchanged.push({ from: x, to: y });
    }
  }

  function latestEarlierListing(data, name, label) {
    var at = data.versions.map(function (v) { return v.label; }).indexOf(label);
    for (var i = at - 1; i >= 0; i--) if (findPlan(data.versions[i], name)) return data.versions[i];
    return null;
  }

  function listingLabels(data, name) {
    return data.versions.filter(function (v) { return findPlan(v, name); }).map(function (v) { return v.label; });
  }

  /* A plan entry listed under `version` only: each value against its latest earlier listing, or new. */
  function listed(data, fromLabel, version, plan, changes, unchanged) {
    var prev = latestEarlierListing(data, plan.name, version.label);
    var facts = planFacts(version, plan, true);
    changes.push(change("plan-added", place(fromLabel), place(version.label, plan.name),
                        { basis: prev ? place(prev.label, plan.name) : null, fields: facts.fields, values: facts.values }));
    if (prev) {
      compareValues(data.operations, [prev.label, plan.name], [version.label, plan.name],
                    findPlan(prev, plan.name), plan, changes, unchanged);
    } else {
      data.operations.forEach(function (e, i) {
        changes.push(change("value-added", place(fromLabel, null, e), place(version.label, plan.name, e, plan.values[i].value)));
      });
    }
  }

  function unlisted(data, version, plan, toLabel, changes) {
    var seen = listingLabels(data, plan.name);
    var facts = planFacts(version, plan, false);
    changes.push(change("plan-removed", place(version.label, plan.name), place(toLabel),
                        { seen_under: seen, fields: facts.fields, values: facts.values }));
    data.operations.forEach(function (e, i) {
      changes.push(change("value-removed", place(version.label, plan.name, e, plan.values[i].value),
                          place(toLabel, null, e), { seen_under: seen.slice() }));
    });
  }

  function result(mode, a, b, changes, unchanged) {
    var byKind = {};
    KINDS.forEach(function (k) { byKind[k] = 0; });
    changes.forEach(function (c) { byKind[c.kind] += 1; });
    return { format: "catalog-docs-diff", format_version: "1.7", mode: mode, from: a, to: b,
             counts: { differences: changes.length, unchanged: unchanged.length, by_kind: byKind },
             changes: changes, unchanged: unchanged, gate: null };
  }

  /* Compare two labels (plan entries matched by name) or two LABEL:PLAN pairs. */
  function compareSides(data, fromText, toText) {
    var a = parseSide(data, fromText), b = parseSide(data, toText);
    if ((a.plan === null) !== (b.plan === null)) {
      fail("compare a label with a label, or LABEL:PLAN with LABEL:PLAN, not one with the other");
    }
    var va = findVersion(data, a.label), vb = findVersion(data, b.label);
    var changes = [], unchanged = [];
    if (a.plan !== null) {
      var pa = findPlan(va, a.plan), pb = findPlan(vb, b.plan);
      compareValues(data.operations, [va.label, pa.name], [vb.label, pb.name], pa, pb, changes, unchanged);
      return result("plans", a, b, changes, unchanged);
    }
    vb.plans.forEach(function (p) {
      var old = findPlan(va, p.name);
      if (!old) listed(data, va.label, vb, p, changes, unchanged);
      else compareValues(data.operations, [va.label, p.name], [vb.label, p.name], old, p, changes, unchanged);
    });
    va.plans.forEach(function (p) {
      if (!findPlan(vb, p.name)) unlisted(data, va, p, vb.label, changes);
    });
    return result("labels", { revision: null, label: va.label, plan: null, name: null },
                  { revision: null, label: vb.label, plan: null, name: null }, changes, unchanged);
  }

  /* ---- formatting only, as catalog_docs.formats: records by label and plan entry, then transition ---- */

  function groupLabel(c) { return c.to.label !== null ? c.to.label : c.from.label; }
  function groupPlan(c) { return c.to.plan !== null ? c.to.plan : c.from.plan; }

  function groups(res) {
    var out = [], index = {};
    res.changes.forEach(function (c) {
      var key = groupLabel(c) + "\u0000" + groupPlan(c);
      if (!(key in index)) { index[key] = out.length; out.push({ label: groupLabel(c), plan: groupPlan(c), records: [], values: [], unchanged: [] }); }
      var g = out[index[key]];
      (VALUE_KINDS.indexOf(c.kind) >= 0 ? g.values : g.records).push(c);
    });
    res.unchanged.forEach(function (u) {
      var key = u.to.label + "\u0000" + u.to.plan;
      if (key in index) out[index[key]].unchanged.push(u);
    });
    out.forEach(function (g) {
      g.opening = g.records.filter(function (c) { return c.kind === "plan-added" || c.kind === "plan-removed"; })[0] || null;
    });
    return out;
  }

  function transitions(values) {
    var found = {}, order = [];
    values.forEach(function (c) {
      var key = c.kind + "\u0000" + c.from.value + "\u0000" + c.to.value;
      if (!found[key]) { found[key] = []; order.push(key); }
      found[key].push(c);
    });
    return order.map(function (k) { return found[k]; }).sort(function (x, y) {
      var kx = VALUE_KINDS.indexOf(x[0].kind), ky = VALUE_KINDS.indexOf(y[0].kind);
      if (kx !== ky) return kx - ky;
      if (x.length !== y.length) return y.length - x.length;
      var a = String(x[0].from.value) + String(x[0].to.value), b = String(y[0].from.value) + String(y[0].to.value);
      return a < b ? -1 : a > b ? 1 : 0;
    });
  }

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  /* 1st, 2nd, 3rd, 11th (formats.ordinal) */
  function ordinal(n) {
    var suffix = [11, 12, 13].indexOf(n % 100) >= 0 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
    return n + suffix;
  }

  var api = { compareSides: compareSides, parseSide: parseSide, groups: groups, transitions: transitions, makeId: makeId };
  if (typeof module === "object" && module.exports) module.exports = api;
  root.CatalogCompare = api;

  if (typeof document === "undefined") return;

  /* ---- permalinks: every change's row or sentence has its id as anchor, and a link to it; a click on that
     link also copies its address (the link still works as a link: keyboard, no JavaScript, no clipboard) ---- */

  function status() {
    var live = document.getElementById("catalog-permalink-status");
    if (!live) {
      live = document.createElement("p");
      live.id = "catalog-permalink-status";
      live.setAttribute("role", "status");
      /* read out, not shown: the address bar shows the link */
      live.setAttribute("style", "position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap");
      document.body.appendChild(live);
    }
    return live;
  }

  function copyPermalink(event) {
    var link = event.target && event.target.closest ? event.target.closest("a.catalog-permalink") : null;
    if (!link || !navigator.clipboard || !window.isSecureContext) return;
    var address = new URL(link.getAttribute("href"), window.location.href).href;
    navigator.clipboard.writeText(address).then(function () {
      status().textContent = "Link to this change copied";
    }, function () { /* no permission: the address bar has the link */ });
  }

  if (!root.CatalogPermalinks) {
    root.CatalogPermalinks = true;
    document.addEventListener("click", copyPermalink);
  }

  /* ---- drawing: every catalogue string goes in through textContent, never as markup ---- */

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return node;
  }

  function lock(value) { return el("span", { "class": "lock lock-" + value }, [value]); }

  function notListed() {
    return el("span", { "class": "not-listed", title: "This label does not list this plan entry" }, ["not listed"]);
  }

  function newValue() {
    return el("span", { "class": "new-value", title: "No earlier label lists this plan entry" }, ["new"]);
  }

  /* `ids` (optional): the change id of each row, its anchor. */
  /* `path` (optional): the column that holds the operation, whose path breaks only before a "/". */
  function table(head, rows, ids, path) {
    return el("div", { "class": "catalog-change" }, [el("table", {}, [
      el("thead", {}, [el("tr", {}, head.map(function (h) { return el("th", { scope: "col" }, [h]); }))]),
      el("tbody", {}, rows.map(function (r, i) {
        return el("tr", ids ? { id: ids[i] } : {}, r.map(function (c, k) {
          return el("td", k === path ? { "class": "catalog-path" } : {}, [c]);
        }));
      }))
    ])]);
  }

  function permalink(c) {
    return el("a", { "class": "catalog-permalink", href: "#" + c.id, title: "Link to this change (click to copy)" }, ["#"]);
  }

  /* A change's position, as the link to its row (as on the compare pages). */
  function positionLink(c, position) {
    return el("a", { "class": "catalog-permalink", href: "#" + c.id, title: "Link to this change (click to copy)",
                     "aria-label": "Position " + position + ": link to this change" }, [String(position)]);
  }

  function ids(changes) { return changes.map(function (c) { return c.id; }); }

  function draw(out, res, data, siteRoot) {
    var ops = {};
    data.operations.forEach(function (o) { ops[o.position] = o; });
    function opLink(position) {
      var op = ops[position];
      /* A path breaks only before a "/" (catalog.css: .catalog-path), never inside a word. */
      var parts = op.path === null ? ["Entry " + op.position] : op.path.split(/(?=\/)/);
      var link = el("a", { href: siteRoot + "operations/" + encodeURIComponent(op.slug) + "/" });
      parts.forEach(function (part, i) {
        if (i) link.appendChild(el("wbr"));
        link.appendChild(document.createTextNode(part));
      });
      return link;
    }
    /* A side in words: the label, or the plan entry under its label (never the LABEL:PLAN argument form). */
    function name(s) { return s.plan === null ? s.label : s.plan + " under " + s.label; }
    var fromName = name(res.from), toName = name(res.to);
    var n = res.counts.by_kind;
    var rows = [];
    [["plan-added", "Plan entry listing added", "Plan entry listings added"],
     ["plan-removed", "Plan entry listing removed", "Plan entry listings removed"]]
      .forEach(function (k) { if (n[k[0]]) rows.push([n[k[0]] === 1 ? k[1] : k[2], String(n[k[0]])]); });
    transitions(res.changes.filter(function (c) { return c.kind === "value-changed"; })).forEach(function (g) {
      rows.push([el("span", {}, [(g.length === 1 ? "Value changed " : "Values changed "), lock(g[0].from.value), " \u2192 ",
                                 lock(g[0].to.value)]), String(g.length)]);
    });
    if (n["value-added"]) rows.push([n["value-added"] === 1 ? "New value (no earlier listing)" : "New values (no earlier listing)", String(n["value-added"])]);
    if (n["value-removed"]) rows.push([n["value-removed"] === 1 ? "Value no longer listed" : "Values no longer listed", String(n["value-removed"])]);
    rows.push([res.counts.unchanged === 1 ? "Value unchanged" : "Values unchanged", String(res.counts.unchanged)]);
    out.textContent = "";
    out.appendChild(el("h3", {}, [fromName + " \u2192 " + toName]));
    out.appendChild(el("p", {}, [res.changes.length ? plural(res.changes.length, "difference", "differences") + "."
                                                    : "Nothing differs between these two."]));
    out.appendChild(table(["Change", "Count"], rows));
    groups(res).forEach(function (g) {
      var o = g.opening;
      out.appendChild(el("h4", {}, [res.mode === "plans" ? fromName + " \u2192 " + toName : g.label + " \u00b7 plan entry " + g.plan]));
      /* The listing's own facts, as the text and Markdown formats print them (2nd among the plan entries, cited from §8). */
      var side = o && o.kind === "plan-added" ? "to" : "from";
      var facts = o ? " (" + ordinal(o.values.order[side]) + " among the plan entries, cited from " +
        o.values.source[side] + ")" : "";
      if (o && o.kind === "plan-added") {
        out.appendChild(el("p", { id: o.id }, o.basis
          ? [notListed(), " under " + fromName + "; listed under " + toName + facts + ". Each value is compared with its previous label, " +
             o.basis.label + " (the latest earlier label that lists " + g.plan + "). ", permalink(o)]
          : [notListed(), " under " + fromName + "; listed under " + toName + facts + ". No earlier label lists " + g.plan +
             ", so each value is ", newValue(), ". ", permalink(o)]));
      } else if (o && o.kind === "plan-removed") {
        out.appendChild(el("p", { id: o.id }, ["Listed under " + fromName + facts + "; ", notListed(), " under " + toName + ". " +
          (o.seen_under.length ? "Its values can still be seen under " + o.seen_under.join(", ") + "." : "No label lists it any more.") + " ",
          permalink(o)]));
      }
      transitions(g.values).forEach(function (t) {
        var c0 = t[0];
        if (c0.kind === "value-changed") {
          out.appendChild(el("h5", {}, [c0.from.value + " \u2192 " + c0.to.value + " (" + plural(t.length, "value", "values") + ")"]));
          out.appendChild(table(["Position", "Operation", name(c0.from), name(c0.to)], t.map(function (c) {
            return [positionLink(c, c.to.position), opLink(c.to.position), lock(c.from.value), lock(c.to.value)];
          }), ids(t), 1));
        } else if (c0.kind === "value-added") {
          /* Read in one pass, earlier side first (formats.transition_title). */
          out.appendChild(el("h5", {}, [plural(t.length, "value", "values") + ": not listed under " + fromName + ", " +
                                        c0.to.value + " under " + toName]));
          out.appendChild(table(["Position", "Operation", fromName, toName], t.map(function (c) {
            return [positionLink(c, c.to.position), opLink(c.to.position), notListed(), el("span", {}, [lock(c.to.value), " ", newValue()])];
          }), ids(t), 1));
        } else {
          out.appendChild(el("h5", {}, [plural(t.length, "value", "values") + ": " + c0.from.value + " under " + fromName +
                                        ", not listed under " + toName]));
          out.appendChild(table(["Position", "Operation", fromName, toName], t.map(function (c) {
            return [positionLink(c, c.from.position), opLink(c.from.position), lock(c.from.value), notListed()];
          }), ids(t), 1));
        }
      });
      if (o && o.kind === "plan-added" && g.unchanged.length) {
        out.appendChild(el("h5", {}, ["Unchanged since " + g.unchanged[0].from.label + " (" + plural(g.unchanged.length, "value", "values") + ")"]));
        out.appendChild(table(["Position", "Operation", g.unchanged[0].from.label, g.unchanged[0].to.label], g.unchanged.map(function (u) {
          return [String(u.to.position), opLink(u.to.position), lock(u.from.value), lock(u.to.value)];
        }), null, 1));
      } else if (g.unchanged.length) {
        out.appendChild(el("p", {}, [plural(g.unchanged.length, "value", "values") + " unchanged."]));
      }
    });
  }

  /* ---- the form: its choice lives in the URL (?from=...&to=...), so a comparison is a link ---- */

  var script = document.currentScript;
  var form = document.getElementById("catalog-compare");
  var out = document.getElementById("catalog-compare-result");
  if (!form || !out || !script) return;
  var siteRoot = new URL("../", script.src).href;
  var dataUrl = new URL("../downloads/catalog.json", script.src).href;
  var loaded = null;

  function hasOption(select, value) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === value; });
  }

  /* Put the URL's choice (when it names two known sides) into the form; the newest pair otherwise. */
  function fromUrl() {
    var query = new URLSearchParams(window.location.search);
    var from = query.get("from"), to = query.get("to");
    if (from !== null && to !== null && hasOption(form.elements.from, from) && hasOption(form.elements.to, to)) {
      form.elements.from.value = from;
      form.elements.to.value = to;
      return true;
    }
    form.elements.from.value = form.elements.from.getAttribute("data-default");
    form.elements.to.value = form.elements.to.getAttribute("data-default");
    return from === null && to === null;
  }

  var UNKNOWN = "The link names a pair that is not in this catalogue; showing the newest pair instead.";

  /* Mark the change a followed link names (:target does not match a row drawn after the page loaded). */
  function markTarget(target) {
    Array.prototype.forEach.call(document.querySelectorAll(".catalog-targeted"), function (x) {
      x.classList.remove("catalog-targeted");
    });
    if (target) target.classList.add("catalog-targeted");
  }

  /* Draw the form's pair; `notice` (text) goes above the result; `reveal`: scroll the result into view (a link
     that names a pair, such as "since my version", or a choice just made), unless a change is named. */
  function run(notice, reveal) {
    var from = form.elements.from.value, to = form.elements.to.value;
    if (!loaded) loaded = fetch(dataUrl).then(function (r) {
      if (!r.ok) throw new Error("could not load catalog.json (" + r.status + ")");
      return r.json();
    });
    loaded.then(function (data) {
      draw(out, compareSides(data, from, to), data, siteRoot);
      if (notice) out.insertBefore(el("p", { "class": "catalog-compare-error", role: "alert" }, [notice]), out.firstChild);
      /* catalog.js draws a table too wide for a phone as cards: these tables came after it measured the page. */
      document.dispatchEvent(new CustomEvent("catalog:tables-drawn"));
      /* A shared link to one change (?from=...&to=...#CHANGE-ID): its row exists only now. */
      var target = linkedChange();
      if (target && out.contains(target)) {
        markTarget(target);
        target.scrollIntoView();
      } else if (reveal) {
        out.scrollIntoView();
      }
    }).catch(function (error) {
      out.textContent = "";
      out.appendChild(el("p", { "class": "catalog-compare-error", role: "alert" }, [error.message]));
    });
  }

  /* The element a shared link's fragment names, or null. The fragment is the reader's input: one that is not
     valid percent-encoding (#%E0%A4%A) names no change, instead of throwing and blanking the comparison. */
  function linkedChange() {
    if (!window.location.hash) return null;
    try {
      return document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    } catch (error) {
      return null;
    }
  }

  form.elements.from.setAttribute("data-default", form.elements.from.value);
  form.elements.to.setAttribute("data-default", form.elements.to.value);
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var query = "?from=" + encodeURIComponent(form.elements.from.value) + "&to=" + encodeURIComponent(form.elements.to.value);
    if (window.location.search !== query) window.history.pushState({ catalogCompare: true }, "", query);
    run(null, true);
  });
  /* Back and forward: draw what the URL now names. One listener per window, however often the theme's
     instant navigation runs this script again; it finds the form anew each time. */
  root.CatalogCompareRedraw = function () {
    if (document.getElementById("catalog-compare") !== form) return;
    run(fromUrl() ? null : UNKNOWN, false);
  };
  if (!root.CatalogComparePopstate) {
    root.CatalogComparePopstate = true;
    window.addEventListener("popstate", function () { if (root.CatalogCompareRedraw) root.CatalogCompareRedraw(); });
  }
  if (!root.CatalogCompareHash) {
    root.CatalogCompareHash = true;
    window.addEventListener("hashchange", function () { markTarget(linkedChange()); });
  }
  form.hidden = false;
  var named = new URLSearchParams(window.location.search);
  run(fromUrl() ? null : UNKNOWN, named.has("from") && named.has("to"));
})(typeof globalThis !== "undefined" ? globalThis : this);
