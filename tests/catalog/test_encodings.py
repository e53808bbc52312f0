"""A catalogue file saved as UTF-16 or UTF-32, with or without a byte order mark, gets one error naming the file
and the encoding, whatever it holds; a UTF-8 file is never taken for one (tests/golden/encoding-* show the
messages in full)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog_docs.catalog.read import read_text, wide_encoding

FIXTURE = Path(__file__).resolve().parents[1] / "fixture-catalog"
ENCODINGS = {"utf-16-le": "UTF-16 little-endian", "utf-16-be": "UTF-16 big-endian",
             "utf-32-le": "UTF-32 little-endian", "utf-32-be": "UTF-32 big-endian"}

# Catalogue text: it starts with an ASCII character (a comment or a key) and is mostly ASCII (keys, numbers), with
# any character of any script in between (sections, names, the odd control character: the encoding is reported
# first). Each ASCII character here is followed by at most one other.
_first = st.characters(min_codepoint=0x21, max_codepoint=0x7E)
_ascii = st.characters(min_codepoint=0x01, max_codepoint=0x7E)
_any = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
_text = st.tuples(_first, st.lists(st.tuples(_ascii, st.one_of(st.just(""), _any)), max_size=100)).map(
    lambda t: t[0] + "".join(a + b for a, b in t[1]))


def _saved(text: str, codec: str, bom: bool) -> bytes:
    return (("\ufeff" if bom else "") + text).encode(codec)


@settings(deadline=None)  # each example reads and writes files: a loaded machine is slow
@given(text=_text, codec=st.sampled_from(sorted(ENCODINGS)), bom=st.booleans())
def test_any_wide_text_gets_one_error_naming_its_encoding(tmp_path_factory: pytest.TempPathFactory, text: str,
                                                          codec: str, bom: bool) -> None:
    path = tmp_path_factory.mktemp("enc") / "listing.yaml"
    path.write_bytes(_saved(text, codec, bom))
    loaded, problems, readable = read_text(path, "listing.yaml")
    assert loaded is None and readable is None
    assert [str(p) for p, _ in problems] == [
        f"listing.yaml:1:1: (file): expected UTF-8 text, found {ENCODINGS[codec]} text "
        f"{'with' if bom else 'without'} a byte order mark (save it as UTF-8)"]


@settings(deadline=None)  # each example reads and writes files: a loaded machine is slow
@given(text=st.text(st.characters(blacklist_categories=("Cs",))))
def test_utf8_text_is_never_taken_for_a_wide_encoding(text: str) -> None:
    """Without a NUL character, UTF-8 has neither the NUL bytes nor the marks the wide encodings start with."""
    assert wide_encoding(text.replace("\x00", "").encode("utf-8")) is None
    assert wide_encoding(b"\xef\xbb\xbf" + text.replace("\x00", "").encode("utf-8")) is None


@pytest.mark.parametrize("path", sorted(FIXTURE.rglob("*.yaml")), ids=lambda p: p.name)
@pytest.mark.parametrize("codec", sorted(ENCODINGS))
@pytest.mark.parametrize("bom", [True, False], ids=["bom", "no-bom"])
def test_every_fixture_file_resaved_is_named(path: Path, codec: str, bom: bool) -> None:
    assert wide_encoding(_saved(path.read_text(encoding="utf-8"), codec, bom)) == (
        f"{ENCODINGS[codec]} text {'with' if bom else 'without'} a byte order mark")


def test_a_utf8_file_with_a_stray_nul_near_its_start_is_not_taken_for_utf16() -> None:
    data = (FIXTURE / "service.yaml").read_bytes()
    assert wide_encoding(data[:1] + b"\x00" + data[1:]) is None
    assert wide_encoding(data[:1] + b"\x00" + data[1:-1]) is None  # odd and even lengths alike
