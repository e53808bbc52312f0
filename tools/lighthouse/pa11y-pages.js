// pa11y (HTML_CodeSniffer and axe runners, WCAG2AA) over the URLs given as arguments, in one browser.
// Prints one JSON object: {url: [issue, ...]} with pa11y's issues (errors only: pa11y leaves warnings and
// notices out by default). Run by scripts/catalog_docs/devtools/pa11y.py; run from this folder, so puppeteer reads
// .puppeteerrc.cjs (Debian's chromium).
// One browser and one tab for every page, handed to pa11y (its `browser` and `page` options): a browser per page
// costs seconds, and a tab per page a renderer process and the runners' scripts compiled anew. A page starts as
// in a new tab: each page is a new document, and its session storage is cleared after it is checked (local
// storage and the HTTP cache are the browser's, shared by every tab, as before).
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
    const page = await browser.newPage();
    for (const url of urls) {
      const result = await pa11y(url, {
        browser,
        page,
        standard: "WCAG2AA",
        runners: ["htmlcs", "axe"],
        timeout: 120000,
      });
      results[url] = result.issues;
      await page.evaluate(() => window.sessionStorage.clear());
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
