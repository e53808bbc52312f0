"""Stage 4: render the model into Markdown pages and download files.

`render_pages`: model in, {path as if under docs/: text} out. It plans the files (planning.py), then produces
them (workers.py). It writes nothing itself: the mkdocs plugin adds the pages in memory, `folders.py` writes
them where a command asks (`pages.site_files`), and a render given `spill` hands its downloads to
`folders.write_parts`.

The planned files' modules, by concern: templating.py (the Jinja environment and its filters), paging.py
(the planner and table paging), planning.py (one step per part of the site), compare_pages.py,
changelog.py, download_parts.py, keys.py (what a keyed render keys each file on) and workers.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import partial
from pathlib import Path

from catalog_docs.catalog.gcpause import paused_gc
from catalog_docs.catalog.model import Catalog
from catalog_docs.site.folders import write_parts
from catalog_docs.site.history import LabelHistory
from catalog_docs.site.keys import PageMemo
from catalog_docs.site.llms import full_parts
from catalog_docs.site.planning import plan_pages
from catalog_docs.site.twins import LLMS_FULL, TWIN_PREFIX
from catalog_docs.site.workers import render_jobs, render_workers

__all__ = ["PageMemo", "iter_pages", "plan_pages", "render_jobs", "render_pages", "render_workers"]


@paused_gc()
def render_pages(catalog: Catalog, *, workers: int | None = None, directory_urls: bool = True,
                 memo: PageMemo | None = None, history: LabelHistory | None = None,
                 spill: Path | None = None, search_boost: bool = True) -> dict[str, str]:
    """Every generated file of the site, as {path relative to docs/: content}.

    Pages are planned here, then rendered by `workers.render_jobs` (in two processes on a large catalogue;
    `workers` overrides the choice, as tests do). `directory_urls` is the builder's `use_directory_urls`:
    links inside HTML tables are written as the built pages' URLs. With `memo` (the preview loop), a file
    whose inputs are those of the memo's last render is taken from it instead of produced again; the
    result is the same either way. `history`: when each label was added, for the changelog (site.history).
    `spill` (not with `memo`): a folder the downloads made in parts are written into as their parts come
    (`spill/<path>`), left out of the result: no one holds their text whole (the largest files of a large catalogue).
    `search_boost`: whether the engine's search ranks pages by `search: boost` (Material's; not Zensical's, for which
    the comparisons are left out of the search: paging.Pages.search_boost)."""
    planned = plan_pages(catalog, directory_urls=directory_urls, memo=memo, history=history,
                         search_boost=search_boost)
    jobs = planned.jobs
    links = planned.twins.links
    if spill is None or memo is not None:
        texts = render_jobs(jobs, workers=workers, memo=memo)
        texts[LLMS_FULL] = "".join(full_parts(_twins_in_order(texts), links))
        return texts
    spilled = {job.path for job in jobs if job.parts is not None}
    jobs = [dataclasses.replace(job, produce=partial(write_parts, spill, job.path, job.parts))
            if job.parts is not None else job for job in jobs]
    texts = {path: text for path, text in render_jobs(jobs, workers=workers).items() if path not in spilled}
    # llms-full.txt is written as its twins come, never held whole (site/llms.py).
    write_parts(spill, LLMS_FULL, partial(full_parts, _twins_in_order(texts), links))
    return texts


def _twins_in_order(texts: dict[str, str]) -> Iterator[tuple[str, str]]:
    """The twins among the render's files, in its order (each page's twin follows it), by site path."""
    return ((key[len(TWIN_PREFIX):], text) for key, text in texts.items() if key.startswith(TWIN_PREFIX))


def iter_pages(files: dict[str, str]) -> Iterator[str]:
    """The Markdown pages among the generated files."""
    return (rel for rel in files if rel.endswith(".md"))

