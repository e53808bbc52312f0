"""The render made ahead under `mkdocs serve` (site/ahead.py): a rebuild takes it only when nothing it read has
changed since it began; otherwise, or without one, the rebuild renders; two renders never overlap."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from catalog_docs.site.ahead import Ahead, folder_state


class _Render:
    """A render that reads the fake catalogue's one file, counts its calls and notices overlapping ones."""

    def __init__(self, folder: Path, *, fail: bool = False, slow_s: float = 0.0) -> None:
        self.folder = folder
        self.calls = 0
        self.fail = fail
        self.slow_s = slow_s
        self.running = False
        self.overlapped = False

    def __call__(self) -> dict[str, str]:
        if self.running:
            self.overlapped = True
        self.running = True
        try:
            self.calls += 1
            text = (self.folder / "versions" / "FAKE-1.0.yaml").read_text(encoding="utf-8")
            time.sleep(self.slow_s)
            if self.fail:
                raise ValueError(f"fake render failed on {text.strip()}")
            return {"page.md": text}
        finally:
            self.running = False


def _catalog(tmp_path: Path) -> Path:
    folder = tmp_path / "catalog"
    (folder / "versions").mkdir(parents=True)
    (folder / "versions" / "FAKE-1.0.yaml").write_text("fake: close\n", encoding="utf-8")
    return folder


def _edit(folder: Path, text: str) -> None:
    path = folder / "versions" / "FAKE-1.0.yaml"
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    if path.stat().st_mtime_ns == before:  # a coarse clock: make the edit visible in the status, as a later one is
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def test_the_state_changes_with_an_edit_and_not_with_a_read(tmp_path: Path) -> None:
    folder = _catalog(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (folder / "link").symlink_to(tmp_path / "elsewhere")
    before = folder_state([folder])
    (folder / "versions" / "FAKE-1.0.yaml").read_text(encoding="utf-8")
    assert folder_state([folder]) == before
    (tmp_path / "elsewhere" / "inside.yaml").write_text("x: 1\n", encoding="utf-8")  # behind a link: not entered
    assert folder_state([folder]) == before
    _edit(folder, "fake: unlimited\n")
    assert folder_state([folder]) != before
    (folder / "versions" / "FAKE-1.1.yaml").write_text("fake: close\n", encoding="utf-8")
    assert len(folder_state([folder])) == len(before) + 1


def _edited_and_rendered_ahead(tmp_path: Path) -> tuple[Path, _Render, Ahead]:
    """The fake catalogue with one value edited, and that edit rendered ahead (as the watcher would)."""
    folder = _catalog(tmp_path)
    render = _Render(folder)
    ahead = Ahead([folder], render)
    _edit(folder, "fake: unlimited\n")
    ahead._ahead()
    return folder, render, ahead


def test_a_rebuild_takes_the_render_made_ahead(tmp_path: Path) -> None:
    _, render, ahead = _edited_and_rendered_ahead(tmp_path)
    assert render.calls == 1
    assert ahead.texts() == {"page.md": "fake: unlimited\n"}
    assert render.calls == 1  # not rendered again
    assert ahead.texts() == {"page.md": "fake: unlimited\n"}  # a second rebuild (docs/ changed, say) renders
    assert render.calls == 2


def test_a_change_after_the_render_began_is_rendered_by_the_rebuild(tmp_path: Path) -> None:
    folder, render, ahead = _edited_and_rendered_ahead(tmp_path)
    _edit(folder, "fake: close-again\n")
    assert ahead.texts() == {"page.md": "fake: close-again\n"}
    assert render.calls == 2


def test_a_change_that_leaves_the_last_render_current_is_not_rendered_ahead(tmp_path: Path) -> None:
    folder = _catalog(tmp_path)
    render = _Render(folder)
    ahead = Ahead([folder], render)
    ahead.texts()  # a rebuild rendered this state
    ahead._ahead()  # a watcher event with nothing changed since (a file touched and put back, say)
    assert render.calls == 1


def test_a_failed_render_ahead_fails_the_rebuild_with_its_own_error(tmp_path: Path) -> None:
    folder = _catalog(tmp_path)
    render = _Render(folder, fail=True)
    ahead = Ahead([folder], render)
    ahead._ahead()
    with pytest.raises(ValueError, match="fake render failed on fake: close"):
        ahead.texts()
    assert render.calls == 1


def test_the_watcher_renders_an_edit_ahead_and_never_beside_a_rebuild(tmp_path: Path) -> None:
    """With the real watcher: an edit is rendered without a rebuild asking, and rebuilds asking meanwhile wait
    for it (the render is slow here) instead of rendering beside it."""
    folder = _catalog(tmp_path)
    render = _Render(folder, slow_s=0.2)
    ahead = Ahead([folder], render)
    ahead.start()
    try:
        time.sleep(0.5)  # the watcher is set up
        _edit(folder, "fake: unlimited\n")
        deadline = time.monotonic() + 10
        while render.calls == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert render.calls == 1, "the edit was not rendered ahead"
        results: list[dict[str, str]] = []
        askers = [threading.Thread(target=lambda: results.append(ahead.texts())) for _ in range(3)]
        for t in askers:
            t.start()
        for t in askers:
            t.join(10)
        assert results and all(r == {"page.md": "fake: unlimited\n"} for r in results)
        assert not render.overlapped
    finally:
        ahead.stop()
    assert not any(t.name == "catalog-docs-ahead" for t in threading.enumerate())
