"""Whatever a catalogue file holds, the loader answers with a Catalog or with located problems: never a crash.

Each example takes the real catalogue, damages one or more of its files at random (a value or a whole line
replaced with random text full of YAML syntax, lines deleted, duplicated or swapped, tabs, control
characters, random bytes or random Unicode inserted, the file cut short) and loads it.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.errors import CatalogInvalid
from catalog_docs.model import Catalog
from catalog_docs.validate import load_catalog

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "catalog"
FILES = {str(p.relative_to(CATALOG)): p.read_bytes() for p in sorted(CATALOG.rglob("*.yaml"))}

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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_catalogues())
def test_a_damaged_catalogue_loads_or_is_reported_never_crashes(files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Path(tmp) / "catalog"
        for name, data in files.items():
            (catalog / name).parent.mkdir(parents=True, exist_ok=True)
            (catalog / name).write_bytes(data)

        loaded: Catalog | None = None
        try:
            loaded = load_catalog(catalog)
        except CatalogInvalid as exc:
            assert exc.problems, "CatalogInvalid without a problem"
            for p in exc.problems:
                assert p.line >= 1 and p.column >= 1, str(p)
                assert p.key_path.strip(), str(p)
                assert p.expected.strip() and p.found.strip(), str(p)
            assert exc.report().endswith("error" if len(exc.problems) == 1 else "errors")
        else:
            assert isinstance(loaded, Catalog)

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["check", "--catalog", str(catalog)])
        assert code in (0, 1)
        assert "Traceback" not in err.getvalue()
        assert (code == 0) == (loaded is not None)
