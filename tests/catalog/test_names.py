"""Version label and plan entry names read as one name: `check` refuses a name with spaces at its ends or two in a
row, a control, invisible or blank character, or text not in NFC, and two names of one list that read the same
(NFKC, case folded, spaces collapsed; or the same confusable skeleton, UTS #39), naming both places.
tests/golden/name-* show the messages in full; here Hypothesis makes the names and the look-alikes."""

from __future__ import annotations

import re
import shutil
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_docs.catalog.names import confusable_skeleton, look_alike_key, look_alike_keys, name_flaw
from catalog_docs.catalog.validate import LoadCache, load_catalog
from catalog_docs.errors import CatalogInvalid

BASE = Path(__file__).resolve().parents[1] / "golden-base"
PLANS_BLOCK = "plan_entries:\n  - FAKE_ 1.0.0\n  - FAKE_ 3.0.0\n"

_word = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,6}[A-Za-z0-9]|[A-Za-z0-9]", fullmatch=True)
clean_names = st.lists(_word, min_size=1, max_size=3).map(lambda words: " ".join(["QQ", *words]))
"""Names the rules accept, which no fixture name and no reserved or device file name can equal ('QQ ...')."""


def _full_width(name: str, i: int) -> str:
    ch = name[i % len(name)]
    wide = chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch
    return name[: i % len(name)] + wide + name[i % len(name) + 1:]


_SWAPS = {"0": "O", "O": "0", "1": "l", "l": "1", "I": "1"}
"""Characters Unicode lists as confusable with each other (confusables.txt), all allowed in names."""


def _confusable(name: str, i: int) -> str:
    """`name` with its first swappable character from position i on (cyclically) replaced by a look-alike."""
    for k in range(len(name)):
        j = (i + k) % len(name)
        if name[j] in _SWAPS:
            return name[:j] + _SWAPS[name[j]] + name[j + 1:]
    return name


_TRANSFORMS = {
    "upper": lambda n, i: n.upper(),
    "lower": lambda n, i: n.lower(),
    "swapcase": lambda n, i: n.swapcase(),
    "trailing space": lambda n, i: n + " ",
    "leading space": lambda n, i: " " + n,
    "two spaces": lambda n, i: n.replace(" ", "  ", 1),
    "no-break space": lambda n, i: n.replace(" ", "\u00a0", 1),
    "ideographic space": lambda n, i: n.replace(" ", "\u3000", 1),
    "full-width character": _full_width,
    "tab": lambda n, i: n.replace(" ", "\t", 1),
    "confusable letter or digit": _confusable,
}
"""Ways to write a name so that it reads the same as the name."""


def _errors(catalog: Path, plan_entries: list[str], cache: LoadCache | None = None) -> list[str]:
    """The error lines a load of `catalog` (a copy of the golden base) gives with these extra plan entries in its
    service.yaml ([] if it loads)."""
    service = catalog / "service.yaml"
    text = (BASE / "service.yaml").read_text(encoding="utf-8")
    assert PLANS_BLOCK in text
    extra = "".join(f'  - "{name}"\n'.replace("\t", "\\t") for name in plan_entries)
    service.write_text(text.replace(PLANS_BLOCK, PLANS_BLOCK + extra), encoding="utf-8")
    try:
        load_catalog(catalog, cache=cache)
    except CatalogInvalid as exc:
        return [f"{p.file}:{p.line}:{p.column}: {p.key_path}: expected {p.expected}, found {p.found} ({p.hint})"
                .replace(f"{catalog}/", "") for p in exc.problems]
    return []


def _check(plan_entries: list[str]) -> list[str]:
    """The error lines `check` gives for the golden base catalogue with these extra plan entries ([] if it loads)."""
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Path(tmp) / "catalog"
        shutil.copytree(BASE, catalog, ignore=shutil.ignore_patterns("README.md"))
        return _errors(catalog, plan_entries)


class _Warm:
    """_check for the examples: one copy of the golden base and one LoadCache for them all, as the preview loads
    after each edit. Only service.yaml changes, so the other files are neither parsed nor schema-checked again
    (tests/catalog/test_loader_property.py holds a warm load to report exactly what a cold one does); the cold
    load is test_a_clean_name_passes_a_cold_load's and test_the_issues_look_alike_is_refused_naming_both_places'."""

    def __init__(self, folder: Path) -> None:
        self.catalog = folder / "catalog"
        shutil.copytree(BASE, self.catalog, ignore=shutil.ignore_patterns("README.md"))
        self.cache = LoadCache()

    def check(self, plan_entries: list[str]) -> list[str]:
        return _errors(self.catalog, plan_entries, self.cache)


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> _Warm:
    return _Warm(tmp_path_factory.mktemp("names"))


def _line_of_extra(k: int) -> int:
    """The line of the k-th extra plan entry (0-based) in the golden base's service.yaml."""
    text = (BASE / "service.yaml").read_text(encoding="utf-8")
    return text[: text.index(PLANS_BLOCK)].count("\n") + PLANS_BLOCK.count("\n") + 1 + k


@settings(deadline=None)  # each example reads and writes files: a loaded machine is slow
@given(name=clean_names)
def test_a_clean_name_passes(warm: _Warm, name: str) -> None:
    assert name_flaw(name) is None
    assert warm.check([name]) == []


def test_a_clean_name_passes_a_cold_load() -> None:
    assert _check(["QQ a.b-c 9"]) == []


@settings(deadline=None)  # each example reads and writes files: a loaded machine is slow
@given(name=clean_names, how=st.sampled_from(sorted(_TRANSFORMS)), where=st.integers(0, 80))
def test_a_look_alike_is_refused_at_its_place_naming_the_other(warm: _Warm, name: str, how: str, where: int) -> None:
    alike = _TRANSFORMS[how](name, where)
    if alike == name:
        return  # upper-case letters only, say: nothing to compare
    assert set(look_alike_keys(alike)) & set(look_alike_keys(name))
    errors = warm.check([name, alike])
    here = f"service.yaml:{_line_of_extra(1)}:5: service.plan_entries[4]: "
    assert errors, f"{alike!r} passed beside {name!r}"
    assert all(e.startswith(here) for e in errors), errors
    alone = warm.check([alike])
    if alone:  # refused for what it holds (the schema's pattern, the rules above), before it is compared
        assert [e.replace(f"plan_entries[{3}]", "plan_entries[4]").replace(
            f":{_line_of_extra(0)}:", f":{_line_of_extra(1)}:") for e in alone] == errors
    else:
        assert errors == [f"{here}expected a name that reads differently from every other plan entry, found {alike!r} "
                          f"({name!r} at service.yaml:{_line_of_extra(0)}:5 reads the same; names must differ in "
                          f"more than case, spacing, character width or characters that look alike (O and 0, l and "
                          f"1))"]


@settings(deadline=None)  # each example reads and writes files: a loaded machine is slow
@given(name=st.text(min_size=1, max_size=20))
def test_the_rules_in_words(name: str) -> None:
    """Which rule `name_flaw` names, for any text: the first that the name breaks, in this order."""
    flaw = name_flaw(name)
    if name != name.strip(" "):
        assert flaw is not None and "space at its" in flaw
    elif "  " in name:
        assert flaw == "two spaces in a row; write one space between words"
    elif any(ch != " " and unicodedata.category(ch)[0] in "CZ" for ch in name):
        assert flaw is not None and re.match(r"U\+[0-9A-F]{4,6} ", flaw)
    elif not unicodedata.is_normalized("NFC", name):
        assert flaw is not None and flaw.startswith("text not in Unicode NFC")


@pytest.mark.parametrize(("name", "flaw"), [
    ("FAKE_ 1.1.0 ", "a space at its end; remove it"),
    (" FAKE_ 1.1.0", "a space at its start; remove it"),
    ("FAKE_  1.1.0", "two spaces in a row; write one space between words"),
    ("FAKE_\u200b 1.1.0", "U+200B ZERO WIDTH SPACE, which shows as nothing or as a plain space; remove it"),
    ("FAKE_\u3164 1.1.0", "U+3164 HANGUL FILLER, which shows as nothing or as a plain space; remove it"),
    ("Cafe\u0301 1.0", "text not in Unicode NFC: a letter and its accent written as two characters; type it again "
                       "or save it in NFC"),
    ("FAKE_ 1.1.0", None),
    ("Café 1.0", None),
])
def test_each_rule(name: str, flaw: str | None) -> None:
    assert name_flaw(name) == flaw


@pytest.mark.parametrize(("a", "b"), [
    ("FAKE_ 1.1.0", "fake_ 1.1.0"), ("FAKE_ 1.1.0", "\uff26\uff21\uff2b\uff25_ 1.1.0"),
    ("FAKE_ 1.1.0", "FAKE_\u00a01.1.0"), ("\ufb01le 1", "FILE 1"), ("Straße 1", "STRASSE 1")])
def test_look_alikes(a: str, b: str) -> None:
    assert look_alike_key(a) == look_alike_key(b)


@pytest.mark.parametrize(("a", "b"), [
    ("FAKE_ 1.1.0", "FAKE_ 1.1.O"), ("FAKE_ 1.1.0", "FAKE_ l.1.0"), ("FAKE_ 1.1.0", "FAKE_ I.I.0"),
    ("FAKE_ 1.1.0", "FAKE_ 1.1.\u041e"), ("FAKE_ 1.1.0", "F\u0410KE_ 1.1.0"),
    ("modern 1", "rnodern 1"), ("paypal 1", "p\u0430yp\u0430l 1")])
def test_names_with_the_same_confusable_skeleton_are_look_alikes(a: str, b: str) -> None:
    assert confusable_skeleton(a) == confusable_skeleton(b)
    assert set(look_alike_keys(a)) & set(look_alike_keys(b))


@pytest.mark.parametrize(("a", "b"), [("FAKE_ 1.1.0", "FAKE_ 1.1.1"), ("FAKE_ 1.0.1", "FAKE_ 1.1.0"),
                                      ("FAKE_ 3.0.0", "FAKE_ 8.0.0"), ("UPI_N 1.0.0", "UPI_N 1.0.1")])
def test_names_a_reader_tells_apart_are_not(a: str, b: str) -> None:
    assert not set(look_alike_keys(a)) & set(look_alike_keys(b))


def test_the_issues_look_alike_is_refused_naming_both_places() -> None:
    errors = _check(["QQ 1.1.0", "QQ 1.1.O"])
    assert errors == [f"service.yaml:{_line_of_extra(1)}:5: service.plan_entries[4]: expected a name that reads "
                      f"differently from every other plan entry, found 'QQ 1.1.O' ('QQ 1.1.0' at "
                      f"service.yaml:{_line_of_extra(0)}:5 reads the same; names must differ in more than case, "
                      f"spacing, character width or characters that look alike (O and 0, l and 1))"]


@settings(deadline=None)
@given(st.text(max_size=12), st.text(max_size=12))
def test_the_skeleton_is_a_function_of_nfd_and_joins_as_text_does(a: str, b: str) -> None:
    """UTS #39's skeleton works on NFD text and character by character: two canonically equal texts have the same
    skeleton, and so do texts built from parts with the same skeletons (where NFD does not reorder across the
    joint)."""
    assert confusable_skeleton(a) == confusable_skeleton(unicodedata.normalize("NFC", a))
    assert confusable_skeleton(confusable_skeleton(a)) == confusable_skeleton(a)
    if not b or unicodedata.combining(unicodedata.normalize("NFD", b)[0]) == 0:
        assert confusable_skeleton(a + b) == confusable_skeleton(confusable_skeleton(a) + b)
