"""Under `mkdocs serve`, the render of an edit starts as soon as the edit is written, not when mkdocs notices it.

mkdocs' server finds a change by polling its watched folders every half second, waits 0.1 s for more, reloads
its configuration and then rebuilds; until then this process has nothing to do. `Ahead` watches the catalogue
folder and the templates itself (inotify, through watchfiles) and runs the catalogue's render in a thread of its
own as soon as a change has settled, so that the rebuild's on_pre_build finds it done. The rebuild takes that
render only if nothing it read has changed since: every entry under the watched folders has the status it had
when the render began (mode, inode, size, modification and change times, not following links). Otherwise, and
when there is no such render, the rebuild renders as before. Only one render runs at a time (one lock), so the
memo of the last render (pages.Reuse) is never shared by two. What it saves of an edit is in CONTRIBUTING
("Figures behind the limits").
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SETTLE_MS = 30
"""How long the watched folders stay quiet before the render starts (an editor's save can be several writes)."""

STOP_WAIT_S = 5.0
"""How long stop() waits for the watching thread."""

State = tuple[tuple[str, int, int, int, int, int] | tuple[str], ...]


def folder_state(folders: list[Path]) -> State:
    """Every entry under `folders` with its status (links not followed, and not entered); a folder that cannot
    be listed counts as its path alone."""
    out: list[tuple[str, int, int, int, int, int] | tuple[str]] = []
    stack = [str(folder) for folder in reversed(folders)]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as found:
                entries = sorted(found, key=lambda entry: entry.name)
        except OSError:
            out.append((here,))
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                out.append((entry.path,))
                continue
            out.append((entry.path, st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Done:
    """A render made ahead, and the state of the watched folders when it began."""

    state: State
    texts: dict[str, str] | None
    error: Exception | None


class Ahead:
    """The render made ahead of mkdocs' rebuild (see the module's docstring). `render` is the catalogue's keyed
    render (pages.site_files with the session's Reuse); every call of it goes through this object, so that two
    never overlap."""

    def __init__(self, folders: list[Path], render: Callable[[], dict[str, str]]) -> None:
        self._folders = folders
        self._render = render
        self._lock = threading.Lock()
        self._done: _Done | None = None
        self._covered: State | None = None
        """The state the last render (made here or in a rebuild) was made from: a change that leaves it as it was
        needs no render ahead."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start watching, in a daemon thread. Without watchfiles, or where the folders cannot be watched, there
        is no render ahead: each rebuild renders as it did."""
        self._thread = threading.Thread(target=self._watch, name="catalog-docs-ahead", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(STOP_WAIT_S)
        self._thread = None

    def texts(self) -> dict[str, str]:
        """This rebuild's render: the one made ahead when nothing it read has changed since it began (its error
        raised, if it failed), else a render made now."""
        with self._lock:
            done, self._done = self._done, None
            state = folder_state(self._folders)
            if done is not None and done.state == state:
                if done.error is not None:
                    raise done.error
                assert done.texts is not None
                return done.texts
            self._covered = state
            return self._render()

    def _watch(self) -> None:
        try:
            import watchfiles

            for _changes in watchfiles.watch(*self._folders, stop_event=self._stop, step=SETTLE_MS,
                                             raise_interrupt=False):
                self._ahead()
        except Exception:  # nothing to watch with: each rebuild renders, as without this
            return

    def _ahead(self) -> None:
        with self._lock:
            state = folder_state(self._folders)
            if state == self._covered:
                return
            self._covered = state
            try:
                self._done = _Done(state=state, texts=self._render(), error=None)
            except Exception as exc:  # raised by the rebuild that takes it, as its own
                self._done = _Done(state=state, texts=None, error=exc)
