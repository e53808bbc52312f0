"""What the loader reads and what it prints: regular files only, links that stay inside the catalogue,
the render fingerprint covering exactly what the loader reads, every invisible or control character
refused however written, names at the file-name limit, bounded work, and terminal-safe messages.

Runs on copies of the fixture catalogue (tests/fixture-catalog), never the real one.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.authoring.synth import MAX_OPERATIONS, SynthSpec
from catalog_docs.catalog.load import PROBLEMS_PER_FILE
from catalog_docs.catalog.nodes import BAD_CHAR, BAD_KEY_CHAR
from catalog_docs.catalog.schema_fast import ecma_regex
from catalog_docs.catalog.validate import MAX_NAME_BYTES, file_name_problem, load_catalog
from catalog_docs.errors import CatalogDocsError, CatalogInvalid, Problem
from catalog_docs.escape import for_terminal
from catalog_docs.site.pages import Reuse, site_files

FIXTURE = Path(__file__).resolve().parents[1] / "fixture-catalog"


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    out = tmp_path / "catalog"
    shutil.copytree(FIXTURE, out)
    return out


def _problems(catalog: Path) -> list[str]:
    with pytest.raises(CatalogInvalid) as info:
        load_catalog(catalog)
    return [str(p) for p in info.value.problems]


# --- characters ---------------------------------------------------------------------------------------------


def test_every_control_format_separator_surrogate_and_private_use_character_is_refused() -> None:
    missed = []
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        category = unicodedata.category(ch)
        refused = category in ("Cf", "Cs", "Co", "Zl", "Zp") or (category == "Cc" and ch not in "\t\n\r")
        refused = refused or (code & 0xFFFE) == 0xFFFE or 0xFDD0 <= code <= 0xFDEF  # non-characters
        if refused and not BAD_CHAR.match(ch):
            missed.append(f"U+{code:04X}")
    assert not missed, missed[:20]


@pytest.mark.parametrize("ch", ["\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u17b4", "\u17b5", "\u034f",
                                "\ufe0f", "\U000e0100", "\U000e0041", "\U000e007f", "\U000e0000"])
def test_blank_looking_letters_tags_and_variation_selectors_are_refused(ch: str) -> None:
    assert BAD_CHAR.match(ch)


@pytest.mark.parametrize("ch", ["a", "é", "Ω", "中", "§", " ", "\u00a0", "\u2009", "-", "\U0001f600"])
def test_visible_text_and_ordinary_spaces_pass_in_values(ch: str) -> None:
    assert not BAD_CHAR.match(ch)


@pytest.mark.parametrize("ch", ["\t", "\n", "\r", "\x85", "\u00a0", "\u2009", "\u3000", "\u202f"])
def test_keys_hold_no_white_space_but_the_plain_space(ch: str) -> None:
    assert BAD_KEY_CHAR.match(ch) and not BAD_KEY_CHAR.match(" ")


def test_a_plain_key_with_a_raw_no_break_space_is_refused(catalog: Path) -> None:
    path = catalog / "versions" / "FAKE-1.1.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("      /fakeWidgetCreate:", "      /fake\u00a0Widget:", 1),
                    encoding="utf-8")
    problems = _problems(catalog)
    assert any("expected a key of visible characters, found U+00A0 NO-BREAK SPACE" in p for p in problems), problems


# --- patterns: no trailing newline ------------------------------------------------------------------------


@pytest.mark.parametrize(("pattern", "text", "matches"), [
    ("^[a-z]+$", "abc", True), ("^[a-z]+$", "abc\n", False), ("^a$|^b$", "a\n", False),
    ("^[$]+$", "$$", True), ("^\\$x$", "$x", True), ("^\\$x$", "$x\n", False), ("^a[^$]$", "ab", True),
])
def test_schema_patterns_read_dollar_as_the_very_end(pattern: str, text: str, matches: bool) -> None:
    assert bool(ecma_regex(pattern).search(text)) is matches


def test_every_schema_pattern_refuses_a_trailing_newline() -> None:
    import json

    from catalog_docs.layout import SCHEMA_DIR

    def patterns(node: object):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            for value in node.values():
                yield from patterns(value)
        elif isinstance(node, list):
            for value in node:
                yield from patterns(value)

    found = [p for f in sorted(SCHEMA_DIR.glob("*.json")) for p in patterns(json.loads(f.read_text(encoding="utf-8")))]
    assert found
    samples = {"§4", "§8 rule 2", "v1", "vpa-spam", "/getAccList", "UPI_N 1.0.1", "entry-23", "a"}
    for pattern in found:
        passing = [s for s in samples if ecma_regex(pattern).search(s)]
        assert passing, pattern
        for s in passing:
            assert not ecma_regex(pattern).search(s + "\n"), (pattern, s)


# --- terminal escapes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1b[31mred", "\\x1b[31mred"), ("a\x9bb", "a\\x9bb"), ("x\ry", "x\\x0dy"), ("\u202egnp", "\\u202egnp"),
    ("t\U000e0041", "t\\U000e0041"), ("line\u2028sep", "line\\u2028sep"), ("\x07", "\\x07"), ("ok é 中", "ok é 中"),
])
def test_terminal_text_shows_controls_escaped(raw: str, shown: str) -> None:
    assert for_terminal(raw) == shown


@pytest.mark.parametrize(("raw", "shown"), [
    ("a\u3164b", "a\\u3164b"), ("\u115fx", "\\u115fx"), ("x\u034fy", "x\\u034fy"), ("\u0301x", "\\u0301x"),
    ("a \u0301b", "a \\u0301b"), ("\u200b\u0301", "\\u200b\\u0301"), ("e\u0301\u0302", "e\u0301\u0302"),
    ("\uffa0", "\\uffa0"), ("a\ufe0f", "a\\ufe0f"), ("\u1160", "\\u1160"), ("Café", "Café"),
])
def test_default_ignorables_hangul_fillers_and_bare_marks_show_escaped(raw: str, shown: str) -> None:
    """The issue's U+3164, U+115F, U+034F and a lone U+0301 printed raw in error lines: each shows as nothing,
    or sits on a neighbour. A combining mark on a letter stays as it is."""
    assert for_terminal(raw) == shown


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_no_printed_character_is_invisible_or_without_a_base(text: str) -> None:
    shown = for_terminal(text)
    based = False
    for ch in shown:
        category = unicodedata.category(ch)
        assert category not in ("Cc", "Cf", "Cs", "Zl", "Zp"), (text, shown)
        assert ch not in "\u3164\u115f\u1160\uffa0\u034f\u180b\ufe0f\u2060", (text, shown)  # some ignorables
        assert category[0] != "M" or based, (text, shown)
        based = category[0] in "LN" or (category[0] == "M" and based)  # a mark sits on a letter or digit only


AROUND_A_NAME = " '\"`([{<:=,./-_"
"""What the tool prints before a name it quotes: a space, quotes, brackets, punctuation."""


def _escaped(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}"


@given(st.sampled_from(AROUND_A_NAME), st.characters(categories=["Mn", "Mc", "Me"]), st.text(max_size=12))
def test_a_name_that_begins_with_a_mark_shows_it_escaped_after_anything_the_tool_prints(before: str, mark: str,
                                                                                      rest: str) -> None:
    """The issue's U+0301 before `UPI_N 1.1.0` joined the quote before it: whatever precedes the name, its first
    mark is shown as an escape, never drawn on the quote."""
    shown = for_terminal(f"error: unknown version label {before}{mark}{rest}{before}")
    assert shown.startswith(f"error: unknown version label {before}{_escaped(mark)}"), (before, mark, shown)


@pytest.mark.parametrize("command", ["check", "new-label NEW", "new-label --from", "diff", "diff plan",
                                     "diff --fail-on"])
def test_every_command_prints_a_name_beginning_with_a_mark_escaped(catalog: Path, command: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    name = "\u0301FAKE 1.1"
    where = ["--catalog", str(catalog)]
    argv = {"check": ["check", *where], "new-label NEW": ["new-label", name, "--from", "FAKE 1.0", *where],
            "new-label --from": ["new-label", "FAKE 9.9", "--from", name, *where],
            "diff": ["diff", name, "FAKE 2.0", *where],
            "diff plan": ["diff", "FAKE 1.0:\u0301PLAN A", "FAKE 2.0", *where],
            "diff --fail-on": ["diff", "FAKE 1.0", "FAKE 2.0", "--fail-on", "\u0301value-changed", *where]}[command]
    if command == "check":
        service = catalog / "service.yaml"
        service.write_text(service.read_text(encoding="utf-8").replace("  - FAKE 1.1\n", f"  - {name}\n", 1),
                           encoding="utf-8")
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code in (1, 2) and "'\\u0301" in err and "\u0301" not in err, err


def test_errors_print_their_input_escaped() -> None:
    problem = Problem(file="versions/\x1b]0;t\x07.yaml", line=1, column=1, key_path="versions[\u202eX]",
                      expected="x", found="the text '\x1b[2J'", hint="\r")
    assert str(problem) == ("versions/\\x1b]0;t\\x07.yaml:1:1: versions[\\u202eX]: expected x, "
                            "found the text '\\x1b[2J' (\\x0d)")
    assert str(CatalogDocsError("bad label \x1b[31mX\nnext")) == "bad label \\x1b[31mX\\x0anext"


# --- regular files, links -------------------------------------------------------------------------------------


def test_a_link_inside_the_catalogue_is_followed(catalog: Path) -> None:
    (catalog / "kept").mkdir()
    (catalog / "versions" / "FAKE-1.1.yaml").rename(catalog / "kept" / "FAKE-1.1.yaml")
    (catalog / "versions" / "FAKE-1.1.yaml").symlink_to("../kept/FAKE-1.1.yaml")
    assert load_catalog(catalog).versions[1].label == "FAKE 1.1"


def test_a_versions_folder_linked_outside_is_refused(catalog: Path, tmp_path: Path) -> None:
    shutil.move(catalog / "versions", tmp_path / "elsewhere")
    (catalog / "versions").symlink_to(tmp_path / "elsewhere")
    problems = _problems(catalog)
    assert any(p.startswith(f"{catalog / 'versions'}:1:1: (catalogue): expected one of")
               and "a symbolic link leaving the catalogue folder" in p for p in problems), problems


def test_a_link_to_a_file_outside_is_refused_without_reading_it(catalog: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("label: TOP SECRET TEXT\n", encoding="utf-8")
    (catalog / "versions" / "FAKE-1.1.yaml").unlink()
    (catalog / "versions" / "FAKE-1.1.yaml").symlink_to(secret)
    problems = _problems(catalog)
    assert not any("TOP SECRET" in p for p in problems), problems
    assert any("found a symbolic link to" in p and "outside it" in p for p in problems), problems


def test_a_fifo_does_not_hang_check_or_the_render(catalog: Path) -> None:
    (catalog / "versions" / "FAKE-1.1.yaml").unlink()
    os.mkfifo(catalog / "versions" / "FAKE-1.1.yaml")
    started = time.monotonic()
    with pytest.raises(CatalogInvalid) as info:
        site_files(catalog)
    assert time.monotonic() - started < 30
    assert "found a named pipe (FIFO)" in info.value.report()


# --- the preview's render ---------------------------------------------------------------------------------


@pytest.mark.parametrize("broken", ["dangling link", "fifo", "extra yml", "folder"])
def test_a_broken_entry_is_never_taken_from_the_last_render(catalog: Path, broken: str) -> None:
    reuse = Reuse()
    site_files(catalog, reuse=reuse)
    target = catalog / "versions" / "FAKE-3.0.yaml"
    if broken == "dangling link":
        target.symlink_to("missing.yaml")
    elif broken == "fifo":
        os.mkfifo(target)
    elif broken == "extra yml":
        (catalog / "notes.yml").write_text("a: 1\n", encoding="utf-8")
    else:
        target.mkdir()
    with pytest.raises(CatalogInvalid):
        site_files(catalog, reuse=reuse)
    with pytest.raises(CatalogInvalid):
        load_catalog(catalog)


def test_a_folder_that_is_no_catalogue_is_one_error(tmp_path: Path) -> None:
    tree = tmp_path / "share"
    for i in range(50):
        (tree / f"pkg{i}" / "doc").mkdir(parents=True)
        (tree / f"pkg{i}" / "doc" / "README").write_text("x", encoding="utf-8")
    with pytest.raises(CatalogInvalid) as info:
        site_files(tree)
    assert "expected the file service.yaml, found no such file" in info.value.report()


# --- names at the limit ---------------------------------------------------------------------------------------


def test_the_longest_accepted_path_renders(catalog: Path, tmp_path: Path) -> None:
    from catalog_docs.site.folders import render_out

    longest = "x" * (MAX_NAME_BYTES - len(".html"))
    assert file_name_problem(longest) is None and file_name_problem(longest + "x") is not None
    for f in [catalog / "listing.yaml", *sorted((catalog / "versions").glob("*.yaml"))]:
        f.write_text(f.read_text(encoding="utf-8").replace("/fakeWidgetCreate", "/" + longest), encoding="utf-8")
    render_out(site_files(catalog), tmp_path / "docs")
    assert (tmp_path / "docs" / "operations" / f"{longest}.md").is_file()


@pytest.mark.parametrize("name", ["AUX", "con", "Nul.md", "com7", "LPT1.txt", "prn "])
def test_windows_device_names_are_refused_in_any_case_and_with_any_suffix(name: str) -> None:
    assert file_name_problem(name) is not None


@pytest.mark.parametrize("name", ["auxiliary", "console", "com10", "null", "a.aux", "lpt"])
def test_names_that_only_resemble_device_names_pass(name: str) -> None:
    assert file_name_problem(name) is None


# --- bounded work ---------------------------------------------------------------------------------------------


def test_duplicate_keys_past_the_limit_are_counted_not_listed(catalog: Path) -> None:
    path = catalog / "not-shown.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "extra:\n" + "  k: v\n" * (PROBLEMS_PER_FILE + 99),
                    encoding="utf-8")
    problems = _problems(catalog)
    # 299 keys k: the first and 298 duplicates
    assert sum("expected each key once" in p for p in problems) == PROBLEMS_PER_FILE
    counted = [p for p in problems if "more problems, the first here" in p]
    assert len(counted) == 1 and "found 98 more problems" in counted[0], counted


@pytest.mark.parametrize(("sizes", "message"), [
    ({"operations": MAX_OPERATIONS + 1, "versions": 1, "plans": 1}, "operations must be from 1 to 10,000"),
    ({"operations": 1, "versions": 0, "plans": 1}, "versions must be from 1"),
    ({"operations": 1, "versions": 1, "plans": 10**6}, "plans must be from 1 to 20"),
    ({"operations": 10_000, "versions": 200, "plans": 20}, "must be at most 4,000,000"),
])
def test_synth_sizes_have_upper_bounds(sizes: dict[str, int], message: str) -> None:
    with pytest.raises(CatalogDocsError, match=message):
        SynthSpec(**sizes)


def test_synth_refuses_a_huge_size_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["synth", "--operations", "999999999", "--versions", "2", "--plans", "2",
                     "--out", str(tmp_path / "s")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "10,000" in err and "Traceback" not in err, err
    assert not (tmp_path / "s").exists()
