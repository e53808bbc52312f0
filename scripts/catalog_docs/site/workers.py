"""Produce the planned jobs' texts: in this process, or shared with a forked child on a large catalogue.
Nothing here writes a file."""

from __future__ import annotations

import mmap
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Iterator
from typing import Any, NoReturn

from catalog_docs.errors import CatalogDocsError
from catalog_docs.site.keys import PageMemo
from catalog_docs.site.paging import Job

PARALLEL_MIN_JOBS = 300
"""Below this many files a second process costs more than it saves."""


def render_workers(jobs: int) -> int:
    """How many processes render: 2 for a large catalogue on a machine with two or more processors, when
    this process can fork safely (no other threads, as under `mkdocs serve`); else 1.
    CATALOG_DOCS_WORKERS=1 turns the second process off."""
    if jobs < PARALLEL_MIN_JOBS or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    if os.environ.get("CATALOG_DOCS_WORKERS", "").strip() == "1":
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return 2 if cpus >= 2 else 1


def _produce_all(jobs: list[Job]) -> dict[str, str]:
    return {job.path: job.produce() for job in jobs}


class _SharedCounter:
    """A counter in memory shared with a forked child, so two processes can take jobs in turn."""

    def __init__(self) -> None:
        self._memory = mmap.mmap(-1, 8)
        self._lock = multiprocessing.get_context("fork").Lock()

    def take(self, single: int) -> tuple[int, int]:
        """Reserve the next job numbers: one at a time below `single` (the downloads, each a large share of the
        work, so the two processes share them out), `_TAKE` at a time after. The first of them, and how many."""
        with self._lock:
            start = int.from_bytes(self._memory[:8], "little")
            count = 1 if start < single else _TAKE
            self._memory[:8] = (start + count).to_bytes(8, "little")
        return start, count


_TAKE = 8
"""Jobs taken at a time from the shared counter once the downloads are taken."""


def _shared_batches(jobs: list[Job], counter: _SharedCounter) -> Iterator[dict[str, str]]:
    """The texts of the jobs this process takes from the shared counter, one take at a time."""
    single = sum(1 for job in jobs if job.kind == "download")
    while (taken := counter.take(single))[0] < len(jobs):
        start, count = taken
        yield {job.path: job.produce() for job in jobs[start:start + count]}


def _produce_shared(jobs: list[Job], counter: _SharedCounter) -> dict[str, str]:
    out: dict[str, str] = {}
    for batch in _shared_batches(jobs, counter):
        out.update(batch)
    return out


class Answer(threading.Thread):
    """Reads the forked child's texts while this process renders its own share: the child sends each take as it
    is made, so no one holds its whole share as one pickled string beside the texts (pickled and unpickled, half
    of them would be held twice over)."""

    def __init__(self, read_fd: int) -> None:
        super().__init__(name="catalog-docs-render-answer", daemon=True)
        self.read_fd = read_fd
        self.texts: dict[str, str] = {}
        self.status = "lost"
        """`ok` (every take received, then the parts), `error` (then the child's exception) or `lost` (it died)."""
        self.detail: Any = {}

    def run(self) -> None:
        with os.fdopen(self.read_fd, "rb") as pipe:
            while True:
                try:
                    kind, value = pickle.load(pipe)
                except Exception:  # end of the stream, or a record cut short by a child that died
                    return
                if kind != "texts":
                    self.status, self.detail = kind, value
                    return
                self.texts.update(value)


_PARTS = ("json_plans", "openapi_paths")
"""The PageMemo fields a download's producer replaces with the parts it made (catalog_json_parts, openapi_parts)."""


def render_jobs(jobs: list[Job], *, workers: int | None = None, memo: PageMemo | None = None,
                parts: PageMemo | None = None) -> dict[str, str]:
    """Produce every job's text, {path: text} in job order. With `memo`, a job whose key is the one the memo
    holds for its path is not produced: its text is the memo's; the memo then holds this render's files.
    `parts`: the memo the downloads' producers keep their parts in; those a forked child makes are sent back.

    With two workers, a forked child and this process take jobs in turn from a shared counter (the
    largest, the downloads, first) and the child sends its texts back through a pipe: it inherits the
    planned jobs, so nothing is copied in. An error in the child is raised here as if it happened here;
    if the child dies without an answer, the jobs it took are produced here."""
    if memo is not None:
        return _render_with_memo(jobs, workers, memo)
    if (workers or render_workers(len(jobs))) < 2 or len(jobs) < 2:
        return _produce_all(jobs)
    return _render_forked(jobs, parts)


def _render_with_memo(jobs: list[Job], workers: int | None, memo: PageMemo) -> dict[str, str]:
    """render_jobs with a memo: the jobs whose key the memo holds are taken from it, the others produced."""
    known = {job.path: memo.pages[job.path][1] for job in jobs
             if job.key is not None and job.path in memo.pages and memo.pages[job.path][0] == job.key}
    fresh = render_jobs([job for job in jobs if job.path not in known], workers=workers, parts=memo)
    out = {job.path: known[job.path] if job.path in known else fresh[job.path] for job in jobs}
    memo.pages = {job.path: (job.key, out[job.path]) for job in jobs if job.key is not None}
    memo.reused, memo.produced = len(known), len(fresh)
    return out


def _render_forked(jobs: list[Job], parts: PageMemo | None) -> dict[str, str]:
    """render_jobs in two processes: a forked child and this one share the jobs (see render_jobs)."""
    order = sorted(jobs, key=lambda job: job.kind != "download")
    counter = _SharedCounter()
    before = {name: getattr(parts, name) for name in _PARTS} if parts is not None else {}
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: produce, answer, and leave without running any of the parent's exit code
        _child(order, counter, parts, before, read_fd, write_fd)
    os.close(write_fd)
    answer = Answer(read_fd)
    answer.start()
    try:
        out = _produce_shared(order, counter)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        answer.join()
        os.waitpid(pid, 0)
        raise
    answer.join()
    os.waitpid(pid, 0)
    _take_answer(answer, out, parts)
    missing = [job for job in jobs if job.path not in out]  # taken by a child that died
    out.update(_produce_all(missing))
    return {job.path: out[job.path] for job in jobs}


def _child(order: list[Job], counter: _SharedCounter, parts: PageMemo | None, before: dict[str, object],
           read_fd: int, write_fd: int) -> NoReturn:
    """The forked child's whole life: produce its share, sending each take as it is made, then the parts of the
    downloads it made (or its error), and exit."""
    status = 1
    try:
        os.close(read_fd)
        with os.fdopen(write_fd, "wb") as pipe:
            try:
                for texts in _shared_batches(order, counter):
                    pipe.write(pickle.dumps(("texts", texts), protocol=pickle.HIGHEST_PROTOCOL))
                made = {name: getattr(parts, name) for name in before if getattr(parts, name) is not before[name]}
                pipe.write(pickle.dumps(("ok", made), protocol=pickle.HIGHEST_PROTOCOL))
            except BaseException as exc:
                try:
                    record = pickle.dumps(("error", exc), protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:
                    record = pickle.dumps(("error", CatalogDocsError(f"{type(exc).__name__}: {exc}")))
                pipe.write(record)
        status = 0
    finally:
        os._exit(status)


def _take_answer(answer: Answer, out: dict[str, str], parts: PageMemo | None) -> None:
    """Add the child's texts to `out` and its downloads' parts to `parts`; raise the child's error as its own.
    A child that died sent only some of its texts: the jobs it took are missing from `out`."""
    if answer.status == "error":
        raise answer.detail
    out.update(answer.texts)
    if answer.status != "ok":
        return
    for name, value in answer.detail.items():  # the parts of a download the child produced, kept for the next render
        setattr(parts, name, value)

