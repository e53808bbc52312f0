"""No command and no engine's build writes into docs/ (issue 32): whatever docs/ holds (links at every depth, a
loop, docs/ itself a link, pipes, devices, huge and sparse files, any name), every command of the tool and every
engine's build (`mkdocs build`, `properdocs build`, Zensical through `catalog-docs build`) leaves it, and
everything a link in it points to, byte for byte as it was, finishes within a time limit, and prints no traceback.

Every engine reads docs/ only after one check has listed it from metadata alone (site/handwritten.py,
hand_written: mkdocs and ProperDocs call it in the plugin's on_config, before mkdocs walks the folder; Zensical's
build and preview in watch.engine_files, before anything is copied for the engine). So the contract is held in two
parts. A Hypothesis property drives that check, through the plugin's own on_config and engine_files, in this
process on many generated states: a state holding anything no engine can read safely is refused, every offending
entry named on its own line; a state of plain files is listed file by file; nothing waits on a pipe or a device,
and nothing changes. Then every command of the tool (through its entry point, cli.main, in this process) and every
engine, server and preview (each a process of its own) runs on fixed states holding every kind at once (docs/ a
folder; docs/ a link to one): each leaves everything as it was, and every build, server and preview is refused,
naming what it found (a state of plain files builds as any site does:
tests/site/test_render_safety.py and test_engines.py build those).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import stat
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

import fixture_facts as ff
from catalog_docs.escape import for_terminal
from catalog_docs.site.handwritten import DocsRefused, HandWritten, hand_written
from catalog_docs.site.plugin import CatalogDocsPlugin
from catalog_docs.site.watch import engine_files
from sitebuild import BIN, cli_here, copy_env, copy_project, in_memory_folder, tree_entries

TIME_LIMIT_S = 60.0
"""Each command, on a loaded two-core machine; a hang (a pipe read, a link loop walked) would never end."""
HUGE = 3 * 1024**3
"""A sparse file of 3 GiB: over the limit a hand-written file may have, refused by its size."""
BIG = 8 * 1024**2
"""A sparse file within the limit: copied as it is by every engine (into site/, never into docs/)."""


def _free_port() -> str:
    """A port free now (`mkdocs serve` on port 0 would stop at its site_url check, before docs/ is looked at)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


TOOL_COMMANDS: dict[str, list[str]] = {
    "zensical build": ["build", "--publish", "--", str(BIN / "zensical"), "build", "--strict", "--clean", "-f",
                       "mkdocs.yml"],
    "render --out": ["render", "--out", "build/pages", "--replace"],
    "clean": ["clean"],
    "check": ["check"],
    "export": ["export", "--format", "csv"],
    "diff": ["diff", ff.LABELS[0], ff.LABELS[1]],
}
"""The tool's commands, each run in this process through cli.main (the `catalog-docs` console script's entry point),
in the project (the Zensical build's refusal comes before its engine would run, as a process of its own)."""
ENGINES: dict[str, Callable[[], list[str]]] = {
    "mkdocs build": lambda: [str(BIN / "mkdocs"), "build", "--strict"],
    "properdocs build": lambda: [str(BIN / "properdocs"), "build", "--strict", "-f", "mkdocs.yml"],
    "mkdocs serve": lambda: [str(BIN / "mkdocs"), "serve", "--dirty", "--no-strict", "--dev-addr", _free_port()],
}
"""Each engine's argv, made when it runs (a server's port is free only then): each a process of its own."""
PREVIEWS = {
    "zensical preview": [str(BIN / "catalog-docs"), "watch", "--", str(BIN / "zensical"), "serve", "-f", "mkdocs.yml",
                         "--dev-addr", "127.0.0.1:0"],
}
"""Previews that keep running on a docs/ they refuse (the banner says why; an edit may fix it): run until they have
said so, and PREVIEW_AFTER_S longer, then stopped."""
PREVIEW_AFTER_S = 0.5

KINDS = ["file", "big sparse file", "huge sparse file", "fifo", "device", "link to a file outside",
         "link to a folder outside", "link to its folder", "link to docs' parent", "link to /dev/zero",
         "dangling link"]
UNSAFE = [k for k in KINDS if k not in ("file", "big sparse file")]
REFUSED_AS = {kind: "a symbolic link" for kind in UNSAFE if kind.endswith("link") or kind.startswith("link")}
REFUSED_AS.update({"huge sparse file": f"{HUGE} bytes, over", "fifo": "a named pipe", "device": "a device"})
"""How the check words its refusal of each unsafe kind (the start of its reason)."""
NOT_UTF8 = "a name that is not UTF-8"

_NAME_CHARS = st.characters(codec="utf-8", exclude_characters="/\x00", exclude_categories=("Cs",))
NAMES = st.one_of(st.text(_NAME_CHARS, min_size=1, max_size=12).filter(lambda n: n not in (".", "..")),
                  st.sampled_from(["index.md", "legend.md", "README.md", ".hidden", "a b.md", "new\nline.md",
                                   "\u202eevil.md", "operations", "x.md"]),
                  st.just(os.fsdecode(b"not-utf8-\xff.md")))


@dataclass(frozen=True, slots=True)
class Entry:
    folders: tuple[str, ...]
    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class Planted:
    """One thing planted under docs/ (or the folder docs/ links to): its path's components, and its kind as made
    (a device the system refused to make is a link to /dev/zero; "folder": one made on the way to an entry)."""

    parts: tuple[str, ...]
    kind: str


def _entries(kinds: list[str], max_size: int, min_size: int = 0) -> st.SearchStrategy[list[Entry]]:
    return st.lists(st.builds(Entry, st.lists(NAMES, max_size=3).map(tuple), NAMES, st.sampled_from(kinds)),
                    min_size=min_size, max_size=max_size)


STATES = st.tuples(_entries(KINDS, 8), _entries(UNSAFE, 4), st.integers(0, 4).map(lambda n: n == 0))
"""Entries of any kind, and up to four that no engine can read safely (at times over the ten problems a refusal
shows; at times none, when only a name may be refused), docs/ a link in one of five states."""

DEEP = ("a b", "new\nline", "\u202edeep")
NOT_UTF8_NAME = os.fsdecode(b"not-utf8-\xff")
EVERY_KIND = [Entry((), "index.md", "file"), Entry((), "a b.md", "big sparse file"), Entry((), "README.md", "fifo"),
              Entry((), "legend.md", "link to a file outside"), Entry((), "operations", "link to a folder outside"),
              Entry((), ".hidden", "link to its folder"), Entry((), "x.md", "link to docs' parent"),
              Entry(DEEP, "index.md", "file"), Entry(DEEP, "big.pdf", "big sparse file"),
              Entry(DEEP, "huge.pdf", "huge sparse file"), Entry(DEEP, "new\nline.md", "device"),
              Entry(DEEP, "zero.md", "link to /dev/zero"), Entry(DEEP, "\u202eevil.md", "dangling link"),
              Entry((NOT_UTF8_NAME,), "pipe", "fifo")]
"""Every kind, at the top and three odd folders down, and a folder whose name is not UTF-8 (named; what it holds is
never listed): ten things refused, all shown."""
FIXED = {"docs a folder": EVERY_KIND, "docs a link": EVERY_KIND}


def _content(name: str) -> bytes:
    return f"# {name!r}\n".encode("utf-8", "surrogateescape")


def _make(path: Path, kind: str, outside: Path) -> str:
    """Make `path` of `kind`; returns the kind made."""
    if kind == "file":
        path.write_bytes(_content(path.name))
    elif kind.endswith("sparse file"):
        with path.open("wb") as f:
            f.truncate(HUGE if kind.startswith("huge") else BIG)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        try:
            os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # what /dev/zero is
        except PermissionError:
            kind = "link to /dev/zero"
            path.symlink_to("/dev/zero")
    else:
        target = {"link to a file outside": outside / "secret.md", "link to a folder outside": outside,
                  "link to its folder": Path(), "link to docs' parent": Path(".."),
                  "link to /dev/zero": Path("/dev/zero"), "dangling link": Path("missing")}[kind]
        path.symlink_to(target)
    return kind


def _plant(real: Path, outside: Path, entry: Entry) -> list[Planted]:
    """Plant `entry` under `real`, making its folders; what was planted. Nothing is planted through a file, a link
    or anything else an earlier entry left on the way, nor where one is already."""
    made = []
    folder = real
    for depth, name in enumerate(entry.folders, start=1):
        folder = folder / name
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                return made
        except FileNotFoundError:
            folder.mkdir()
            made.append(Planted(entry.folders[:depth], "folder"))
    path = folder / entry.name
    if os.path.lexists(path):
        return made
    return [*made, Planted((*entry.folders, entry.name), _make(path, entry.kind, outside))]


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def refusals(planted: list[Planted]) -> dict[str, str]:
    """{path under docs/: how the check words its refusal} for everything it must name: the first folder on the
    way whose name is not UTF-8 (what it holds is never listed), else the entry itself, when its name is not
    UTF-8 or its kind is unsafe."""
    named = {}
    for entry in planted:
        bad = next((n for n in range(1, len(entry.parts) + 1) if not _utf8(entry.parts[n - 1])), None)
        if bad is not None:
            named["/".join(entry.parts[:bad])] = NOT_UTF8
        elif entry.kind in REFUSED_AS:
            named["/".join(entry.parts)] = REFUSED_AS[entry.kind]
    return named


def expected_lines(named: dict[str, str]) -> list[str]:
    """The start of the line that names each entry, as the check prints it."""
    return [f"{for_terminal('docs/' + rel)}: {words}" for rel, words in named.items()]


def snapshot(root: Path) -> dict[str, tuple[object, ...]]:
    """Everything under `root` (not following links): each entry's kind and, for a file, its bytes' digest (a
    file over 1 MiB: its size, blocks, inode and modification time), for a link its target."""
    out: dict[str, tuple[object, ...]] = {}
    top = os.lstat(root)
    out["."] = ("link", str(root.readlink())) if stat.S_ISLNK(top.st_mode) else (stat.S_IFMT(top.st_mode),)
    if not stat.S_ISDIR(top.st_mode):
        return out
    for key, path, st_ in tree_entries(os.fspath(root)):
        if stat.S_ISLNK(st_.st_mode):
            out[key] = ("link", str(Path(path).readlink()))
        elif stat.S_ISREG(st_.st_mode):
            if st_.st_size <= 1024**2:
                out[key] = ("file", hashlib.sha256(Path(path).read_bytes()).hexdigest())
            else:
                out[key] = ("file", (st_.st_size, st_.st_blocks, st_.st_ino, st_.st_mtime_ns))
        else:
            out[key] = (stat.S_IFMT(st_.st_mode), st_.st_ino, st_.st_mtime_ns)
    return out


@dataclass(frozen=True, slots=True)
class Docs:
    """A hostile docs/ planted in a project: docs/, the folder holding its entries (docs/ itself, or the folder
    it links to), the outside folder its links point into, and what was planted."""

    docs: Path
    real: Path
    outside: Path
    planted: list[Planted]

    def snapshot(self) -> dict[str, dict[str, tuple[object, ...]]]:
        docs = snapshot(self.docs)
        real = docs if self.real == self.docs else snapshot(self.real)  # docs/ a folder: the one folder, listed once
        return {"docs": docs, "real": real, "outside": snapshot(self.outside)}


def plant_state(project: Path, entries: list[Entry], docs_is_link: bool) -> Docs:
    """docs/ of `project` made afresh from `entries` (docs/ a link to a folder beside the project holding them
    when `docs_is_link`), beside an outside folder its links point into, which holds what no one may read: a
    pipe, a link loop, a link to /dev/zero."""
    docs, outside = project / "docs", project.parent / "outside"
    for path in (docs, project.parent / "real-docs"):
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.exists():
            shutil.rmtree(path)
    if not outside.exists():  # made once: every state is checked to leave it as it was
        (outside / "deeper").mkdir(parents=True)
        (outside / "secret.md").write_text("# outside, not ours\n", encoding="utf-8")
        os.mkfifo(outside / "pipe")
        (outside / "loop").symlink_to(".")
        (outside / "zero").symlink_to("/dev/zero")
    real = project.parent / "real-docs" if docs_is_link else docs
    real.mkdir()
    if docs_is_link:
        docs.symlink_to(real)
    planted = [p for entry in entries for p in _plant(real, outside, entry)]
    return Docs(docs, real, outside, planted)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Its own copy: every state is planted in it.
    with in_memory_folder(tmp_path_factory, "untouched") as root:
        yield copy_project(root / "project", catalog=ff.FIXTURE_CATALOG)


@dataclass(frozen=True, slots=True)
class Loaded:
    """The project's mkdocs.yml as mkdocs loads it, and the catalog-docs plugin it loaded (not shown in a failing
    example: it is the same for all)."""

    plugin: CatalogDocsPlugin = field(repr=False)
    config: MkDocsConfig = field(repr=False)


@pytest.fixture(scope="module")
def loaded(project: Path) -> Loaded:
    plant_state(project, [], docs_is_link=False)
    config = load_config(str(project / "mkdocs.yml"))
    plugin = config.plugins["catalog-docs"]
    assert isinstance(plugin, CatalogDocsPlugin)
    return Loaded(plugin, config)


def _within_time(calls: list[Callable[[], object]]) -> list[object]:
    """What each call returns or raises, in a thread given TIME_LIMIT_S (a read of a pipe or a device waits for
    ever: the test fails instead of stopping)."""
    outcomes: list[object] = []

    def run() -> None:
        for call in calls:
            try:
                outcomes.append(call())
            except Exception as exc:  # the outcome is checked by its type
                outcomes.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(TIME_LIMIT_S)
    assert not thread.is_alive(), f"the check did not finish within {TIME_LIMIT_S} s"
    return outcomes


def _assert_names_each(message: str, named: dict[str, str]) -> None:
    """The refusal is one line per entry named (the first ten, in order, then how many more), then its end."""
    lines = message.split("\n")
    assert lines[-1].startswith("docs/") and lines[-1].endswith("nothing was built"), message
    problems = lines[:-1]
    more = int(problems.pop()[len("... and "):-len(" more")]) if problems[-1].startswith("... and ") else 0
    assert len(problems) == min(len(named), 10) and len(problems) + more == len(named), (message, named)
    assert problems == sorted(problems), message
    wanted = expected_lines(named)
    for line in problems:
        assert any(line.startswith(start) for start in wanted), (line, wanted)
    if more == 0:
        for start in wanted:
            assert any(line.startswith(start) for line in problems), (start, message)


def _assert_listed(found: HandWritten, engine: dict[str, bytes], planted: list[Planted]) -> None:
    """A docs/ of plain files is listed file by file (no folder, nothing followed), each read as it is."""
    files = {"/".join(p.parts): p for p in planted if p.kind != "folder"}
    assert set(found.files) == set(files) == set(engine), (found.files, files)
    for rel, entry in files.items():
        if entry.kind == "file":
            assert engine[rel] == _content(entry.parts[-1]), rel
        else:
            assert len(engine[rel]) == BIG and not engine[rel].strip(b"\0"), rel


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(STATES)
def test_the_check_before_every_engine_names_each_unsafe_entry_and_changes_nothing(
        project: Path, loaded: Loaded, state: tuple[list[Entry], list[Entry], bool]) -> None:
    plain, unsafe, docs_is_link = state
    hostile = plant_state(project, [*unsafe, *plain], docs_is_link)
    before = hostile.snapshot()
    found, engine, configured = _within_time([lambda: hand_written(hostile.docs),  # as watch.py and the plugin call it
                                              lambda: engine_files({}, hostile.docs, True),
                                              lambda: loaded.plugin.on_config(loaded.config)])
    assert hostile.snapshot() == before, f"the check changed docs/ or what it links to: {state}"
    named = refusals(hostile.planted)
    if not docs_is_link and not named:
        assert isinstance(found, HandWritten) and isinstance(engine, dict), (found, engine)
        assert configured is loaded.config, configured
        _assert_listed(found, engine, hostile.planted)
        return
    assert isinstance(found, DocsRefused) and isinstance(engine, DocsRefused), (found, engine)
    assert isinstance(configured, PluginError), configured
    message = str(found)
    assert str(engine) == message and str(configured) == message, (found, engine, configured)
    if docs_is_link:
        assert message.startswith("docs is a symbolic link") and "nothing was built" in message, message
    else:
        _assert_names_each(message, named)


class _Listener:
    """Reads a process's output to its end in a thread (a preview that says nothing must not hang the test), and
    tells when a line holding `words` has come."""

    def __init__(self, stream: IO[str], words: str) -> None:
        self.lines: list[str] = []
        self.heard = threading.Event()
        self._words = words
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.append(line)
            if self._words in line:
                self.heard.set()

    def output(self, limit: float) -> str:
        self._thread.join(limit)
        return "".join(self.lines)


def _assert_refused(name: str, output: str, refused: list[str]) -> None:
    assert "Traceback" not in output and "nothing was built" in output, f"{name}:\n{output[-3000:]}"
    for line in refused:
        assert line in output, f"{name} did not name {line!r}:\n{output[-3000:]}"


def _preview(name: str, argv: list[str], project: Path) -> str:
    """Run a preview until it has refused docs/, and PREVIEW_AFTER_S longer; stop it; its output."""
    with subprocess.Popen(argv, cwd=project, env=copy_env(project), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          start_new_session=True) as proc:
        assert proc.stdout is not None
        listener = _Listener(proc.stdout, "nothing was built")
        listener.heard.wait(TIME_LIMIT_S)
        time.sleep(PREVIEW_AFTER_S)
        proc.terminate()  # the watcher stops its engine's server too
        try:
            proc.wait(timeout=TIME_LIMIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail(f"{name} did not stop within {TIME_LIMIT_S} s of being asked")
        return listener.output(TIME_LIMIT_S)


def _run_here(argv: list[str], project: Path, capsys: pytest.CaptureFixture[str], what: str) -> tuple[int, str]:
    """cli.main(argv) in the project (sitebuild.cli_here): its exit code and everything it printed."""
    code, out, err = cli_here(argv, project, capsys, TIME_LIMIT_S, what)
    return code, out + err


@pytest.mark.site
@pytest.mark.parametrize("state", list(FIXED))
def test_no_command_or_engine_changes_a_docs_holding_every_kind(project: Path, capsys: pytest.CaptureFixture[str],
                                                               state: str) -> None:
    hostile = plant_state(project, FIXED[state], docs_is_link=state == "docs a link")
    missing = set(KINDS) - {p.kind for p in hostile.planted} - {"device"}  # made, where the system lets us
    assert not missing, f"not every kind was planted: {sorted(missing)}"
    named = refusals(hostile.planted)
    assert len(named) <= 10, named  # every one shown
    refused = ["docs is a symbolic link"] if state == "docs a link" else expected_lines(named)
    before = hostile.snapshot()
    for name, argv in TOOL_COMMANDS.items():
        code, output = _run_here(argv, project, capsys, f"{name} on {state}")
        assert hostile.snapshot() == before, f"{name} changed docs/ or what it links to: {state}"
        assert "Traceback" not in output, f"{name}:\n{output[-3000:]}"
        if name.endswith("build"):
            assert code != 0, f"{name} built from an unsafe docs/: {state}"
            _assert_refused(name, output, refused)
    for name, make_argv in ENGINES.items():
        started = time.monotonic()
        try:
            done = subprocess.run(make_argv(), cwd=project, capture_output=True, text=True, env=copy_env(project),
                                  timeout=TIME_LIMIT_S, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{name} did not finish within {TIME_LIMIT_S} s on {state}")
        took = time.monotonic() - started
        assert hostile.snapshot() == before, f"{name} changed docs/ or what it links to ({took:.1f} s): {state}"
        assert "Traceback" not in done.stdout + done.stderr, f"{name}:\n{done.stderr[-3000:]}"
        assert done.returncode != 0, f"{name} built from an unsafe docs/: {state}"
        _assert_refused(name, done.stdout + done.stderr, refused)
    for name, argv in PREVIEWS.items():
        output = _preview(name, argv, project)
        assert hostile.snapshot() == before, f"{name} changed docs/ or what it links to: {state}"
        _assert_refused(name, output, refused)
    assert not (project / "build" / "catalog-docs").exists() or not any((project / "build" / "catalog-docs").iterdir())
