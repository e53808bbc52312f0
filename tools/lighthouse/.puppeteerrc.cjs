// pa11y drives Chromium through puppeteer. Puppeteer must not download a browser of its own (no
// network but the package registries here): it uses Debian's chromium, which scripts/ensure-chromium.sh
// installs. Read by puppeteer's install step (run inside this folder) and by pa11y run from this folder.
module.exports = {
  skipDownload: true,
  executablePath: "/usr/bin/chromium",
};
