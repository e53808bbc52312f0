"""Guards around every test (a pytest plugin, loaded with `-p guards` from pyproject.toml).

1. **The real catalogue stays out of the tests.** Tests run on fixture catalogues under tests/; an everyday
   edit of catalog/ (a label added, a value changed) must fail only the source-facts tests. An audit hook sees
   every file a test opens or lists, and every command it starts in the project folder: a test that reads the
   project's own catalogue data without the `real_catalog` mark fails, naming what it read. The marked tests
   are few, and tests/catalog/test_catalog_edits.py runs exactly them on edited copies of the project.
   (catalog/schema/ is exempt: the editors' JSON Schemas are code, reviewed as code; a data edit never
   touches them.)
2. **Process-wide settings come back.** A test that leaves the working folder, an environment variable, the
   umask or a signal handler changed fails, and the setting is put back so the next test starts clean.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
REAL_CATALOG = str(ROOT / "catalog")
EXEMPT = str(ROOT / "catalog" / "schema")
CATALOG_READERS = {"catalog-docs", "mkdocs", "properdocs", "zensical"}
"""Commands that read the catalogue of the folder they start in (mkdocs and ProperDocs through the plugin)."""
MARK = "real_catalog"


# --- 1. the real catalogue ------------------------------------------------------------------------------

class _Reads:
    """What the running test read of the real catalogue; `now` is None outside a test (collection, session set-up)."""

    now: list[str] | None = None
    hooked = False  # an audit hook cannot be removed: one per process, idle outside a test


def _in_catalog(path: object) -> str | None:
    if isinstance(path, int) or path is None:
        return None
    try:
        name = os.fsdecode(path)  # type: ignore[arg-type]  # str, bytes or PathLike
    except (TypeError, ValueError):
        return None
    if os.sep not in name:
        return None  # one relative component: an entry under a dir_fd (shutil.rmtree), not a path from here
    full = os.path.normpath(Path(name).absolute())
    if full == EXEMPT or full.startswith(EXEMPT + os.sep):
        return None
    return full if full == REAL_CATALOG or full.startswith(REAL_CATALOG + os.sep) else None


def _reads_catalogue(argv: object, cwd: object) -> str | None:
    """A command that reads the real catalogue: one of CATALOG_READERS (or `python -m catalog_docs`) started in
    the project folder, or any command given a path inside catalog/."""
    args = [os.fsdecode(a) for a in argv] if isinstance(argv, list | tuple) else [os.fsdecode(argv)]  # type: ignore[arg-type]
    folder = os.path.normpath(Path(os.fsdecode(cwd) if cwd is not None else ".").absolute())  # type: ignore[arg-type]
    for arg in args:
        if (found := _in_catalog(Path(folder, arg))) is not None:
            return f"{' '.join(args)} (names {found})"
    programs = {Path(args[0]).name} if args else set()
    if "-m" in args[:-1]:  # python -m catalog_docs (its cli), mkdocs, ...; not a devtools module
        programs.add(args[args.index("-m") + 1].removesuffix(".cli").replace("_", "-"))
    named = args[args.index("--catalog") + 1] if "--catalog" in args[:-1] else None
    if folder == str(ROOT) and programs & CATALOG_READERS and named is None:  # --catalog elsewhere: checked above
        return f"{' '.join(args)} (started in {ROOT}, reads its catalog/)"
    return None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    reads = _Reads.now
    if reads is None:
        return
    if event in ("open", "os.listdir", "os.scandir"):
        found = _in_catalog(args[0]) if args else None
    elif event == "subprocess.Popen":
        found = _reads_catalogue(args[1], args[2])
    else:
        return
    if found is not None:
        reads.append(found)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARK}: reads the project's own catalog/ (tests/guards.py; "
                                       "tests/catalog/test_catalog_edits.py runs these on edited copies)")
    if not _Reads.hooked:
        sys.addaudithook(_audit)
        _Reads.hooked = True


# --- 2. process-wide settings ---------------------------------------------------------------------------

_SIGNALS = sorted(set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP})


@dataclass(frozen=True)
class Settings:
    """The process-wide settings a test may change only if it puts them back."""

    cwd: str
    environ: dict[str, str]
    umask: int
    handlers: dict[int, object]

    @classmethod
    def now(cls) -> Settings:
        umask = os.umask(0o022)
        os.umask(umask)
        return cls(cwd=str(Path.cwd()), environ=dict(os.environ), umask=umask,
                   handlers={s: signal.getsignal(s) for s in _SIGNALS})

    def changes(self, after: Settings) -> list[str]:
        found = []
        if after.cwd != self.cwd:
            found.append(f"the working folder ({self.cwd} -> {after.cwd})")
        for key in sorted((self.environ.keys() | after.environ.keys()) - {"PYTEST_CURRENT_TEST"}):  # pytest's own
            if self.environ.get(key) != after.environ.get(key):
                found.append(f"environment variable {key} ({self.environ.get(key)!r} -> {after.environ.get(key)!r})")
        if after.umask != self.umask:
            found.append(f"the umask ({self.umask:o} -> {after.umask:o})")
        found += [f"the handler of {signal.strsignal(sig) or sig}" for sig in self.handlers
                  if after.handlers[sig] != self.handlers[sig]]
        return found

    def restore(self) -> None:
        os.chdir(self.cwd)
        os.environ.clear()
        os.environ.update(self.environ)
        os.umask(self.umask)
        for sig, handler in self.handlers.items():
            if handler is not None:  # None: installed outside Python; cannot be put back, and was not changed here
                signal.signal(sig, handler)  # type: ignore[arg-type]


# --- the hooks: around each test's whole protocol (set-up, call, teardown) --------------------------------

@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    item.stash[_BEFORE] = Settings.now()
    _Reads.now = []
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    try:
        result = yield
    finally:
        reads, _Reads.now = _Reads.now or [], None
    problems = _problems(item, reads)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    return result


def _problems(item: pytest.Item, reads: list[str]) -> list[str]:
    problems = []
    before = item.stash.get(_BEFORE, None)
    if before is not None:
        after = Settings.now()
        changed = before.changes(after)
        if changed:
            before.restore()
            problems.append(f"{item.nodeid} changed process-wide settings without putting them back: "
                            + "; ".join(changed) + " (restore them, or run the code that changes them in a subprocess)")
    if reads and item.get_closest_marker(MARK) is None:
        shown = sorted(set(reads))
        problems.append(f"{item.nodeid} read the project's own catalogue, which tests must not: "
                        + ", ".join(shown[:5]) + (f" and {len(shown) - 5} more" if len(shown) > 5 else "")
                        + f" (use a fixture catalogue under tests/, or mark it {MARK} if it must check catalog/)")
    return problems


_BEFORE = pytest.StashKey[Settings]()
