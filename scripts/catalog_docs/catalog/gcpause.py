"""The garbage collector's policy, all of it: paused for the bulk stages, and the long-lived state of a preview
kept out of every later collection.

The bulk stages (load, validate, render, write) build hundreds of thousands of objects that hold no reference
cycles (marked nodes, model records, table rows). Each full collection walks every live object, so with the
collector on, a catalogue twice the size costs more than twice the time; with it paused, the cost grows linearly
(see `make bench`). Reference counting still frees everything as usual; the collector runs again as soon as the
outermost stage returns.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic collector inside the block (or decorated function); nests safely."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def keep_long_lived() -> None:
    """After a good render in a long-lived process (the preview): collect what earlier rebuilds left, then move
    every object alive now to the permanent generation (`gc.freeze`, as CPython documents for long-lived
    objects), so the collections a rebuild sets off walk only that rebuild's objects, not the pages, parsed files
    and comparisons kept for the next edit. What a later render replaces is freed by reference counting (it holds
    no cycles, as above)."""
    gc.collect()
    gc.freeze()


def let_go_of_long_lived() -> None:
    """The long-lived process ends its preview: every object is the collector's again (`gc.unfreeze`)."""
    gc.unfreeze()
