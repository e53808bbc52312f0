// Lighthouse (mobile, simulated throttling) over several pages in one node process and one Chrome, the way the
// `lighthouse` command runs one page: a launch of node, Lighthouse and Chrome per page costs seconds each.
// Reads one JSON object from the arguments: {"chromePath", "chromeFlags": [...], "flags": {...}, "pages": [[url,
// report path], ...]}; writes each page's JSON report (Lighthouse's own, as --output=json writes it) to its path.
// Run by scripts/catalog_docs/devtools/lighthouse.py. Lighthouse resets the page's storage and cache before each
// page (disableStorageReset is false), so each report is the first load of its page, as a fresh Chrome gives.
import {writeFile} from "node:fs/promises";

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

async function main(spec) {
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
