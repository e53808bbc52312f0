"""Hostile catalogue text: rejected with a located error, or built into a site that shows it literally.

Identifiers (paths, version labels, plan entry names) are pattern-checked, so a payload there is rejected
with file:line:column. Invisible characters (zero-width, bidirectional controls) are rejected anywhere,
and free text longer than the schema allows is rejected too. Every other free-text field of the fixture
catalogue (tests/fixture-catalog/) gets the payload below; the site then builds, and in the browser no
payload script runs (the flag it would set stays unset), every table keeps the column count it has with
the fixture catalogue, and the payload reads literally, right-to-left letters included.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Browser, expect

from browsing import new_visit
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.errors import CatalogInvalid, Problem
from fixture_facts import FIXTURE_CATALOG
from sitebuild import build, copy_project
from siteserver import serve

PAYLOAD = (
    '<script>window.__pwned="script"</script> <img src=x onerror="window.__pwned=\'img\'"> '
    '"><svg onload="window.__pwned=\'svg\'"> </title></textarea></style><b>not bold</b> '
    '[link](javascript:window.__pwned="md-link") <a href="javascript:window.__pwned=\'a\'">a</a> '
    '| pipe | cell | `tick` ``double`` {{ 7*7 }} {% if true %}jinja{% endif %} &amp; &lt;b&gt; '
    '*not em* __not strong__ # not a heading\n--8<-- "mkdocs.yml"\n'
    'שלום עולם مرحبا بالعالم'
)
"""Markup, script, Markdown, table, Jinja and snippet syntax, entities and right-to-left letters."""

LONGEST = 2000
"""The schemas' maxLength for free text; one field is filled to exactly this length."""

SHOWN_ON = {
    "name": "",
    "summary": "",
    "area fake-gadgets": "operations/",
    "area fake-widgets": "",
    "topic fake-resources": "not-shown/",
    "detail fake-payload": "not-shown/",  # an operation page names its topics; the register holds the details
    "title": "versions/FAKE-1.1/",
    "column": "versions/FAKE-1.1/",
}
"""Each payload-carrying field, by the prefix its text starts with, and one page that shows it."""


def normal(text: str) -> str:
    """Text with runs of whitespace as one space (newlines in catalogue text read as spaces on a page)."""
    return " ".join(text.split())


def _rewrite(path: Path, change: object) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10**6), encoding="utf-8")


def hostile_catalog(dest: Path) -> Path:
    """A copy of the fixture catalogue with the payload in every free-text field the schemas allow."""
    shutil.copytree(FIXTURE_CATALOG, dest)

    def service(d: dict) -> None:
        d["name"] = f"name {PAYLOAD}"
        d["summary"] = f"summary {PAYLOAD}"
        for area in d["areas"]:
            area["name"] = f"area {area['id']} {PAYLOAD}"
        first = d["areas"][0]
        first["name"] = (first["name"] + " " + "W" * LONGEST)[:LONGEST]

    def register(d: dict) -> None:
        for item in d["items"]:
            item["topic"] = f"topic {item['id']} {PAYLOAD}"
            item["detail"] = f"detail {item['id']} {PAYLOAD}"

    def version(d: dict) -> None:
        d["plan_table"]["title"] = f"title {PAYLOAD}"
        d["plan_table"]["value_column"] = f"column {PAYLOAD}"

    _rewrite(dest / "service.yaml", service)
    _rewrite(dest / "not-shown.yaml", register)
    for path in sorted((dest / "versions").glob("*.yaml")):
        _rewrite(path, version)
    return dest


# --- rejected with a located error ---------------------------------------------------------------------


def _patched(tmp_path: Path, file: str, find: str, replace: str) -> tuple[Path, int, int]:
    """A catalogue copy with one text replaced; the line and column where the replacement starts."""
    catalog = tmp_path / "catalog"
    shutil.copytree(FIXTURE_CATALOG, catalog)
    path = catalog / file
    text = path.read_text(encoding="utf-8")
    assert text.count(find) == 1, f"{find!r} must occur once in {file}"
    start = text.index(find)
    path.write_text(text.replace(find, replace), encoding="utf-8")
    line = text.count("\n", 0, start) + 1
    return catalog, line, start - (text.rfind("\n", 0, start) + 1) + 1


def _problems(catalog: Path) -> list[Problem]:
    with pytest.raises(CatalogInvalid) as exc:
        load_catalog(catalog)
    return exc.value.problems


def _located(problems: list[Problem], file: str, line: int, column: int) -> Problem:
    here = [p for p in problems if p.file.endswith(file) and (p.line, p.column) == (line, column)]
    assert here, f"no error at {file}:{line}:{column}; got:\n" + "\n".join(map(str, problems))
    return here[0]


@pytest.mark.parametrize(("file", "find", "replace", "key_path"), [
    ("listing.yaml", "path: /fakeWidgetList", "path: '/fakeWidgetList<script>window.__pwned=1</script>'",
     "listing.entries[2].path"),
    ("listing.yaml", "path: /fakeRefundSend\n", "path: '/fakeRefundSend|x|`y`'\n", "listing.entries[4].path"),
    ("service.yaml", "  - FAKE 1.1\n", "  - 'FAKE 1.1<img src=x onerror=alert(1)>'\n",
     "service.version_labels[2]"),
    ("service.yaml", "  - PLAN B\n", "  - 'PLAN B {{ 7*7 }}'\n", "service.plan_entries[2]"),
], ids=["path-script", "path-pipe-backtick", "label-img", "plan-entry-jinja"])
def test_a_payload_in_an_identifier_is_rejected_with_its_location(tmp_path: Path, file: str, find: str,
                                                                  replace: str, key_path: str) -> None:
    indent = len(find) - len(find.lstrip(" -"))
    catalog, line, column = _patched(tmp_path, file, find, replace)
    value_column = column + (find.index(":") + 2 if ":" in find else indent)
    problem = _located(_problems(catalog), file, line, value_column)
    assert problem.key_path == key_path
    written = replace.strip().removeprefix("- ").split(": ", 1)[-1].strip("'")
    assert problem.found == f"the text {written!r}"


@pytest.mark.parametrize("char", ["\u200b", "\u200d", "\u202e", "\u2066", "\ufeff"],
                         ids=["zero-width-space", "zero-width-joiner", "rtl-override", "ltr-isolate",
                              "bom-inside"])
def test_an_invisible_character_in_free_text_is_rejected_with_its_location(tmp_path: Path, char: str) -> None:
    catalog, line, column = _patched(tmp_path, "not-shown.yaml", "topic: Fake purpose", f"topic: Fake pur{char}pose")
    problem = _located(_problems(catalog), "not-shown.yaml", line, column + len("topic: Fake pur"))
    assert f"U+{ord(char):04X}" in problem.found


def test_a_10000_character_text_is_rejected_with_its_location(tmp_path: Path) -> None:
    find = "name: Fake Widget Service"
    catalog, line, column = _patched(tmp_path, "service.yaml", find, "name: " + "x" * 10_000)
    problem = _located(_problems(catalog), "service.yaml", line, column + len("name: "))
    assert problem.key_path == "service.name"
    assert str(LONGEST) in problem.expected


def test_right_to_left_letters_are_accepted(tmp_path: Path) -> None:
    catalog, _, _ = _patched(tmp_path, "versions/FAKE-1.1.yaml", "title: Fake Plan",
                             "title: Fake שלום مرحبا Plan")
    version = next(v for v in load_catalog(catalog).versions if v.label == "FAKE 1.1")
    assert version.plan_table == "Fake שלום مرحبا Plan"


# --- built into a site that shows it literally -------------------------------------------------------

# Each table's rows of a document, each row's width as the browser lays out the grid: a cell spanning rows (rowSpan,
# kept within its row group) fills its columns in the rows below too.
_TABLES = """doc => Array.from(doc.querySelectorAll("article table")).map(t => {
    const filled = Array.from(t.rows, () => []);
    Array.from(t.rows).forEach((r, y) => {
      const last = y - r.sectionRowIndex + r.parentElement.rows.length;
      let x = 0;
      for (const c of r.cells) {
        while (filled[y][x]) x++;
        for (let dy = y; dy < Math.min(y + Math.max(c.rowSpan, 1), last); dy++)
          for (let dx = x; dx < x + c.colSpan; dx++) filled[dy][dx] = true;
        x += c.colSpan;
      }
    });
    return filled.map(row => row.filter(Boolean).length);
  })"""

_INSPECT = """() => ({
  pwned: typeof window.__pwned === "undefined" ? null : String(window.__pwned),
  injected: Array.from(document.querySelectorAll("*")).filter(e => Array.from(e.attributes).some(a =>
      a.value.includes("pwned") && (a.name.startsWith("on") || /^\\s*javascript:/i.test(a.value))))
    .map(e => e.outerHTML.slice(0, 160)),
  scripts: Array.from(document.scripts).filter(s => s.textContent.includes("pwned")).length,
  tables: (""" + _TABLES + """)(document),
  text: document.querySelector("article") ? document.querySelector("article").textContent : "",
  title: document.title,
})"""


_TABLES_OF_DOCUMENT = """() => (""" + _TABLES + """)(document)"""
_PARSED = """html => (""" + _TABLES + """)(new DOMParser().parseFromString(html, "text/html"))"""
"""The tables of a page's markup, as the browser parses it (without running its scripts)."""

DRAWN = ("compare/",)
"""The pages whose tables a script draws (the any-pair form, compare.js, from catalog.json): not in their markup."""


def _site_pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)).removesuffix("index.html") for p in site.rglob("*.html"))


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile catalogue rendered and built strictly; returns the site folder."""
    catalog = hostile_catalog(tmp_path_factory.mktemp("hostile") / "catalog")
    # Its own build: a catalogue of payloads in every field, not the shared fixture site's.
    project = copy_project(tmp_path_factory.mktemp("hostile-project"), catalog=catalog)
    result = build(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return project / "site"


@pytest.fixture(scope="module")
def hostile_url(hostile_site: Path) -> Iterator[str]:
    """The hostile site, served (one origin for the module: its tests take their tab from the same pool)."""
    with serve(hostile_site) as url:
        yield url


@pytest.fixture(scope="module")
def inspected(chromium: Browser, hostile_site: Path, hostile_url: str, built_site: Path,
              site_url: str) -> dict[str, dict]:
    """Every page of the hostile site, as the browser shows it loaded from its address, and the tables of the same page
    of the fixture site.

    The fixture site's tables are read from its pages' markup, parsed by the browser (its scripts change no table's
    cells: they add classes and roles), but on the pages whose tables a script draws (DRAWN), which are loaded: a load
    each would cost Chromium as much again as the hostile pages, which are the subject."""
    pages = _site_pages(hostile_site)
    assert pages == _site_pages(built_site)
    assert set(DRAWN) <= set(pages)
    found: dict[str, dict] = {}
    v, plain = new_visit(chromium, hostile_url), new_visit(chromium, site_url)
    try:
        drawn = {path: plain.open(path).evaluate(_TABLES_OF_DOCUMENT) for path in DRAWN}
        assert not plain.problems(), plain.problems()
        for path in pages:
            # The load event waits for every image, so an onerror or onload payload has fired by then.
            # The page is inspected once no request is in flight: scripts that fetch data (the any-pair
            # compare form reads catalog.json) have drawn their tables by then.
            seen = v.open(path).evaluate(_INSPECT)
            seen["problems"] = v.take_problems()
            markup = built_site / path if path.endswith(".html") else built_site / path / "index.html"
            seen["plain_tables"] = (drawn[path] if path in drawn
                                    else plain.page.evaluate(_PARSED, markup.read_text(encoding="utf-8")))
            found[path] = seen
    finally:
        v.close()
        plain.close()
    return found


@pytest.mark.browser
@pytest.mark.site
def test_no_script_from_the_payload_runs_on_any_page(inspected: dict[str, dict]) -> None:
    for path, seen in inspected.items():
        assert seen["pwned"] is None, f"/{path}: the payload ran and set window.__pwned = {seen['pwned']!r}"
        assert not seen["injected"], f"/{path}: payload markup became elements: {seen['injected']}"
        assert seen["scripts"] == 0, f"/{path}: a <script> element carries the payload"
        assert not seen["problems"], f"/{path}: " + "\n".join(seen["problems"])


@pytest.mark.browser
@pytest.mark.site
def test_every_table_keeps_its_column_count(inspected: dict[str, dict]) -> None:
    assert sum(len(seen["tables"]) for seen in inspected.values()) > 20
    for path, seen in inspected.items():
        for rows in seen["tables"]:
            assert len(set(rows)) == 1, f"/{path}: a table's rows have {sorted(set(rows))} columns"
        assert seen["tables"] == seen["plain_tables"], f"/{path}: tables are shaped unlike the fixture site's"


@pytest.mark.browser
@pytest.mark.site
@pytest.mark.parametrize("field", SHOWN_ON)
def test_the_payload_shows_literally(inspected: dict[str, dict], field: str) -> None:
    text = normal(inspected[SHOWN_ON[field]]["text"])
    assert normal(f"{field} {PAYLOAD}") in text


@pytest.mark.browser
@pytest.mark.site
def test_the_payload_shows_whole_wherever_it_shows(inspected: dict[str, dict]) -> None:
    # A payload cut at a `|`, a backtick or a `<` would leave its start without its end.
    start, whole = 'window.__pwned="script"', normal(PAYLOAD)
    shown = 0
    for path, seen in inspected.items():
        text = normal(seen["text"])
        assert text.count(start) == text.count(whole), f"/{path}: the payload shows only in part"
        shown += text.count(whole)
    # At least twice per register item per operation it applies to: the operation page names the topic once (its
    # detail is on the register page since issue 42); the register, sources page and other fields make up the rest.
    catalog = load_catalog(FIXTURE_CATALOG)
    assert shown >= sum(2 * len(catalog.not_shown_for(e)) for e in catalog.entries)
    assert normal(inspected[""]["title"]).startswith(normal(f"name {PAYLOAD}"))
    assert ("W" * (LONGEST - len(f"area fake-widgets {PAYLOAD} "))) in inspected[""]["text"]


@pytest.mark.browser
@pytest.mark.site
def test_search_results_show_the_payload_literally_and_run_nothing(chromium: Browser, hostile_url: str) -> None:
    v = new_visit(chromium, hostile_url)
    try:
        page = v.page
        page.goto(hostile_url)
        page.keyboard.press("/")
        page.keyboard.type("pwned")
        first = page.locator(".md-search-result__item").first
        expect(first).to_contain_text('<script>window.__pwned="script"</script>')
        v.settle()
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert page.locator(".md-search-result img, .md-search-result svg[onload]").count() == 0
        assert not v.problems(), "\n".join(v.problems())
    finally:
        v.close()
