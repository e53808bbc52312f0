// Lighthouse (mobile, simulated throttling) over several pages in one node process and one Chrome, the way the
// `lighthouse` command runs one page: a launch of node, Lighthouse and Chrome per page costs seconds each.
// Reads one JSON object from the arguments: {"chromePath", "chromeFlags": [...], "flags": {...}, "skipBenchmark",
// "pages": [[url, report path], ...]}; writes each page's JSON report (Lighthouse's own, as --output=json writes
// it) to its path. Audits in flags.skipAudits must weigh nothing in any category (assertUnscored). With no page,
// it only checks the Lighthouse internals it reaches into (below) and starts no Chrome.
//
// Lighthouse has no documented way to do two things done here, so this file reaches into its modules, and only
// here (ARCHITECTURE.md, "Other packages"): each audit's `meta` getter (readAuditMetaOnce) and the page function
// that measures the machine (pageFunctions.computeBenchmarkIndex). Lighthouse is pinned (package.json); when an
// upgrade moves either, this script stops with a message naming what moved instead of running slower unnoticed,
// and tests/devtools/test_lighthouse.py fails with it.
// Run by scripts/catalog_docs/devtools/lighthouse.py. Lighthouse opens a new tab for each page (it is given no
// page) and resets the page's storage and cache before loading it (disableStorageReset is false), so each report is
// the first load of its page, as a fresh Chrome gives.
import {writeFile} from "node:fs/promises";

// The default config alone (a third of Lighthouse's loading time): a refused spec (assertUnscored) ends before
// Lighthouse itself is loaded.
import defaultConfig from "lighthouse/core/config/default-config.js";

// An audit left out (flags.skipAudits) must be one no score reads: weight 0 wherever Lighthouse's default config
// places it. A Lighthouse that gave it a weight would make leaving it out hide a scored check: refused.
function assertUnscored(skipped) {
  for (const [category, {auditRefs}] of Object.entries(defaultConfig.categories)) {
    for (const {id, weight} of auditRefs) {
      if (skipped.includes(id) && weight !== 0) {
        throw new Error(`${id} is left out but weighs ${weight} in ${category}`);
      }
    }
  }
}

// Every audit's `meta` is a getter that builds its title and descriptions anew, each a localized message formatted
// by Intl (an ICU parse and a locale lookup), and Lighthouse reads it many times per page: the accessibility audits
// once per axe rule result, to find their own. The getters return the same text on every call, so each is read once
// and a copy handed out: the reports are the same, and node spends less (the saving is in CONTRIBUTING).
async function readAuditMetaOnce() {
  let cached = 0;
  const audits = new URL("../audits/", import.meta.resolve("lighthouse/core/config/default-config.js"));
  for (const audit of defaultConfig.audits) {
    const {default: implementation} = await import(new URL(`${audit.path || audit}.js`, audits));
    const getter = Object.getOwnPropertyDescriptor(implementation, "meta")?.get;
    if (!getter) {
      continue;
    }
    let meta;
    Object.defineProperty(implementation, "meta", {
      configurable: true,
      get() {
        if (this !== implementation) {
          return getter.call(this);
        }
        meta ??= getter.call(implementation);
        return structuredClone(meta);
      },
    });
    cached += 1;
  }
  if (cached === 0) {
    throw new Error(moved("no audit of the default config has a `meta` getter (readAuditMetaOnce)"));
  }
}

function moved(what) {
  return `Lighthouse changed what tools/lighthouse/lighthouse-pages.mjs reaches into: ${what}; revisit that script `
    + "(ARCHITECTURE.md, Other packages)";
}

async function main(spec) {
  assertUnscored(spec.flags.skipAudits || []);
  const [{default: lighthouse}, chromeLauncher, {pageFunctions}] = await Promise.all([
    import("lighthouse"), import("chrome-launcher"), import("lighthouse/core/lib/page-functions.js"),
  ]);
  await readAuditMetaOnce();
  if (typeof pageFunctions.computeBenchmarkIndex !== "function") {
    throw new Error(moved("pageFunctions.computeBenchmarkIndex is not a function of lighthouse/core/lib/page-functions.js"));
  }
  if (spec.pages.length === 0) {
    return;
  }
  if (spec.skipBenchmark) {
    // Lighthouse spends a second of processor time in every page measuring the machine (BenchmarkIndex), which
    // only the performance category uses. Without performance scored (spec.skipBenchmark) the measurement is
    // left out: the report has no benchmarkIndex (tests/devtools/test_lighthouse.py checks both).
    pageFunctions.computeBenchmarkIndex = function computeBenchmarkIndex() {
      return Number.NaN;
    };
  }
  const chrome = await chromeLauncher.launch({chromePath: spec.chromePath, chromeFlags: spec.chromeFlags});
  try {
    for (const [url, report] of spec.pages) {
      const result = await lighthouse(url, {...spec.flags, port: chrome.port, output: "json", logLevel: "error"});
      if (!result || result.lhr.runtimeError) {
        throw new Error(`${url}: ${result ? result.lhr.runtimeError.message : "no result"}`);
      }
      await writeFile(report, result.report);
    }
  } finally {
    await chrome.kill();
  }
}

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`lighthouse-pages: ${error.stack || error}\n`);
  process.exit(2);
});
