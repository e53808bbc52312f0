"""One module writes (issue 40): no module of the product but `catalog_docs/writing.py` removes, renames, makes or
opens a path for writing. The rest of the code asks writing.py, which walks every path from a folder it holds
without following a link; auditing what the tool can touch is reading that one file.

devtools/ is left out: it measures the product in scratch folders of its own and the product never imports it
(tests/project/test_layout.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scripts" / "catalog_docs"
THE_WRITER = PACKAGE / "writing.py"
LEFT_OUT = PACKAGE / "devtools"

WRITING_METHODS = {"write_text", "write_bytes", "unlink", "rename", "mkdir", "rmdir", "touch", "symlink_to",
                   "hardlink_to", "link_to"}
"""Path methods that write or remove, whatever their arguments."""
WRITING_FUNCTIONS = {
    "os": {"remove", "unlink", "rename", "renames", "replace", "mkdir", "makedirs", "rmdir", "removedirs", "symlink",
           "link", "truncate", "mkfifo", "mknod"},
    "shutil": {"rmtree", "move", "copy", "copy2", "copyfile", "copytree", "copyfileobj"},
    "tempfile": {"mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryDirectory", "TemporaryFile",
                 "SpooledTemporaryFile"},
}
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}


def _mode_writes(node: ast.expr | None) -> bool:
    """Whether an open mode writes; a mode that is not a constant counts as writing."""
    if node is None:
        return False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(c in node.value for c in "wax+")
    return True


def _mode_of(call: ast.Call, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "mode":
            return keyword.value
    return call.args[position] if len(call.args) > position else None


def _flags_write(node: ast.expr) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in WRITE_FLAGS for n in ast.walk(node))


def _is_devnull(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "devnull"


def _call_writes(call: ast.Call) -> str | None:
    """What a call writes or removes, in words, or None."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open" and _mode_writes(_mode_of(call, 1)):
        return "open() for writing"
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    if owner in WRITING_FUNCTIONS:
        if func.attr in WRITING_FUNCTIONS[owner]:
            return f"{owner}.{func.attr}"
        if (owner == "os" and func.attr == "open" and len(call.args) > 1 and _flags_write(call.args[1])
                and not _is_devnull(call.args[0])):
            return "os.open for writing"
        return None
    if func.attr in WRITING_METHODS:
        return f".{func.attr}()"
    if func.attr == "replace" and len(call.args) == 1 and not call.keywords:  # Path.replace; str.replace takes two
        return ".replace(target)"
    if func.attr == "open" and _mode_writes(_mode_of(call, 0)):
        return ".open() for writing"
    return None


def writes_in(source: str) -> list[tuple[int, str]]:
    """Every call in `source` that writes or removes a path, as (line, what)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            what = _call_writes(node)
            if what is not None:
                found.append((node.lineno, what))
    return sorted(found)


FORBIDDEN_EXAMPLES = [
    'open(p, "w")', 'open(p, mode="a")', 'open(p, "x")', 'open(p, "r+b")', 'open(p, m)', 'p.open("w")',
    'p.open(mode="wb")', 'p.write_text("x")', 'p.write_bytes(b"")', 'p.unlink()', 'p.rename(q)', 'p.replace(q)',
    'p.mkdir()', 'p.rmdir()', 'p.touch()', 'p.symlink_to(q)', 'os.remove(p)', 'os.unlink(p)', 'os.rename(p, q)',
    'os.replace(p, q)', 'os.mkdir(p)', 'os.makedirs(p)', 'os.rmdir(p)', 'os.symlink(p, q)', 'os.truncate(p, 0)',
    'os.open(p, os.O_WRONLY | os.O_CREAT)', 'os.open(p, os.O_RDWR)', 'shutil.rmtree(p)', 'shutil.move(p, q)',
    'shutil.copyfile(p, q)', 'shutil.copytree(p, q)', 'tempfile.mkstemp()', 'tempfile.mkdtemp()',
]
ALLOWED_EXAMPLES = ['open(p)', 'open(p, "rb")', 'p.open()', 'p.read_text()', 's.replace("a", "b")',
                    'dataclasses.replace(x, a=1)', 'os.open(p, os.O_RDONLY | os.O_NOFOLLOW)',
                    'os.open(os.devnull, os.O_WRONLY)', 'os.fdopen(fd, "wb")', 'os.lstat(p)']


@pytest.mark.parametrize("source", FORBIDDEN_EXAMPLES)
def test_the_scan_finds_every_way_of_writing(source: str) -> None:
    assert len(writes_in(source)) == 1, source


@pytest.mark.parametrize("source", ALLOWED_EXAMPLES)
def test_the_scan_lets_reading_be(source: str) -> None:
    assert writes_in(source) == [], source


def test_no_module_but_writing_py_writes_or_removes_a_path() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == THE_WRITER or LEFT_OUT in path.parents:
            continue
        rel = path.relative_to(PACKAGE).as_posix()
        found += [f"{rel}:{line}: {what}" for line, what in writes_in(path.read_text(encoding="utf-8"))]
    assert found == [], "write through catalog_docs/writing.py instead:\n" + "\n".join(found)


def test_writing_py_itself_is_seen_by_the_scan() -> None:
    # The module that writes does write: the scan reads it as it reads the others.
    assert writes_in(THE_WRITER.read_text(encoding="utf-8"))
