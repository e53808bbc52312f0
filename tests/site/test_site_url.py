"""The site's address (`SITE_URL`, mkdocs.yml's `site_url`) is checked once, when the configuration loads, and
refused in one line unless it is a plain http(s) address: it lands raw in every page's canonical link (the theme
does not escape it), the sitemap and the feed. Every engine: the plugin's on_config (mkdocs, ProperDocs), and
`catalog-docs build|watch` before Zensical runs; the diff comment's links use the same check."""

from __future__ import annotations

import html
import shutil
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from catalog_docs.cli import main
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import BUILD_ROOT, address_problem
from catalog_docs.site.feed import site_address
from catalog_docs.site.plugin import CatalogDocsPlugin
from catalog_docs.site.watch import build, watch
from fixture_facts import FIXTURE_CATALOG
from sitebuild import ROOT

HOSTILE = [
    'https://x.example/"><script>alert(1)</script>',  # the issue's: raw in the canonical link of every page
    "https://x.example/'onmouseover='alert(1)",
    "https://x.example/<b>",
    "https://x.example/a b",
    "https://x.example/\x1b[31m",
    "https://x.example/\u202e",
    "https://user:secret@x.example/",
    "https://x.example@evil.example/",
    "javascript:alert(1)//https://x.example/",
    "file:///etc/passwd",
    "//x.example/",
    "https://x.example\\@evil.example/",
    "https://x.example/?q=1",
    "https://x.example/#top",
    "https://x.example:0/",
    "https://x.example:65536/",
    "https://x.example/%zz",
    "https://exämple.org/",
    "https:x.example",
]


@pytest.mark.parametrize("url", HOSTILE)
def test_a_hostile_site_url_is_refused_in_one_line(url: str) -> None:
    with pytest.raises(CatalogDocsError) as info:
        site_address(url)
    message = str(info.value)
    assert "\n" not in message and message.startswith("$SITE_URL: expected a plain http(s) address")
    assert "<" not in message.split(": expected", maxsplit=1)[0] and "\x1b" not in message and "\u202e" not in message


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/", "https://docs.example.org", "https://o.github.io/repo/",
                                 "https://[::1]:8443/docs/", "https://x.example/~me/a%20b/"])
def test_a_plain_address_is_taken_with_its_slash(url: str) -> None:
    assert site_address(url) == (url if url.endswith("/") else url + "/")


LABEL = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=10)
PATH = st.lists(st.one_of(st.sampled_from("ABCZabcz0189._~/-"), st.integers(0, 255).map(lambda b: f"%{b:02X}")),
                max_size=12).map("".join)
PLAIN = st.builds(lambda scheme, labels, port, path: f"{scheme}://{'.'.join(labels)}{port}/{path}",
                  st.sampled_from(["http", "https"]), st.lists(LABEL, min_size=1, max_size=4),
                  st.one_of(st.just(""), st.integers(1, 65535).map(lambda p: f":{p}")), PATH)


@given(PLAIN, st.text(max_size=40), st.text(max_size=6))
def test_plain_addresses_are_taken_and_every_address_taken_is_inert(plain: str, text: str, tail: str) -> None:
    """Every plain address passes; whatever else is drawn, an address that passes needs no escaping in an HTML
    attribute or text, and carries no credentials, query or fragment."""
    assert address_problem(plain) is None
    for url in (plain, text, plain + tail):
        if address_problem(url) is not None:
            continue
        parts = urlsplit(url)
        assert html.escape(url, quote=True) == url and "\\" not in url and url.isprintable() and url.isascii()
        assert parts.scheme in ("http", "https") and parts.hostname and parts.username is None
        assert not parts.query and not parts.fragment and "?" not in url and "#" not in url


def test_the_plugin_refuses_it_when_the_configuration_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITE_URL", HOSTILE[0])
    config = load_config(str(ROOT / "mkdocs.yml"))
    with pytest.raises(PluginError) as info:
        CatalogDocsPlugin().on_config(config)
    assert str(info.value).splitlines() == [
        "site_url in mkdocs.yml ($SITE_URL): expected a plain http(s) address such as https://docs.example.org/, "
        "found 'https://x.example/\"><script>alert(1)</script>/': its path holds a character other than letters, "
        "digits, - . _ ~ / and %XX escapes (nothing was built)"]
    monkeypatch.setenv("SITE_URL", "https://docs.example.org/sub")
    CatalogDocsPlugin().on_config(load_config(str(ROOT / "mkdocs.yml")))


def test_the_engine_without_plugins_is_never_started_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_CATALOG, project / "catalog")
    marker = tmp_path / "ran"
    engine = [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]
    monkeypatch.setenv("SITE_URL", "https://x.example/<script>")
    for run in (build, watch):
        with pytest.raises(CatalogDocsError, match=r"^\$SITE_URL: expected a plain http"):
            run(project / "catalog", project / "docs", engine)
    assert main(["build", "--catalog", str(project / "catalog"), "--", *engine]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("catalog-docs: error: $SITE_URL: expected a plain http(s) address")
    assert not marker.exists() and not (project / BUILD_ROOT).exists()
