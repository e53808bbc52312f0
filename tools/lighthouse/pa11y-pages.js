// pa11y (HTML_CodeSniffer and axe runners, WCAG2AA) over the URLs given as arguments, in one browser.
// Prints one JSON object: {url: [issue, ...]} with pa11y's issues (errors only: pa11y leaves warnings and
// notices out by default). Run by scripts/catalog_docs/devtools/pa11y.py; run from this folder, so puppeteer reads
// .puppeteerrc.cjs (Debian's chromium). One browser for all pages: a launch per page costs seconds.
"use strict";
const pa11y = require("pa11y");
const puppeteer = require("puppeteer");

async function main(urls) {
  const browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const results = {};
  try {
    for (const url of urls) {
      const page = await browser.newPage();
      try {
        const result = await pa11y(url, {
          browser,
          page,
          standard: "WCAG2AA",
          runners: ["htmlcs", "axe"],
          timeout: 120000,
        });
        results[url] = result.issues;
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(results) + "\n");
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`pa11y-pages: ${error.stack || error}\n`);
  process.exit(2);
});
