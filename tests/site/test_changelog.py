"""The changelog page and its Atom feed (issue 29): every version label newest first with its summary of changes
against the label before it, dated only by facts of the repository's git history.

The fixture catalogue is committed into a throw-away repository at chosen dates, so the dates the page and the
feed must give are known; the summaries are the compare stage's own (`formats.summary_rows`), never restated.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import feedparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from playwright.sync_api import Browser

from browsing import AXE, SCHEMES, new_visit
from catalog_docs.catalog.model import Catalog, label_slug
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.compare.changes import Side, compare_sides, consecutive_pairs
from catalog_docs.compare.formats import SummaryRow, summary_rows
from catalog_docs.site import history as history_module
from catalog_docs.site.feed import ChangelogEntry, RowNames, atom_feed
from catalog_docs.site.history import Added, BuildTime, LabelHistory, label_history, parse_log
from catalog_docs.site.pages import Reuse, site_files
from fixture_facts import FIXTURE_CATALOG
from htmltree import parse_file

EPOCH = 1_700_000_000  # SOURCE_DATE_EPOCH of these tests: 2023-11-14T22:13:20Z
FIRST = "2024-01-02T03:04:05+00:00"
SECOND = "2024-02-03T14:15:16+02:00"  # not UTC: the page and the feed give it in UTC (12:15:16Z)
THIRD = "2024-03-04T05:06:07+00:00"


@pytest.fixture(autouse=True)
def _fixed_build_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(EPOCH))


def _git(repo: Path, *args: str, date: str | None = None) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    if date is not None:
        env |= {"GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date}
    subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", *args], cwd=repo,
                   check=True, capture_output=True, env=env)


@cache
def _fixture() -> Catalog:
    return load_catalog(FIXTURE_CATALOG)


def _labels() -> list[str]:
    return [v.label for v in _fixture().versions]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The fixture catalogue in a new repository: the first label committed at FIRST, the second at SECOND,
    the rest not committed."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE_CATALOG, root / "catalog")
    first, second = (f"catalog/versions/{label_slug(label)}.yaml" for label in _labels()[:2])
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "catalog/service.yaml", "catalog/listing.yaml", "catalog/not-shown.yaml", first)
    _git(root, "commit", "-q", "-m", "first label", date=FIRST)
    _git(root, "add", second)
    _git(root, "commit", "-q", "-m", "second label", date=SECOND)
    return root


def _feed(files: dict[str, str]) -> feedparser.FeedParserDict:
    parsed = feedparser.parse(files["feed.xml"].encode("utf-8"))
    assert not parsed.bozo, parsed.get("bozo_exception")
    return parsed


def _utc(text: str) -> str:
    return datetime.fromisoformat(text).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_each_label_is_dated_by_the_commit_that_added_its_file(repo: Path, tmp_path: Path) -> None:
    labels = _labels()
    docs = site_files(repo / "catalog", reuse=Reuse())
    page = docs["changelog/index.md"]
    feed = _feed(docs)
    # Newest first, one entry per label.
    assert [e.title for e in feed.entries] == [f"Version label {label}" for label in reversed(labels)]
    dates = {e.title.removeprefix("Version label "): e.updated for e in feed.entries}
    assert dates[labels[0]] == _utc(FIRST)
    assert dates[labels[1]] == _utc(SECOND)
    # Not committed: no date of addition exists; the feed gives the build's SOURCE_DATE_EPOCH, and says so.
    build = datetime.fromtimestamp(EPOCH, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert all(dates[label] == build for label in labels[2:])
    assert page.count("Added to this catalogue on") == 2
    assert "Added to this catalogue on 2024&#45;02&#45;03" in page  # 14:15 at +02:00 is still 3 February in UTC
    assert page.count("Not committed yet, so it has no date of addition") == len(labels) - 2
    assert "the build's `SOURCE_DATE_EPOCH`, 2023&#45;11&#45;14 22&#58;13&#58;20 UTC" in page

    # Committing the rest is an input of the render: the next render (reusing what it can) dates them.
    _git(repo, "add", "catalog")
    _git(repo, "commit", "-q", "-m", "the rest", date=THIRD)
    docs = site_files(repo / "catalog", reuse=Reuse())
    dates = {e.title.removeprefix("Version label "): e.updated for e in _feed(docs).entries}
    assert all(dates[label] == _utc(THIRD) for label in labels[2:])
    assert _feed(docs).feed.updated == _utc(THIRD)


def test_entry_content_is_the_summary_of_changes_the_comparison_pages_use(repo: Path, tmp_path: Path) -> None:
    catalog = load_catalog(FIXTURE_CATALOG)
    docs = site_files(repo / "catalog", reuse=Reuse())
    entries = {e.title.removeprefix("Version label "): e for e in _feed(docs).entries}
    page = docs["changelog/index.md"]
    for a, b in consecutive_pairs(catalog):
        content = entries[b.label].content[0].value
        items = etree.fromstring(f"<div>{content}</div>", etree.HTMLParser()).iter("li")
        shown = ["".join(li.itertext()) for li in items]
        cmp = compare_sides(catalog, Side(label=a.label), Side(label=b.label))
        rows = summary_rows(cmp)
        counts = [what + ("" if t is None else f" {t[0]} → {t[1]}") + f": {count:,}" for what, count, t, _ in rows]
        assert len(shown) == len(counts) and all(s.startswith(c) for s, c in zip(shown, counts, strict=True))
        # Each row names what changed (was: only counted): its first five changes, then "and N more".
        for li, head, (_, count, t, kind) in zip(shown, counts, rows, strict=True):
            counted = [c for c in cmp.changes if c.kind == kind and (t is None or (c.before.value, c.after.value) == t)]
            assert bool(counted) == (li != head), li
            for c in counted[:5]:
                assert (c.after.path or c.before.path or c.after.plan or c.before.plan or "") in li, (li, c.id)
            if counted:
                assert len(counted) == count and li.endswith(f" and {count - 5:,} more)") == (count > 5), li
        # A row of changes links its first change's anchor on the comparison page, then each change it names;
        # a count of unchanged does not.
        ids = {c.id for c in cmp.changes}
        anchors = [a.get("href", "").partition("#")[2]
                   for a in etree.fromstring(f"<div>{content}</div>", etree.HTMLParser()).iter("a")]
        named = sum(min(5, n) for _, n, _, kind in rows if kind is not None)
        assert sum(1 for x in anchors if x) == len(rows) - 1 + named and {x for x in anchors if x} <= ids
        link = f"compare/{a.slug}...{b.slug}/"  # from the feed, at the site's root
        assert entries[b.label].link == link and f'href="{link}"' in content
        assert f"(../compare/{a.slug}...{b.slug}.md)" in page
    first = catalog.versions[0]
    assert "first version label" in entries[first.label].content[0].value
    assert entries[first.label].link == f"versions/{first.slug}/"


def test_without_git_history_the_page_says_so_and_the_feed_uses_the_build_date(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE_CATALOG, tmp_path / "catalog")
    docs = site_files(tmp_path / "catalog", reuse=Reuse())
    page = docs["changelog/index.md"]
    assert "this copy of the catalogue has no git history, so when each label was added" in " ".join(page.split())
    assert "Added to this catalogue" not in page and "Not committed" not in page
    build = datetime.fromtimestamp(EPOCH, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    feed = _feed(docs)
    assert {e.updated for e in feed.entries} == {build} and feed.feed.updated == build


def test_without_source_date_epoch_the_build_time_is_one_clock_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    history_module._started.cache_clear()
    before = datetime.now(UTC).replace(microsecond=0)
    first = history_module.build_time()
    assert first.source == "clock" and before <= first.when <= datetime.now(UTC)
    assert history_module.build_time() == first  # one build, one date


def test_a_shallow_clone_dates_its_oldest_commit_as_an_upper_bound(repo: Path, tmp_path: Path) -> None:
    _git(repo, "add", "catalog")
    _git(repo, "commit", "-q", "-m", "the rest", date=THIRD)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True,
                   capture_output=True)
    found = label_history(clone / "catalog")
    assert found.repository and found.shallow
    # Its one commit holds every file, so every label is dated by it, as "by" that date: no older commit is here.
    assert {a.known for a in found.added.values()} == {"boundary"} and len(found.added) == len(_labels())
    docs = site_files(clone / "catalog", reuse=Reuse())
    page = docs["changelog/index.md"]
    assert "This clone&#39;s history is shallow" in page or "This clone's history is shallow" in page
    assert page.count("and the label may be older") == len(_labels())


HASH_A, HASH_B = "a" * 40, "b" * 40


def test_the_log_is_read_as_data() -> None:
    """git's output names files and gives dates; a record or a name of any other shape dates nothing."""
    log = (
        f"\x1e{HASH_B}\x1f2024-02-01T00:00:00+00:00\x1f{HASH_A}\0\nversions/X-2.yaml\0versions/X-1.yaml\0"
        f"\x1enot-a-hash\x1f2023-01-01T00:00:00+00:00\x1f\0\nversions/X-3.yaml\0"  # bad hash: skipped
        f"\x1e{HASH_A}\x1fyesterday\x1f\0\nversions/X-4.yaml\0"  # bad date: skipped
        f"\x1e{HASH_A}\x1f2024-01-01T00:00:00\x1f\0\nversions/X-5.yaml\0"  # no offset: not a commit date
        f"\x1e{HASH_A}\x1f2023-06-01T00:00:00+00:00\x1f\0\nversions/X-1.yaml\0versions/../x.yaml\0"
        "versions/a/b.yaml\0listing.yaml\0versions/X-6.yml\0"
    ).encode()
    found = parse_log(log, shallow=False)
    assert set(found) == {"X-1", "X-2"}
    assert found["X-1"].commit == HASH_A and found["X-1"].when == datetime(2023, 6, 1, tzinfo=UTC)  # the oldest
    assert found["X-2"].when == datetime(2024, 2, 1, tzinfo=UTC)
    assert parse_log(log, shallow=True)["X-1"].known == "boundary"  # no parents in a shallow clone
    assert parse_log(log, shallow=True)["X-2"].known == "commit"


@pytest.mark.parametrize("date", ["9999-12-31T23:00:00-01:00", "1969-12-31T23:59:59+00:00",
                                  "0001-01-01T00:30:00+01:00"])
def test_a_commit_date_outside_1970_to_9999_in_utc_is_ignored_with_a_warning(date: str) -> None:
    """Such a date reached datetime's limits (OverflowError) and stopped every build; now the commit dates
    nothing, and each label it added is dated by the next commit that has it with a usable date."""
    log = (f"\x1e{HASH_B}\x1f2024-02-01T00:00:00+00:00\x1f{HASH_A}\0\nversions/X-1.yaml\0"
           f"\x1e{HASH_A}\x1f{date}\x1f\0\nversions/X-1.yaml\0versions/X-2.yaml\0").encode()
    warnings: list[str] = []
    found = parse_log(log, shallow=False, warnings=warnings)
    assert set(found) == {"X-1"} and found["X-1"].commit == HASH_B
    assert warnings == [f"commit {HASH_A[:12]} is dated {date!r}, outside the years 1970-9999 in UTC: its date is "
                        "ignored, and the labels it added are dated by the next commit that has them"]


def test_the_issues_far_future_commit_is_a_warning_not_a_traceback(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(FIXTURE_CATALOG, tmp_path / "catalog")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "catalog")
    _git(tmp_path, "commit", "-q", "-m", "far future", date="@253402300800 -0100")
    first = tmp_path / "catalog" / "versions" / f"{label_slug(_labels()[0])}.yaml"
    first.write_text(first.read_text(encoding="utf-8") + "# checked again\n", encoding="utf-8")
    _git(tmp_path, "commit", "-q", "-am", "a usable date", date=SECOND)
    history = label_history(tmp_path / "catalog")
    assert len(history.warnings) == 1 and "outside the years 1970-9999 in UTC" in history.warnings[0]
    assert set(history.added) == {label_slug(_labels()[0])}
    docs = site_files(tmp_path / "catalog")
    assert "Added to this catalogue on 2024&#45;02&#45;03" in docs["changelog/index.md"]
    err = capsys.readouterr().err
    assert err.count("catalog-docs: warning: commit ") == 1 and "Traceback" not in err


def test_git_is_never_pointed_elsewhere_by_the_environment(repo: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    other.mkdir()
    _git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert set(label_history(repo / "catalog").added) == {label_slug(label) for label in _labels()[:2]}


# ---- the feed as XML -------------------------------------------------------------------------------------

_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"),
                              whitelist_characters=" "), min_size=1, max_size=30).map(str.strip).filter(bool)
"""Text the catalogue accepts: no control, format, private-use or unassigned character, no other space, and
(as every name it holds) not blank, nor opening or closing with a space."""


@settings(max_examples=60, deadline=None)
@given(service=_TEXT, labels=st.lists(_TEXT, min_size=1, max_size=4, unique=True), what=_TEXT, value=_TEXT)
def test_any_catalogue_text_is_escaped_in_the_feed(service: str, labels: list[str], what: str, value: str) -> None:
    catalog = _fixture()
    catalog = dataclasses.replace(catalog, service=dataclasses.replace(catalog.service, name=service))
    versions = [dataclasses.replace(catalog.versions[0], label=label, slug=label_slug(label)) for label in labels]
    entries = [ChangelogEntry(version=v, previous=versions[i - 1] if i else None,
                              summary=[SummaryRow(what, 3, (value, value + "&"), "value-changed"),
                                       SummaryRow(what, 1, None, None)],
                              compare_href="compare/x/" if i else None, version_href="versions/x/",
                              added=None, anchor=v.slug,
                              names=[RowNames(named=((what, "value-changed--x--0000beef"),), more=2, plan=value), None])
               for i, v in enumerate(versions)]
    history = LabelHistory(repository=False, reason="test", build=BuildTime(
        when=datetime(2024, 1, 1, tzinfo=UTC), source="SOURCE_DATE_EPOCH"))
    text = atom_feed(catalog, entries[::-1], history, "changelog/")
    # An XML parser reads back every text exactly as the catalogue has it.
    root = etree.fromstring(text.encode("utf-8"))
    atom = {"a": "http://www.w3.org/2005/Atom"}
    assert root.findtext("a:title", namespaces=atom) == f"{service}: version labels"
    assert root.xpath("a:entry/a:title/text()", namespaces=atom) == [f"Version label {x}" for x in reversed(labels)]
    for content in root.xpath("a:entry/a:content/text()", namespaces=atom)[:-1]:
        # The content is HTML whose text is the catalogue's: once parsed as HTML, it reads as written.
        shown = etree.fromstring(f"<div>{content}</div>", etree.HTMLParser())
        assert f"{what} {value} → {value}&: 3 (plan entry {value}: {what} and 2 more)" in "".join(shown.itertext())
    # And a feed reader's parser takes it whole (feedparser's own guesses at mis-encoded text aside).
    parsed = feedparser.parse(text.encode("utf-8"))
    assert not parsed.bozo and len(parsed.entries) == len(labels)


def test_a_feed_with_a_committed_label_states_each_date(tmp_path: Path) -> None:
    catalog = load_catalog(FIXTURE_CATALOG)
    added = Added(when=datetime(2024, 5, 6, 7, 8, 9, tzinfo=UTC), commit=HASH_A, known="commit")
    history = LabelHistory(repository=True, added={catalog.versions[0].slug: added},
                           build=BuildTime(when=datetime(2025, 1, 1, tzinfo=UTC), source="clock"))
    entry = ChangelogEntry(version=catalog.versions[0], previous=None, summary=[], compare_href=None,
                           version_href="../versions/x/", added=added, anchor="x")
    parsed = feedparser.parse(atom_feed(catalog, [entry], history, "changelog/").encode())
    assert parsed.entries[0].updated == "2024-05-06T07:08:09Z" == parsed.feed.updated


def test_published_is_the_addition_and_updated_the_last_change_of_the_label_file(repo: Path,
                                                                                    monkeypatch: pytest.MonkeyPatch
                                                                                    ) -> None:
    # Was: every entry kept the date of its addition as <updated>, so a reader never showed a changed label again.
    labels = _labels()
    first = repo / "catalog" / "versions" / f"{label_slug(labels[0])}.yaml"
    first.write_text(first.read_text(encoding="utf-8") + "# a later edit of this label's file\n", encoding="utf-8")
    _git(repo, "commit", "-q", "-am", "edit the first label", date=THIRD)
    monkeypatch.delenv("SITE_URL", raising=False)
    entries = {e.title.removeprefix("Version label "): e for e in _feed(site_files(repo / "catalog")).entries}
    assert (entries[labels[0]].published, entries[labels[0]].updated) == (_utc(FIRST), _utc(THIRD))
    assert (entries[labels[1]].published, entries[labels[1]].updated) == (_utc(SECOND), _utc(SECOND))
    # Not committed: no date of addition is invented; <updated> (which Atom requires) is the build's.
    build = datetime.fromtimestamp(EPOCH, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert all("published" not in entries[label] and entries[label].updated == build for label in labels[2:])


def test_with_site_url_every_link_of_the_feed_is_absolute(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: the self link, the alternates and the content's links were relative even with SITE_URL set (the W3C
    # validator: "Relative href value on self link").
    monkeypatch.setenv("SITE_URL", "https://docs.example.invalid/fake")
    text = site_files(repo / "catalog")["feed.xml"]
    root = etree.fromstring(text.encode("utf-8"))
    atom = {"a": "http://www.w3.org/2005/Atom"}
    hrefs = root.xpath("//a:link/@href", namespaces=atom)
    for content in root.xpath("a:entry/a:content/text()", namespaces=atom):
        hrefs += etree.fromstring(f"<div>{content}</div>", etree.HTMLParser()).xpath("//a/@href")
    assert len(hrefs) > 2 * len(_labels())
    assert all(h.startswith("https://docs.example.invalid/fake/") for h in hrefs), hrefs
    assert root.xpath("a:link[@rel='self']/@href", namespaces=atom) == ["https://docs.example.invalid/fake/feed.xml"]
    parsed = _feed({"feed.xml": text})
    assert parsed.feed.link == "https://docs.example.invalid/fake/changelog/"


# ---- the built site ---------------------------------------------------------------------------------------


def feed_links(site: Path) -> dict[str, list[Path]]:
    """For every HTML page of a built site, where each of its head's Atom links points (resolved as a browser
    resolves them against the page's own URL, as files of the site)."""
    out: dict[str, list[Path]] = {}
    for page in sorted(site.rglob("*.html")):
        head = parse_file(page).find("head")
        assert head is not None, page
        links = head.find_all("link", rel="alternate", type="application/atom+xml")
        rel = page.relative_to(site).as_posix()
        out[rel] = [(page.parent / link.attrs["href"]).resolve() for link in links]
    return out


def assert_every_page_links_the_feed(site: Path) -> None:
    feed = (site / "feed.xml").resolve()
    assert feed.is_file()
    parsed = feedparser.parse(feed.read_bytes())
    assert not parsed.bozo and len(parsed.entries) == len(_labels())
    links = feed_links(site)
    assert len(links) > 20
    # An operation page links its own feed too, after the site's (tests/site/test_twins.py checks that feed).
    own = {f"operations/{p.parent.name}/index.html": p.resolve() for p in site.glob("operations/*/feed.xml")}
    assert own
    wrong = {page: found for page, found in links.items()
             if found != [feed, *([own[page]] if page in own else [])] and page != "404.html"}
    assert not wrong, wrong
    # The not-found page is served at any depth: its link is site-absolute (mkdocs gives it the site's path).
    assert len(links["404.html"]) == 1
    # Every link of the feed (relative to it, at the site's root) is a page of the built site, and every anchor
    # an entry's content links (a change's id) is an id on that page.
    contents = "".join(e.content[0].value for e in parsed.entries)
    linked = [a.get("href", "") for a in etree.fromstring(f"<div>{contents}</div>", etree.HTMLParser()).iter("a")]
    hrefs = [link.href for link in parsed.feed.links] + [e.link for e in parsed.entries] + linked
    assert any("#" in href for href in linked)
    for href in hrefs:
        path, _, anchor = href.partition("#")
        target = site / path / "index.html" if path.endswith("/") else site / path
        assert target.is_file(), href
        if anchor:
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), href


@pytest.mark.site
def test_every_page_of_the_built_site_links_the_feed_in_its_head(built_site: Path) -> None:
    assert_every_page_links_the_feed(built_site)
    assert (built_site / "changelog" / "index.html").is_file()


@pytest.fixture(scope="module")
def changelog_readings(chromium: Browser, site_url: str) -> dict[str, tuple[str, int, list[str], list[str]]]:
    """{scheme: (the Material scheme shown, the article's h2 count, the serious and critical axe-core violations,
    what went wrong)} for the changelog page loaded once in a tab whose browser prefers light, read, switched to
    dark with the theme's toggle and read again (axe-core injected once), then switched back (the tab's stored
    choice is light again, for the next page loaded in it)."""
    from browsing import BLOCKING, describe_violation

    assert AXE.is_file(), f"{AXE} is missing: run `make test` or `npm ci` in the project folder"
    # A tab of the pool's default options, which most browser tests give back: Playwright's default preference is
    # the light scheme (asserted on the page below), where asking for it by name needed a browser context of its own.
    visit = new_visit(chromium, site_url)
    readings: dict[str, tuple[str, int, list[str], list[str]]] = {}
    try:
        page = visit.open("changelog/")
        assert page.evaluate("matchMedia('(prefers-color-scheme: light)').matches"), "the tab does not prefer light"
        page.add_script_tag(path=str(AXE))
        for scheme in SCHEMES:
            if scheme != "light":
                visit.choose_scheme(scheme)
            result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            readings[scheme] = (page.evaluate("document.body.dataset.mdColorScheme"),
                                page.locator("article h2").count(),
                                [describe_violation(x) for x in result["violations"] if x["impact"] in BLOCKING],
                                visit.take_problems())
        visit.choose_scheme("light")
        readings["dark"][3].extend(visit.problems())  # anything the switch back brought
    finally:
        visit.close()
    return readings


@pytest.mark.browser
@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_the_changelog_page_has_no_serious_accessibility_violation(
        changelog_readings: dict[str, tuple[str, int, list[str], list[str]]], scheme: str) -> None:
    shown, headings, blocking, problems = changelog_readings[scheme]
    assert shown == SCHEMES[scheme], f"the page shows the {shown} scheme"
    assert headings == len(_labels())
    assert not blocking, "\n".join(blocking)
    assert not problems, "\n".join(problems)


def test_without_git_installed_the_history_says_so(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(repo / "no-such-folder"))
    found = label_history(repo / "catalog")
    assert not found.repository and found.reason == "git is not installed" and not found.added


def test_a_repository_without_a_commit_has_every_label_not_committed(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE_CATALOG, tmp_path / "catalog")
    _git(tmp_path, "init", "-q")
    found = label_history(tmp_path / "catalog")
    assert found.repository and not found.added and not found.shallow
    docs = site_files(tmp_path / "catalog", reuse=Reuse())
    page = docs["changelog/index.md"]
    assert page.count("Not committed yet, so it has no date of addition") == len(_labels())
