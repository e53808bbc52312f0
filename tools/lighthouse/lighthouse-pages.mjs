// Lighthouse (mobile, simulated throttling) over several pages in one node process and one Chrome, the way the
// `lighthouse` command runs one page: a launch of node, Lighthouse and Chrome per page costs seconds each.
// Reads one JSON object from the arguments: {"chromePath", "chromeFlags": [...], "flags": {...}, "skipBenchmark",
// "pages": [[url, report path], ...]}; writes each page's JSON report (Lighthouse's own, as --output=json writes
// it) to its path. Audits in flags.skipAudits must weigh nothing in any category (assertUnscored).
// Run by scripts/catalog_docs/devtools/lighthouse.py. Lighthouse resets the page's storage and cache before each
// page (disableStorageReset is false), so each report is the first load of its page, as a fresh Chrome gives.
import {writeFile} from "node:fs/promises";

import * as chromeLauncher from "chrome-launcher";
import lighthouse, {defaultConfig} from "lighthouse";
import {pageFunctions} from "lighthouse/core/lib/page-functions.js";

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

async function main(spec) {
  assertUnscored(spec.flags.skipAudits || []);
  if (spec.skipBenchmark) {
    // Lighthouse spends a second of processor time in every page measuring the machine (BenchmarkIndex), which
    // only the performance category uses. Without performance scored (spec.skipBenchmark) the measurement is
    // left out: the report says null. Lighthouse is pinned (package.json), so this internal stays where it is.
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
