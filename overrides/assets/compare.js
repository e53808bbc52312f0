/* Any-pair comparison on /compare/, computed in the browser from downloads/catalog.json; no server.

   `compareSides(data, from, to)` is a pure function over catalog.json data. It mirrors
   catalog_docs.compare.compare_sides + export.comparison_data, and returns exactly what
   `catalog-docs diff FROM TO --format json` prints (tests/test_compare_js.py runs it under node and
   checks that, on several catalogues). The rest of the file only draws its records in the page. */
(function (root) {
  "use strict";

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
    return { label: label, plan: at >= 0 ? plan : null };
  }

  function change(kind, fields) {
    var c = { kind: kind, label: null, plan: null, position: null, path: null, from: null, to: null, detail: null };
    for (var k in fields) c[k] = fields[k];
    return c;
  }

  function comparePlans(data, a, b, name, changes, unchanged) {
    var n = Math.min(data.operations.length, a.values.length, b.values.length);
    for (var i = 0; i < n; i++) {
      var entry = data.operations[i], va = a.values[i].value, vb = b.values[i].value;
      if (va !== vb) {
        changes.push(change("value-changed", { plan: name, position: entry.position, path: entry.path, from: va, to: vb }));
      } else {
        unchanged.push({ plan: name, position: entry.position, path: entry.path, value: va });
      }
    }
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
      var name = pa.name === pb.name ? pa.name : pa.name + " -> " + pb.name;
      comparePlans(data, pa, pb, name, changes, unchanged);
      return { from: a.label + ":" + a.plan, to: b.label + ":" + b.plan, plans_added: [], plans_removed: [],
               changes: changes, unchanged: unchanged };
    }
    var namesA = va.plans.map(function (p) { return p.name; });
    var namesB = vb.plans.map(function (p) { return p.name; });
    var added = namesB.filter(function (n) { return namesA.indexOf(n) === -1; });
    var removed = namesA.filter(function (n) { return namesB.indexOf(n) === -1; });
    removed.forEach(function (n) { changes.push(change("plan-removed", { label: va.label, plan: n })); });
    added.forEach(function (n) { changes.push(change("plan-added", { label: vb.label, plan: n })); });
    namesA.filter(function (n) { return namesB.indexOf(n) !== -1; }).forEach(function (n) {
      comparePlans(data, findPlan(va, n), findPlan(vb, n), n, changes, unchanged);
    });
    return { from: va.label, to: vb.label, plans_added: added, plans_removed: removed,
             changes: changes, unchanged: unchanged };
  }

  var api = { compareSides: compareSides, parseSide: parseSide };
  if (typeof module === "object" && module.exports) module.exports = api;
  root.CatalogCompare = api;

  if (typeof document === "undefined") return;

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

  function table(head, rows) {
    return el("table", {}, [
      el("thead", {}, [el("tr", {}, head.map(function (h) { return el("th", {}, [h]); }))]),
      el("tbody", {}, rows.map(function (r) { return el("tr", {}, r.map(function (c) { return el("td", {}, [c]); })); }))
    ]);
  }

  function transitions(result) {
    var groups = {}, order = [];
    result.changes.forEach(function (c) {
      if (c.kind !== "value-changed") return;
      var key = c.from + "\u0000" + c.to;
      if (!groups[key]) { groups[key] = []; order.push(key); }
      groups[key].push(c);
    });
    return order.map(function (k) { return groups[k]; }).sort(function (x, y) {
      var a = x[0], b = y[0];
      return y.length - x.length || (a.from !== b.from ? (a.from < b.from ? -1 : 1) : (a.to < b.to ? -1 : 1));
    });
  }

  function draw(out, result, data, siteRoot) {
    var slugs = {};
    data.operations.forEach(function (o) { slugs[o.position] = o; });
    function opLink(position) {
      var op = slugs[position];
      return el("a", { href: siteRoot + "operations/" + encodeURIComponent(op.slug) + "/" },
                [op.path === null ? "Entry " + op.position : op.path]);
    }
    var groups = transitions(result);
    var summary = [
      ["Plan entries added", result.plans_added.length],
      ["Plan entries removed", result.plans_removed.length]
    ];
    var rows = summary.map(function (r) { return [r[0], String(r[1])]; });
    groups.forEach(function (g) {
      rows.push([el("span", {}, ["Values changed ", lock(g[0].from), " \u2192 ", lock(g[0].to)]), String(g.length)]);
    });
    rows.push(["Values unchanged", String(result.unchanged.length)]);
    out.textContent = "";
    out.appendChild(el("h3", {}, [result.from + " \u2192 " + result.to]));
    out.appendChild(table(["Change", "Count"], rows));
    if (!result.changes.length) out.appendChild(el("p", {}, ["Nothing differs between these two."]));
    groups.forEach(function (g) {
      out.appendChild(el("h4", {}, [g[0].from + " \u2192 " + g[0].to + " (" + g.length + ")"]));
      out.appendChild(table(["#", "Operation", "Plan entry", result.from, result.to], g.map(function (c) {
        return [String(c.position), opLink(c.position), c.plan, lock(c.from), lock(c.to)];
      })));
    });
    result.changes.forEach(function (c) {
      if (c.kind === "plan-removed") {
        out.appendChild(el("p", {}, ["Plan entry " + c.plan + " removed: listed under " + result.from + "; ",
                                      notListed(), " under " + result.to + "."]));
      } else if (c.kind === "plan-added") {
        out.appendChild(el("p", {}, ["Plan entry " + c.plan + " added: ", notListed(),
                                      " under " + result.from + "; listed under " + result.to + "."]));
      }
    });
  }

  var script = document.currentScript;
  var form = document.getElementById("catalog-compare");
  var out = document.getElementById("catalog-compare-result");
  if (!form || !out || !script) return;
  var siteRoot = new URL("../", script.src).href;
  var dataUrl = new URL("../downloads/catalog.json", script.src).href;
  var loaded = null;

  function run(event) {
    if (event) event.preventDefault();
    var from = form.elements.from.value, to = form.elements.to.value;
    if (!loaded) loaded = fetch(dataUrl).then(function (r) {
      if (!r.ok) throw new Error("could not load catalog.json (" + r.status + ")");
      return r.json();
    });
    loaded.then(function (data) {
      draw(out, compareSides(data, from, to), data, siteRoot);
    }).catch(function (error) {
      out.textContent = "";
      out.appendChild(el("p", { "class": "catalog-compare-error", role: "alert" }, [error.message]));
    });
  }

  form.addEventListener("submit", run);
  form.hidden = false;
  run(null);
})(typeof globalThis !== "undefined" ? globalThis : this);
