"""Every built page is valid HTML by the Nu Html Checker (vnu-jar from tools/lighthouse, Debian's Java).

One checker process reads the whole site (starting Java per page would cost seconds each). A page the
checker must refuse goes into the same run, so a checker that silently checks nothing fails the test.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VNU = ROOT / "tools" / "lighthouse" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
pytestmark = pytest.mark.site

JAVA_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss8m"]
"""How Java runs the checker: a run of seconds spends most of its processor time compiling, which the quick compiler
alone (tier 1) and one garbage collector thread cut down; the same checker gives the same verdicts. Code of the quick
compiler needs more stack than Java's default to read the HTML schema (the checker stops with a StackOverflowError
otherwise), hence -Xss."""

# --no-langdetect: the checker's guess at each page's language (a large part of its work) can only give warnings
# (a lang attribute that differs from the guess, or none), which this test does not read: it fails on errors
# alone, so its verdicts are the same.

INVALID_PAGE = """<!doctype html>
<html lang="en"><head><title>canary</title></head>
<body><input type="checkbox" id="canary" autocomplete="off"></body></html>
"""


def _vnu_errors(paths: list[Path]) -> list[dict]:
    java = shutil.which("java")
    assert java, "java is missing: `make tools` installs Debian's default-jre-headless (scripts/ensure-java.sh)"
    assert VNU.is_file(), f"{VNU} is missing: run `make tools` (npm ci in tools/lighthouse)"
    command = [java, *JAVA_OPTIONS, "-jar", str(VNU), "--format", "json", "--skip-non-html", "--no-langdetect",
               *map(str, paths)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    # vnu writes its JSON report on stderr and exits 1 when it found an error
    report = json.loads(proc.stderr)
    return [m for m in report["messages"] if m["type"] in ("error", "non-document-error")]


def test_every_built_page_is_valid_html(built_site: Path, tmp_path: Path) -> None:
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 10
    canary = tmp_path / "canary.html"
    canary.write_text(INVALID_PAGE, encoding="utf-8")
    errors = _vnu_errors([built_site, canary])
    canary_errors = [e for e in errors if e.get("url", "").endswith("/canary.html")]
    assert any("autocomplete" in e["message"] for e in canary_errors), "the checker did not report the canary"
    site_errors = [f"{e.get('url', '?').removeprefix(built_site.as_uri())}:{e.get('lastLine', '?')}: {e['message']}"
                   for e in errors if e not in canary_errors]
    assert not site_errors, f"{len(site_errors)} errors:\n" + "\n".join(site_errors[:50])
