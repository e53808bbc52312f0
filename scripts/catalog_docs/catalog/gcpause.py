"""Cyclic garbage collection paused for the bulk stages (load, validate, render, write).

These stages build hundreds of thousands of objects that hold no reference cycles (marked nodes, model
records, table rows). Each full collection walks every live object, so with the collector on, a
catalogue twice the size costs more than twice the time; with it paused, the cost grows linearly
(see `make bench`). Reference counting still frees everything as usual; the collector runs again as
soon as the outermost stage returns.
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
