"""Lighthouse over every page type of the built site, served with gzip on 127.0.0.1.

`make lighthouse` runs this module: it prints a table of the four category scores and the transfer size
of each page type, and saves each JSON report. The tests reuse `run_all` and assert the deterministic
parts (accessibility, best practices, SEO, origin, transfer budget); performance is reported only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from catalog_docs.catalog.model import Catalog
from catalog_docs.devtools.static_server import serve
from catalog_docs.errors import CatalogDocsError

ROOT = Path(__file__).resolve().parents[3]
LIGHTHOUSE = ROOT / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
PAGES_SCRIPT = ROOT / "tools" / "lighthouse" / "lighthouse-pages.mjs"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TRANSFER_BUDGET = 120 * 1024
"""First load of a page, search index excluded, in bytes."""
QUIET_WITHOUT_PERFORMANCE = {"pauseAfterFcpMs": 250, "pauseAfterLoadMs": 250, "networkQuietThresholdMs": 250,
                             "cpuQuietThresholdMs": 250, "skipAboutBlank": True}
"""Lighthouse waits a second after first paint and after load, and for a second without network or main-thread
work (its defaults), so the performance trace has settled. Without performance scored, what the other categories
read (the DOM, the console, every request) is complete once the page is quiet at all: a quarter of a second each
(`make lighthouse`, which scores performance, keeps the defaults). Lighthouse also loads about:blank before each
page, which the new tab it opens for every page already shows: left out there (skipAboutBlank; the fixture site's
reports are the same with and without it: every request, its size and every audit's score)."""
INFORMATIVE_WITH_TRACE = ("baseline",)
"""Without performance scored, the one audit left that reads the page's trace: best practices' Baseline list, which
is informative (no weight, no score: it can move neither a category's score nor the failed audits). Left out there
(Lighthouse's skipAudits), and with it the trace, which Chrome records and Lighthouse parses for every page (the
saving is in CONTRIBUTING); `make lighthouse` keeps both."""


def page_types(catalog: Catalog) -> dict[str, str]:
    """One URL path per page type, picked from the catalogue so the list holds for any catalogue."""
    entry = next((e for e in catalog.entries if e.path is not None), catalog.entries[0])
    version = catalog.versions[0]
    pages = {
        "home": "",
        "operations": "operations/",
        "operation": f"operations/{entry.slug}/",
        "version": f"versions/{version.slug}/",
        "plan": f"plans/{version.plans[0].slug}/",
        "compare-any": "compare/",
        "matrix": "matrix/",
        "not-shown": "not-shown/",
        "sources": "sources/",
    }
    if len(catalog.versions) > 1:
        pages["compare"] = f"compare/{catalog.versions[0].slug}...{catalog.versions[1].slug}/"
    return pages


@dataclass(frozen=True, slots=True, kw_only=True)
class PageResult:
    """The figures of one Lighthouse run."""

    page_type: str
    url: str
    scores: dict[str, int]
    transfer_bytes: int
    """Bytes transferred on first load, search index excluded."""
    foreign_requests: tuple[str, ...]
    failed_audits: tuple[str, ...]
    report: Path


def _result(page_type: str, url: str, report: Path, categories: tuple[str, ...]) -> PageResult:
    data = json.loads(report.read_text(encoding="utf-8"))
    scores = {k: round((data["categories"][k]["score"] or 0) * 100) for k in categories}
    origin = urlsplit(url)[:2]
    transfer = 0
    foreign = []
    for item in data["audits"]["network-requests"]["details"]["items"]:
        parts = urlsplit(item["url"])
        if parts.scheme in ("data", "blob"):
            continue
        if parts[:2] != origin:
            foreign.append(item["url"])
        if not parts.path.endswith("search_index.json"):
            transfer += int(item.get("transferSize") or 0)
    failed = []
    for key in categories:
        for ref in data["categories"][key]["auditRefs"]:
            audit = data["audits"][ref["id"]]
            if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 1:
                failed.append(f"{key}/{ref['id']}")
    return PageResult(page_type=page_type, url=url, scores=scores, transfer_bytes=transfer,
                      foreign_requests=tuple(foreign), failed_audits=tuple(failed), report=report)


def run_all(site: Path, catalog: Catalog, out_dir: Path, categories: tuple[str, ...] = CATEGORIES) -> list[PageResult]:
    """Serve site/ with gzip on 127.0.0.1 and run Lighthouse (mobile, simulated throttling) on each page type,
    scoring `categories` (all four by default; without performance, each page costs a fraction). One node process
    and one Chrome for every page (tools/lighthouse/lighthouse-pages.mjs); each page's JSON report is saved."""
    if not LIGHTHOUSE.exists():
        raise CatalogDocsError(f"{LIGHTHOUSE} is missing: run `make lighthouse` (it installs Lighthouse locally)")
    out_dir.mkdir(parents=True, exist_ok=True)
    server, base = serve(site)
    try:
        pages = {name: (base + path, out_dir / f"{name}.json") for name, path in page_types(catalog).items()}
        # network-requests (the transfer size and the origins) is in no category: asked for by name. The full-page
        # screenshot only illustrates an HTML report, which is not written.
        flags: dict[str, object] = {"onlyCategories": list(categories), "onlyAudits": ["network-requests"],
                                    "disableFullPageScreenshot": True}
        unscored = "performance" not in categories
        if unscored:
            flags |= QUIET_WITHOUT_PERFORMANCE | {"skipAudits": list(INFORMATIVE_WITH_TRACE)}
        spec = {"chromePath": CHROMIUM, "chromeFlags": CHROME_FLAGS.split(), "flags": flags, "skipBenchmark": unscored,
                "pages": [[url, str(report)] for url, report in pages.values()]}
        proc = subprocess.run(["node", str(PAGES_SCRIPT), json.dumps(spec)], cwd=PAGES_SCRIPT.parent,
                              capture_output=True, text=True, timeout=900)
        if proc.returncode != 0:
            raise CatalogDocsError(f"lighthouse failed: {proc.stderr[-2000:]}")
        return [_result(name, url, report, categories) for name, (url, report) in pages.items()]
    finally:
        server.shutdown()


def format_table(results: list[PageResult]) -> str:
    """The readable table `make lighthouse` prints."""
    head = f"{'page type':<12} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'transfer KB':>12}  failed audits"
    lines = [head, "-" * len(head)]
    for r in results:
        s = r.scores
        lines.append(f"{r.page_type:<12} {s['performance']:>5} {s['accessibility']:>5} {s['best-practices']:>5} "
                     f"{s['seo']:>5} {r.transfer_bytes / 1024:>12.1f}  {', '.join(r.failed_audits) or '-'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`python -m catalog_docs.devtools.lighthouse --site site --out .lighthouse`"""
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.errors import CatalogInvalid

    parser = argparse.ArgumentParser(prog="catalog-docs-lighthouse", description=__doc__)
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--catalog", type=Path, default=Path("catalog"))
    parser.add_argument("--out", type=Path, default=Path(".lighthouse"))
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"catalog-docs-lighthouse: error: no built site in {args.site}: run `make site` first", file=sys.stderr)
        return 2
    try:
        results = run_all(args.site, load_catalog(args.catalog), args.out)
    except CatalogInvalid as exc:
        print(exc.report(), file=sys.stderr)
        return 1
    except CatalogDocsError as exc:
        print(f"catalog-docs-lighthouse: error: {exc}", file=sys.stderr)
        return 2
    print(format_table(results))
    for r in results:
        print(json.dumps({"page_type": r.page_type, **r.scores, "transfer_bytes": r.transfer_bytes,
                          "foreign_requests": list(r.foreign_requests), "report": str(r.report)}))
    print(f"JSON reports saved in {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
