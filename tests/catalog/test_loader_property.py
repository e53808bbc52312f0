"""Whatever a catalogue file holds, the loader answers with a Catalog or with located problems: never a crash.

Each example takes the fixture catalogue, damages one or more of its files at random (a value or a whole line
replaced with random text full of YAML syntax, lines deleted, duplicated or swapped, tabs, control
characters, random bytes or random Unicode inserted, the file cut short) and loads it.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.catalog import validate
from catalog_docs.catalog.model import Catalog
from catalog_docs.catalog.validate import LoadCache, load_catalog
from catalog_docs.errors import CatalogInvalid
from sitebuild import in_memory_folder

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "tests" / "fixture-catalog"  # fake names; the real catalogue is guarded by check and source facts
FILES = {str(p.relative_to(CATALOG)): p.read_bytes() for p in sorted(CATALOG.rglob("*.yaml"))}

pytestmark = pytest.mark.usefixtures("one_argument_parser")  # a few hundred runs of `check` in process

_YAML_SYNTAX = ":-?[]{},#&*!|>'\"%@`~<=\\/ \t\n."
_yamlish = st.text(alphabet=st.sampled_from(list(_YAML_SYNTAX)) | st.characters(codec="utf-8"), max_size=24)
_words = st.sampled_from(["no", "on", "yes", "1.10", "0755", "1:30", "2024-01-01", "~", "null", "<<", "!!set",
                          "&a", "*a", "!!binary", "---", "...", "[", "{", "- ", "? ", "entry-23", "close",
                          "/getAccList", "UPI_N 1.0.0", "'", '"', "0x1F", ".inf", "1e3", "-"])
_text = st.one_of(_yamlish, _words, st.lists(_words, max_size=4).map(" ".join))
_odd_chars = st.sampled_from(["\t", "\x00", "\x1b", "\x7f", "\x85", "\u200b", "\ufeff", "\u2028", "\r", "\ud7ff"])


@st.composite
def _mutation(draw: st.DrawFn, data: bytes) -> bytes:
    lines = data.split(b"\n")
    i = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["value", "line", "delete", "duplicate", "swap", "odd", "bytes", "unicode",
                                 "truncate", "indent"]))
    if kind == "value":
        line = lines[i]
        cut = line.find(b": ")
        new = draw(_text).encode("utf-8")
        lines[i] = (line[: cut + 2] + new) if cut >= 0 else line + b": " + new
    elif kind == "line":
        indent = len(lines[i]) - len(lines[i].lstrip(b" "))
        lines[i] = b" " * draw(st.sampled_from([0, indent])) + draw(_text).encode("utf-8")
    elif kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "indent":
        lines[i] = b" " * draw(st.integers(0, 12)) + lines[i].lstrip(b" ")
    else:
        at = draw(st.integers(0, len(data)))
        if kind == "truncate":
            return data[:at]
        if kind == "odd":
            new = draw(_odd_chars).encode("utf-8")
        elif kind == "bytes":
            new = draw(st.binary(min_size=1, max_size=8))
        else:
            new = draw(st.text(min_size=1, max_size=8)).encode("utf-8")
        return data[:at] + new + data[at:]
    return b"\n".join(lines)


@st.composite
def damaged_catalogues(draw: st.DrawFn) -> dict[str, bytes]:
    files = dict(FILES)
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(sorted(files)))
        files[name] = draw(_mutation(files[name]))
    return files


def _outcome(catalog_dir: Path, cache: LoadCache | None) -> object:
    try:
        return load_catalog(catalog_dir, cache=cache)
    except CatalogInvalid as exc:
        return exc.report()


def _recording(outcomes: list[Catalog | CatalogInvalid]) -> Callable[..., Catalog]:
    """validate.load_catalog, recording what each call returns or raises."""
    real = validate.load_catalog

    def load(*args: Any, **kwargs: Any) -> Catalog:
        try:
            catalog = real(*args, **kwargs)
        except CatalogInvalid as exc:
            outcomes.append(exc)
            raise
        outcomes.append(catalog)
        return catalog

    return load


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The module's folder for the catalogues its examples write, in memory where it can be (sitebuild's
    in_memory_folder): some thousand files made and removed, cheap on tmpfs and not on a journalled disk."""
    with in_memory_folder(tmp_path_factory, "lp") as folder:
        yield folder


_WARM = LoadCache()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_catalogues())
def test_a_damaged_catalogue_loads_or_is_reported_never_crashes(scratch: Path, files: dict[str, bytes]) -> None:
    """... and a warm load (through the preview loop's cache, which saw the example before) reports exactly what
    the cold one does: both contracts on every damaged catalogue drawn.

    One folder for every example, so that the cache of the preview loop sees the same paths again: the files an
    example left unchanged are hits, the damaged ones misses (and the next example's undamaged files misses again)."""
    catalog = scratch / "warm" / "catalog"
    for old in sorted(catalog.rglob("*.yaml")) if catalog.exists() else []:
        if old.relative_to(catalog).as_posix() not in files:
            old.unlink()
    for name, data in files.items():
        (catalog / name).parent.mkdir(parents=True, exist_ok=True)
        if not (catalog / name).exists() or (catalog / name).read_bytes() != data:
            (catalog / name).write_bytes(data)

    # The cold load is the one `check` makes (its outcome recorded as it passes): one load, not two of the same.
    out, err = io.StringIO(), io.StringIO()
    cold_loads: list[Catalog | CatalogInvalid] = []
    with mock.patch.object(validate, "load_catalog", _recording(cold_loads)), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        code = cli.main(["check", "--catalog", str(catalog)])
    assert code in (0, 1)
    assert "Traceback" not in err.getvalue()
    assert len(cold_loads) == 1, cold_loads
    loaded = cold_loads[0] if isinstance(cold_loads[0], Catalog) else None
    refused = cold_loads[0] if isinstance(cold_loads[0], CatalogInvalid) else None
    assert (code == 0) == (loaded is not None)
    if refused is not None:
        assert refused.problems, "CatalogInvalid without a problem"
        for p in refused.problems:
            assert p.line >= 1 and p.column >= 1, str(p)
            assert p.key_path.strip(), str(p)
            assert p.expected.strip() and p.found.strip(), str(p)
        assert refused.report().endswith("error" if len(refused.problems) == 1 else "errors")
    else:
        assert isinstance(loaded, Catalog)

    cold = loaded if refused is None else refused.report()
    assert _outcome(catalog, _WARM) == cold
    assert _outcome(catalog, _WARM) == cold  # every file a hit now


# --- escapes, special files and names at the limits ---------------------------------------------------------

FIXTURE = ROOT / "tests" / "fixture-catalog"
_REFUSED_SAMPLES = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\x9b", "\u00ad", "\u061c", "\u115f", "\u1160", "\u180e",
                    "\u200b", "\u200d", "\u202e", "\u2028", "\u2029", "\u2066", "\u2800", "\u3164", "\ufe0f",
                    "\ufeff", "\uffa0", "\ufffe", "\ue000", "\U000e0001", "\U000e0041", "\U000e007f",
                    "\U000e0100", "\U000f0000", "\U0010fffd", "\U0001fffe"]
_refused_chars = st.sampled_from(_REFUSED_SAMPLES) | st.characters(categories=["Cc", "Cf", "Co", "Zl", "Zp"],
                                                                   exclude_characters="\t\n\r")


def _escape(ch: str, form: str) -> str:
    """A character as a YAML double-quoted escape."""
    named = {"\x00": "\\0", "\x07": "\\a", "\x1b": "\\e", "\x85": "\\N", "\u2028": "\\L", "\u2029": "\\P"}
    if form == "named" and ch in named:
        return named[ch]
    o = ord(ch)
    if form == "x" and o < 0x100:
        return f"\\x{o:02x}"
    return f"\\u{o:04X}" if o < 0x10000 else f"\\U{o:08X}"


@st.composite
def _escaped_texts(draw: st.DrawFn) -> tuple[str, str]:
    """(double-quoted YAML text holding at least one refused character as an escape, the character)."""
    ch = draw(_refused_chars)
    words = draw(st.lists(st.sampled_from(["Fake", "payload", "fields", "of", "a", "response"]), max_size=4))
    at = draw(st.integers(0, len(words)))
    escaped = _escape(ch, draw(st.sampled_from(["named", "x", "u"])))
    return '"' + " ".join([*words[:at], escaped, *words[at:]]) + '"', ch


def _copy_fixture(tmp: str) -> Path:
    catalog = Path(tmp) / "catalog"
    for path in sorted(FIXTURE.rglob("*.yaml")):
        target = catalog / path.relative_to(FIXTURE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    return catalog


def _check(catalog: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["check", "--catalog", str(catalog)])
    return code, err.getvalue()


def _printable(report: str) -> bool:
    """No character a terminal would act on: controls (but the line ends), bidi and invisible characters."""
    return not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") and c != "\n" for c in report)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_escaped_texts(), st.sampled_from(["value", "key", "flow-value", "label"]))
def test_a_refused_character_written_as_an_escape_is_refused_and_printed_escaped(scratch: Path,
                                                                                escaped: tuple[str, str],
                                                                                where: str) -> None:
    text, ch = escaped
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        catalog = _copy_fixture(tmp)
        if where == "value":
            f, old, new = "not-shown.yaml", "topic: ", f"topic: {text} #"
        elif where == "key":
            f, old, new = "versions/FAKE-1.1.yaml", "      /fakeWidgetCreate:", f"      {text[:-1]}/fakeWidgetCreate\":"
        elif where == "flow-value":
            f, old, new = "service.yaml", "name: Fake widget handling,", f"name: {text},"
        else:
            f, old, new = "versions/FAKE-1.1.yaml", "label: FAKE 1.1", f"label: {text}"
        path = catalog / f
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
        code, report = _check(catalog)
        assert code == 1, f"{text} passed check"
        assert "Traceback" not in report
        assert _printable(report), repr(report)
        assert f"U+{ord(ch):04X}" in report or "invalid Unicode character escape" in report, report


_SPECIALS = ["fifo", "dangling", "outside", "dev-zero", "folder", "socket"]


def _make_special(path: Path, kind: str, outside: Path) -> None:
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling":
        path.symlink_to(path.parent / "no-such-target.yaml")
    elif kind == "outside":
        path.symlink_to(outside)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(path))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["service.yaml", "listing.yaml", "not-shown.yaml", "versions/FAKE-1.1.yaml",
                        "versions/FAKE-9.yaml"]), st.sampled_from(_SPECIALS))
def test_special_files_are_refused_with_their_location_never_read(scratch: Path, name: str, kind: str) -> None:
    """Never opened for reading, so a pipe cannot hang `check` and /dev/zero cannot fill memory (an alarm
    turns a hang into a failure)."""
    with tempfile.TemporaryDirectory(dir=scratch, prefix="cd-") as tmp:  # short: a socket path has a limit
        catalog = _copy_fixture(tmp)
        outside = Path(tmp) / "outside.yaml"
        outside.write_bytes((FIXTURE / name).read_bytes() if (FIXTURE / name).exists() else b"x: 1\n")
        _make_special(catalog / name, kind, outside)
        previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail(f"check hung on a {kind}"))
        signal.alarm(30)
        try:
            code, report = _check(catalog)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        assert code == 1 and "Traceback" not in report
        line = next((ln for ln in report.splitlines() if ln.startswith(str(catalog / name) + ":1:1:")), None)
        assert line is not None, report
        assert "expected a regular file" in line or "expected a file inside the catalogue folder" in line, line


_names = st.one_of(
    st.integers(230, 270).map(lambda n: "x" * n),                    # around the 250-character limit
    st.integers(1, 130).map(lambda n: "seg/" * n + "end"),           # segments joined into one name
    st.sampled_from(["aux", "CON", "nul.json", "Com1", "lpt9.x", "prn", "auxiliary", "console", "com10"]),
    st.sampled_from([".well-known", ".x", "...", "a.", "ok.v2", "a..b", "x-.y"]),
    st.sampled_from(["index.md", "Index.HTML", "sitemap.xml", "SITEMAP.xml.gz", "feed.xml", "page-2.md",  # files
                     "seg/sitemap.xml", "feed.xml/x"]),                  # the site writes beside its pages
    st.text(alphabet="abcXYZ019._~-", min_size=1, max_size=300),
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_names)
def test_a_path_that_passes_check_renders_into_a_file_it_names(scratch: Path, name: str) -> None:
    """Names at the limits: `check` refuses the ones no common file system can hold; every name it accepts
    renders and writes (the longest generated name included), so the render never meets a bad name."""
    from catalog_docs.catalog.validate import file_name_problem, reserved_slug
    from catalog_docs.site.folders import render_out
    from catalog_docs.site.render import render_pages

    path = "/" + name
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        catalog = _copy_fixture(tmp)
        for f in [catalog / "listing.yaml", *sorted((catalog / "versions").glob("*.yaml"))]:
            f.write_text(f.read_text(encoding="utf-8").replace("/fakeWidgetCreate", path), encoding="utf-8")
        slug = name.replace("/", "-")
        try:
            loaded = load_catalog(catalog)
        except CatalogInvalid as exc:
            refused: CatalogInvalid | None = exc
        else:
            refused = None
        if refused is not None:
            assert "Traceback" not in refused.report()
            dots = any(seg and seg.strip(".") == "" for seg in name.split("/"))
            assert dots or file_name_problem(slug) is not None or reserved_slug(slug, paged=True) or any(
                "listing.entries[1].path" not in p.key_path for p in refused.problems), refused.report()
            return
        assert file_name_problem(slug) is None
        assert len((slug + ".html").encode()) <= 255
        docs = Path(tmp) / "docs"
        render_out(render_pages(loaded), docs)
        assert (docs / "operations" / f"{slug}.md").is_file()
        # the folder the built site makes for the page (the render makes it already when it puts the page's
        # sitemap or feed there): a folder, never a file the render wrote
        (docs / "operations" / slug).mkdir(exist_ok=True)
        assert (docs / "operations" / slug).is_dir()
        (docs / "operations" / slug / "index.html").write_text("x", encoding="utf-8")


# --- the cache of the preview loop: a warm load reports exactly what a cold one does --------------------------
# (for damaged catalogues: test_a_damaged_catalogue_loads_or_is_reported_never_crashes above)

def _golden_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("_golden_cases", Path(__file__).with_name("test_golden.py"))
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_every_golden_case_reports_the_same_through_a_warm_cache(scratch: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each golden case loaded in the folder where the good base catalogue was just loaded through the cache
    (so its unchanged files are hits), and then again (all hits): the report is the cold load's, byte for byte.
    The cold load's report is the case's expected.txt, which test_golden.py::test_golden holds `check` to print for
    the same files loaded cold (file names relative to the catalogue folder, the working folder there as here)."""
    import shutil

    golden = _golden_module()
    cache = LoadCache()
    tmp_path = Path(tempfile.mkdtemp(prefix="golden-", dir=scratch))
    catalog = tmp_path / "catalog"
    for case in golden.CASES:
        monkeypatch.chdir(tmp_path)
        if catalog.exists():
            shutil.rmtree(catalog)
        shutil.copytree(golden.BASE_CATALOG, catalog, ignore=shutil.ignore_patterns("README.md"))
        monkeypatch.chdir(catalog)
        assert isinstance(_outcome(catalog, cache), Catalog)
        _apply_quietly(golden, case, catalog)
        cold = (case / "expected.txt").read_text(encoding="utf-8")
        assert cold.endswith(" error\n") or cold.endswith(" errors\n"), case.name
        assert f"{_outcome(catalog, cache)}\n" == cold, case.name
        assert f"{_outcome(catalog, cache)}\n" == cold, case.name
    assert cache.parsed.hits > 0


def _apply_quietly(golden: object, case: Path, catalog: Path) -> None:
    golden._apply(case, catalog)  # type: ignore[attr-defined]
