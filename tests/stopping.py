"""A stop is a stop (a pytest plugin, loaded with `-p stopping` from pyproject.toml).

SIGTERM (from `kill`, `timeout`, or make passing on its own SIGTERM) ends the run as Ctrl-C does, and the main
process passes either on to pytest-xdist's workers at once (xdist would let each finish its test first): pytest
raises KeyboardInterrupt in the running test, reports the run as interrupted (exit 2) rather than the test as
failed, and tears down every fixture (browsers, servers). Then nothing is left behind: the main process is a
child subreaper, so processes orphaned by a killed worker or test come back to it, and every process still
descending from it when the run ends is stopped (politely, then not). A worker of pytest-xdist asks the
kernel to stop it when the main process dies.
"""

from __future__ import annotations

import ctypes
import signal
import sys
from collections import Counter
from types import FrameType

import psutil
import pytest

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_HANDLER = pytest.StashKey[object]()
_INT_HANDLER = pytest.StashKey[object]()
GRACE = 5.0
"""Seconds a process left behind gets to end after SIGTERM before it is killed."""


def _prctl(option: int, value: int) -> None:
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    signal.signal(signum, signal.SIG_IGN)  # once is enough: a second SIGTERM during teardown would cut it short
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


def _interrupt_and_pass_on(signum: int, frame: FrameType | None) -> None:
    """The main process: the workers (and any other child) get SIGTERM at once, so none finishes the test it is
    in before it stops (pytest-xdist otherwise waits for them), then the run stops here as on Ctrl-C."""
    for child in psutil.Process().children():
        try:
            child.terminate()
        except psutil.NoSuchProcess:
            continue
    _interrupt(signum, frame)


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    if _is_worker(config):
        config.stash[_HANDLER] = signal.signal(signal.SIGTERM, _interrupt)
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    else:
        config.stash[_HANDLER] = signal.signal(signal.SIGTERM, _interrupt_and_pass_on)
        config.stash[_INT_HANDLER] = signal.signal(signal.SIGINT, _interrupt_and_pass_on)
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    for signum, key in ((signal.SIGTERM, _HANDLER), (signal.SIGINT, _INT_HANDLER)):
        previous = config.stash.get(key, None)
        if previous is not None:
            signal.signal(signum, previous)  # type: ignore[arg-type]
    left = Counter(stop_descendants())
    if left:
        names = ", ".join(f"{name} x{count}" for name, count in left.most_common())
        print(f"\nstopped {left.total()} process(es) the tests left behind: {names}", file=sys.stderr)


def stop_descendants() -> list[str]:
    """Stop every process still running below this one (orphans included, through the subreaper), and reap the
    ones that already ended (an orphan that exits comes back to the subreaper as a zombie); the running ones'
    names."""
    children = psutil.Process().children(recursive=True)
    names = []
    for child in children:
        try:
            if child.status() == psutil.STATUS_ZOMBIE:
                continue  # ended already: wait_procs below reaps it
            names.append(child.name())
            child.terminate()
        except psutil.NoSuchProcess:
            continue
    _, alive = psutil.wait_procs(children, timeout=GRACE)
    for child in alive:
        try:
            child.kill()
        except psutil.NoSuchProcess:
            continue
    psutil.wait_procs(alive, timeout=GRACE)
    return names

