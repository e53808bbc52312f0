"""Render safety: catalogue text never becomes markup; a failing render changes nothing; hand-written pages are
built beside the generated ones, and one at a generated URL stops the build naming both.

(a) A copy of the fixture catalogue with HTML, Markdown and Jinja syntax in every free-text field the schemas
    allow (service name and summary, area names, not-shown topics and details, plan table titles and value
    columns) builds strictly, and in the built HTML none of it is live.
(b) A catalogue with an error stops `catalog-docs render --out` and `mkdocs build` (its plugin) before anything
    is written: docs/ and site/ stay byte for byte as they were, and no --out folder appears.
(c) docs/ holds only hand-written files, and every build leaves it as it was: they are built and linked as any
    page; one at a URL the catalogue generates is an error that names both files, and nothing is built.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from catalog_docs import cli
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.errors import CatalogDocsError
from catalog_docs.site.handwritten import refuse_collisions
from catalog_docs.site.pages import site_files
from fixture_facts import FIXTURE_CATALOG
from htmltree import Node, parse, table_rows
from sitebuild import ROOT, build, copy_project, files_under

# --- (a) catalogue text is never live ---------------------------------------------------------------------


def payload(tag: str) -> str:
    """Text that would turn into markup, a link, an image, a script, a template or a table cell if it were
    not escaped. Every piece carries the tag, so the test knows which field leaked."""
    return (
        f'# head-{tag} <script>alert("{tag}")</script> <img src="x" onerror="alert(1)" class="inj-{tag}"> '
        f'<b class="inj-{tag}">bold-{tag}</b> **strong-{tag}** _em-{tag}_ ~~del-{tag}~~ ==mark-{tag}== '
        f'[link-{tag}](https://inj.invalid/{tag}) ![img-{tag}](https://inj.invalid/{tag}.png) <https://inj.invalid/> '
        f'{{{{ "jin" ~ "ja-{tag}" }}}} {{% if true %}}stmt-{tag}{{% endif %}} {{# comment-{tag} #}} '
        f'| pipe-{tag} | `code-{tag}` &amp; &#60; <!-- hidden-{tag} --> \\*esc-{tag}\\* :material-alert: '
        f'$math-{tag}$ *[abbr-{tag}]: x {{: .attr-{tag} }}'
    )


def short_payload(tag: str) -> str:
    """The payload's most dangerous parts, for fields of at most 300 characters (the source's titles)."""
    return (f'<script>alert("{tag}")</script><b class="inj-{tag}">bold-{tag}</b> [link-{tag}](https://inj.invalid/) '
            f'{{{{ "jin" ~ "ja-{tag}" }}}} | pipe-{tag} | <!-- hidden-{tag} --> &amp; :material-alert:')


def _visible(text: str) -> str:
    """How a payload reads on the page: as written, white space collapsed."""
    return re.sub(r"\s+", " ", text).strip()


def _q(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid YAML double-quoted scalar


def inject(catalog_dir: Path) -> dict[str, str]:
    """Put a payload into every free-text field; returns {field tag: payload}."""
    fields: dict[str, str] = {}

    def put(tag: str, text: str | None = None) -> str:
        fields[tag] = text if text is not None else payload(tag)
        return _q(fields[tag])

    service = catalog_dir / "service.yaml"
    text = service.read_text(encoding="utf-8")
    text = re.sub(r"^name: .*$", lambda m: "name: " + put("svcname"), text, count=1, flags=re.M)
    summary = payload("summary").replace(" **strong", "\n\n- list-summary\n\n    indented-summary\n**strong")
    text = re.sub(r"^summary: >-\n(?:  .*\n)+", lambda m: "summary: " + put("summary", summary) + "\n", text,
                  count=1, flags=re.M)
    counter = iter(range(1, 1000))
    text = re.sub(r"name: [^,{}]+, source", lambda m: f"name: {put(f'area{next(counter)}')}, source", text)
    text = re.sub(r"^(  (title|about)): .*$",
                  lambda m: f"{m.group(1)}: {put(f'source{m.group(2)}', short_payload(f'source{m.group(2)}'))}",
                  text, flags=re.M)
    def section(match: re.Match[str]) -> str:
        tag = f"section{match.group(1)}"
        return f"{{number: {match.group(1)}, title: {put(tag, short_payload(tag))}}}"

    text = re.sub(r"\{number: (\d+), title: [^}]+\}", section, text)
    service.write_text(text, encoding="utf-8")

    register = catalog_dir / "not-shown.yaml"
    text = register.read_text(encoding="utf-8")
    counter = iter(range(1, 1000))
    text = re.sub(r"^(    (topic|detail)): .*$",
                  lambda m: f"{m.group(1)}: {put(f'{m.group(2)}{next(counter)}')}", text, flags=re.M)
    register.write_text(text, encoding="utf-8")

    for i, version in enumerate(sorted((catalog_dir / "versions").glob("*.yaml")), 1):
        text = version.read_text(encoding="utf-8")
        new = re.sub(r"plan_table: \{title: [^,]+, value_column: [^,]+, ",
                     lambda m, i=i: f"plan_table: {{title: {put(f'title{i}')}, value_column: {put(f'column{i}')}, ",
                     text)
        assert new != text, version
        version.write_text(new, encoding="utf-8")
    return fields


@pytest.fixture(scope="module")
def injected_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    catalog_dir = tmp_path_factory.mktemp("injected") / "catalog"
    shutil.copytree(FIXTURE_CATALOG, catalog_dir)
    fields = inject(catalog_dir)
    catalog = load_catalog(catalog_dir)  # the schemas accept every payload
    assert catalog.service.name == fields["svcname"]
    assert {"sourcetitle", "sourceabout", "section1"} <= set(fields), "the source document's fields were not injected"
    # Its own build: markup injected into every free-text field of the fixture catalogue.
    project = copy_project(tmp_path_factory.mktemp("injected-project"), catalog=catalog_dir)
    result = build(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return project / "site", fields


def _pages(site: Path) -> list[tuple[str, str, Node]]:
    return [(p.relative_to(site).as_posix(), p.read_text(encoding="utf-8"), parse(p.read_text(encoding="utf-8")))
            for p in sorted(site.rglob("*.html"))]


@pytest.fixture(scope="module")
def injected_pages(injected_site: tuple[Path, dict[str, str]]) -> list[tuple[str, str, Node]]:
    """Every page of the injected site, read and parsed once for the tests that only read them."""
    return _pages(injected_site[0])


@pytest.mark.site
def test_injected_fields_cover_every_free_text_field_of_the_schemas() -> None:
    # If a schema gains a free-text field, this test asks for it to be injected too.
    free_text = set()
    def walk(name: str, node: object, path: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "string" and "pattern" not in node and "enum" not in node:
                free_text.add(f"{name}:{path}")
            for key, value in node.items():
                walk(name, value, f"{path}/{key}" if key not in ("properties", "items") else path)

    for schema in sorted((ROOT / "catalog" / "schema").glob("*.json")):
        walk(schema.name, json.loads(schema.read_text(encoding="utf-8")), "")
    assert free_text == {
        "not-shown.schema.json:/topic", "not-shown.schema.json:/detail",
        "service.schema.json:/name", "service.schema.json:/summary", "service.schema.json:/areas/name",
        "service.schema.json:/source_document/title", "service.schema.json:/source_document/about",
        "service.schema.json:/source_document/sections/title",
        "version-label.schema.json:/plan_table/title", "version-label.schema.json:/plan_table/value_column",
    }


@pytest.mark.site
def test_no_injected_markup_is_live(injected_site: tuple[Path, dict[str, str]],
                                    injected_pages: list[tuple[str, str, Node]]) -> None:
    _, fields = injected_site
    leaks = []
    for rel, raw, doc in injected_pages:
        if "<!-- hidden-" in raw:
            leaks.append(f"{rel}: an HTML comment from the catalogue is live")
        for node in doc.iter():
            where = f"{rel}: <{node.tag} {node.attrs}>"
            if any(c.startswith(("inj-", "attr-")) for c in node.classes):
                leaks.append(f"{where} carries an injected class")
            if "onerror" in node.attrs:
                leaks.append(f"{where} has an injected event handler")
            if any("inj.invalid" in node.attrs.get(a, "") for a in ("href", "src")):
                leaks.append(f"{where} links to an injected URL")
            if node.tag == "script" and "alert(" in node.text():
                leaks.append(f"{where} is an injected script")
            if node.tag in ("strong", "em", "del", "mark", "code", "b", "abbr", "li", "img", "a"):
                text = node.text()
                piece = re.search(r"\b(strong|em|del|mark|code|bold|abbr|list|link|img)-[a-z]+[0-9]*\b", text)
                # A container of a whole payload (a table cell, a TOC entry) is fine; an element around one
                # piece of it means the piece became markup.
                if piece and not any(_visible(v) in text for v in fields.values()):
                    leaks.append(f"{where} renders injected Markdown: {text[:80]!r}")
            if re.fullmatch(r"h[1-6]", node.tag) and node.text().startswith("head-"):
                leaks.append(f"{where} is an injected heading")
        body = doc.text()
        if "jinja-" in body:
            leaks.append(f"{rel}: a Jinja expression from the catalogue was evaluated")
        if re.search(r"(?<!\})stmt-[a-z]", body):
            leaks.append(f"{rel}: a Jinja statement from the catalogue was evaluated")
    assert not leaks, "\n".join(leaks[:40])


@pytest.mark.site
def test_every_table_keeps_its_columns(injected_pages: list[tuple[str, str, Node]]) -> None:
    tables = 0
    for rel, _raw, doc in injected_pages:
        for table in doc.find_all("table"):
            tables += 1
            rows = table_rows(table)
            widths = {len(r) for r in rows}
            assert len(widths) == 1, f"{rel}: a table has rows of {sorted(widths)} cells (a '|' broke it)"
    assert tables > 30


@pytest.mark.site
def test_injected_text_shows_literally_where_it_belongs(injected_site: tuple[Path, dict[str, str]],
                                                       injected_pages: list[tuple[str, str, Node]]) -> None:
    _, fields = injected_site
    pages = {rel: doc for rel, _raw, doc in injected_pages}
    home, register = pages["index.html"], pages["not-shown/index.html"]

    def cells(doc: Node) -> list[str]:
        return [c.text() for t in doc.find_all("table") for r in table_rows(t) for c in r]

    # The service name is the home heading and the page title, exactly as written.
    assert home.find("h1").text().rstrip("¶") == _visible(fields["svcname"])
    assert _visible(fields["svcname"]) in home.find("title").text()
    assert _visible(fields["summary"]) in home.text()
    for tag, value in fields.items():
        visible = _visible(value)
        if tag.startswith("area"):
            assert visible in cells(home), f"{tag} is not one whole cell of the areas table"
        elif tag.startswith("topic"):
            assert visible in [h.text().rstrip("¶") for h in register.find_all("h2")], tag
        elif tag.startswith("detail"):
            assert visible in register.text(), tag
        elif tag.startswith(("title", "column")):
            assert visible in cells(pages["versions/index.html"]), f"{tag} is not one whole cell"
        elif tag.startswith("source"):
            assert visible in pages["sources/index.html"].text(), f"{tag} is not on the sources page as written"
        elif tag.startswith("section"):
            headings = [h.text().rstrip("¶") for h in pages["sources/index.html"].find_all("h2")]
            assert any(visible in h for h in headings), f"{tag} is not a heading of the sources page"
    # An operation page names the operation-wide register items by their topics, each one whole link.
    op_links = [a.text() for gaps in pages["operations/fakeWidgetList/index.html"].find_all("div", cls="catalog-gaps")
                for a in gaps.find_all("a")]
    operation_wide = sum(1 for item in load_catalog(FIXTURE_CATALOG).not_shown if item.scope == "operation")
    assert sum(1 for tag, v in fields.items() if tag.startswith("topic") and _visible(v) in op_links) >= operation_wide


# --- (b) a failing render changes nothing ----------------------------------------------------------------


@pytest.fixture(scope="module")
def built_project(built_site: Path) -> Path:
    """The shared fixture site's project (each test works on a copy of it)."""
    return built_site.parent


def _break_catalogue(project: Path) -> str:
    """Two errors, one a wrong lock value; returns where that one is, as `versions/FAKE-1.1.yaml:L:C: `."""
    version = project / "catalog" / "versions" / "FAKE-1.1.yaml"
    text = version.read_text(encoding="utf-8")
    assert text.count("/fakeWidgetList: close") == 1, text
    at = text.index("/fakeWidgetList: close") + len("/fakeWidgetList: ")
    where = f"versions/FAKE-1.1.yaml:{text.count(chr(10), 0, at) + 1}:{at - text.rfind(chr(10), 0, at)}: "
    version.write_text(text.replace("/fakeWidgetList: close", "/fakeWidgetList: closed"), encoding="utf-8")
    listing = project / "catalog" / "listing.yaml"
    listing.write_text(listing.read_text(encoding="utf-8").replace("path: /fakeWidgetList", "path: /fakeWidgetList ?"),
                       encoding="utf-8")
    return where


@pytest.mark.site
@pytest.mark.parametrize("command", ["catalog-docs render --out", "mkdocs build"])
def test_a_catalogue_with_errors_leaves_docs_and_site_as_they_were(built_project: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   command: str) -> None:
    project = tmp_path / "project"
    shutil.copytree(built_project, project)
    docs_before, site_before = files_under(project / "docs"), files_under(project / "site")
    assert "index.html" in site_before
    where = _break_catalogue(project)
    if command == "catalog-docs render --out":
        # Through the `catalog-docs` console script's entry point, in the project, in this process.
        monkeypatch.chdir(project)
        capsys.readouterr()
        code = cli.main(["render", "--out", "pages"])
        stderr = capsys.readouterr().err
        assert code == 1
        assert not (project / "pages").exists()
    else:
        result = build(project)
        assert result.returncode != 0
        stderr = result.stderr
        # The preview's banner is for `mkdocs serve` alone (tests/site/test_preview_serve.py).
        assert 'id="catalog-docs-errors"' not in result.stdout + stderr
    # Every error is reported with its place, and the count.
    assert where in stderr and "listing.yaml:" in stderr, stderr
    assert "2 errors" in stderr, stderr
    assert "Traceback" not in stderr
    assert files_under(project / "docs") == docs_before
    assert files_under(project / "site") == site_before


# --- (c) docs/ is read, never written --------------------------------------------------------------------


@pytest.mark.site
def test_hand_written_pages_are_built_and_one_at_a_generated_url_is_refused_naming_both(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both builds also leave no folder of spilled downloads behind, the one that succeeds and the one refused
    (the plugin's temporary folder: tests/site/test_plugin_spill.py), in a temporary folder of their own."""
    project = copy_project(tmp_path / "project", catalog=FIXTURE_CATALOG)  # its own: pages are added to docs/
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    docs = project / "docs"
    (docs / "operations").mkdir()
    (docs / "about.md").write_text("# About these pages\n\nSee [the legend](legend.md).\n", encoding="utf-8")
    (docs / "operations" / "notes.md").write_text("# Notes on operations\n", encoding="utf-8")
    before = files_under(docs)
    result = build(project)
    assert result.returncode == 0, result.stderr
    assert not list(temp.glob("catalog-docs-downloads-*"))
    assert (project / "site" / "downloads" / "catalog.json").stat().st_size > 0
    assert "About these pages" in (project / "site" / "about" / "index.html").read_text(encoding="utf-8")
    assert 'href="../legend/"' in (project / "site" / "about" / "index.html").read_text(encoding="utf-8")
    assert (project / "site" / "operations" / "notes" / "index.html").is_file()
    assert (project / "site" / "operations" / "fakeWidgetList" / "index.html").is_file()
    assert files_under(docs) == before

    # The same URL as a generated page, under its own name or another that builds to it.
    (docs / "legend.md").write_text("# My own legend\n", encoding="utf-8")
    (docs / "operations" / "fakeWidgetList").mkdir()
    (docs / "operations" / "fakeWidgetList" / "index.md").write_text("# Mine\n", encoding="utf-8")
    before = files_under(docs)
    site_before = files_under(project / "site")
    result = build(project)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert not list(temp.glob("catalog-docs-downloads-*"))
    assert ("docs/legend.md is hand-written at legend/index.html, which the catalogue generates (its page legend.md)"
            in result.stderr), result.stderr
    assert ("docs/operations/fakeWidgetList/index.md is hand-written at operations/fakeWidgetList/index.html, which "
            "the catalogue generates (its page operations/fakeWidgetList.md)") in result.stderr, result.stderr
    assert files_under(docs) == before
    assert files_under(project / "site") == site_before


@pytest.mark.parametrize("directory_urls", [True, False])
def test_the_engine_folder_refuses_the_same_clashes(directory_urls: bool) -> None:
    generated = site_files(FIXTURE_CATALOG, directory_urls=directory_urls)
    refuse_collisions(generated, ["about.md", "operations/notes.md", "assets/extra.css"], directory_urls)
    clash = "operations/fakeWidgetList/index.md" if directory_urls else "operations/fakeWidgetList.md"
    for hand in ("legend.md", "downloads/catalog.json", "operations/README.md", clash):
        with pytest.raises(CatalogDocsError, match=f"docs/{hand} is hand-written at .*its page"):
            refuse_collisions(generated, [hand], directory_urls)


def test_pages_an_older_catalog_docs_rendered_into_docs_are_named_as_such() -> None:
    """A checkout that rendered into docs/ before keeps those files (no longer ignored by git): they clash, and
    the error says where they came from. The old manifest is only looked for by name, never read."""
    generated = site_files(FIXTURE_CATALOG)
    with pytest.raises(CatalogDocsError) as info:
        refuse_collisions(generated, [".catalog-docs-manifest.json", "index.md", "legend.md"], True)
    lines = str(info.value).splitlines()
    assert lines[0].startswith("docs/index.md is hand-written at index.html") and lines[-1] == "nothing was built"
    assert lines[-2] == ("docs/.catalog-docs-manifest.json is there: these are pages an older catalog-docs rendered "
                         "into docs/, which it no longer does (the pages are made in memory): delete them and it")
