"""A copied label is a draft until someone has checked it: `new-label` writes `draft: true` with a note on what
to check, `check` names the drafts, the preview marks them on every page, and every strict build refuses them
with one line naming the label, the file and the key. Runs on copies of the fixture catalogue."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import fixture_facts as ff
from catalog_docs.catalog.drafts import find_drafts
from catalog_docs.catalog.validate import load_catalog
from catalog_docs.site.preview import PreviewSession
from sitebuild import BIN, build, copy_env, copy_project

NEW = "FAKE 9.9.9-example"


def _new_label(project: Path) -> Path:
    done = subprocess.run([str(BIN / "catalog-docs"), "new-label", NEW, "--from", ff.LABELS[-1]], cwd=project,
                          capture_output=True, text=True, env=copy_env(project), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return project / "catalog" / "versions" / f"{NEW.replace(' ', '-')}.yaml"


def test_new_label_writes_a_draft_that_check_names(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project", catalog=ff.FIXTURE_CATALOG)  # its own copy: a label is added
    written = _new_label(project)
    text = written.read_text(encoding="utf-8")
    assert "\ndraft: true\n" in text and "Check each against what the" in text  # and what to check, in a comment
    assert [v.label for v in load_catalog(project / "catalog").versions if v.draft] == [NEW]
    assert [d.label for d in find_drafts(project / "catalog")] == [NEW]
    check = subprocess.run([str(BIN / "catalog-docs"), "check"], cwd=project, capture_output=True, text=True,
                           env=copy_env(project), timeout=120)
    assert check.returncode == 0, check.stderr
    assert f"draft: version label '{NEW}' (catalog/versions/{written.name})" in check.stdout  # from where it ran


@pytest.mark.site  # its own builds: each engine on a catalogue with a draft label
def test_every_strict_build_refuses_a_draft_in_one_line(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project", catalog=ff.FIXTURE_CATALOG)
    written = _new_label(project)
    rel = f"catalog/versions/{written.name}"  # from the project root, where both commands run

    mkdocs = build(project)
    assert mkdocs.returncode != 0 and not (project / "site" / "index.html").exists()
    lines = [ln for ln in (mkdocs.stdout + mkdocs.stderr).splitlines() if NEW in ln]
    assert lines and all(rel in ln and "draft: true" in ln for ln in lines), mkdocs.stdout + mkdocs.stderr

    for argv in (["render", "--publish", "--out", "pages"], ["build", "--publish", "--", "true"]):
        render = subprocess.run([str(BIN / "catalog-docs"), *argv], cwd=project, capture_output=True,
                                text=True, env=copy_env(project), timeout=120)
        assert render.returncode == 1, render.stdout + render.stderr
        assert render.stderr.count("\n") == 1 and NEW in render.stderr
        assert rel in render.stderr and "draft: true" in render.stderr
        assert not (project / "pages").exists() and not (project / "build").exists(), "a refused render wrote pages"

    # Checked: the line goes, and the strict build publishes the label.
    written.write_text(written.read_text(encoding="utf-8").replace("draft: true\n", ""), encoding="utf-8")
    assert build(project).returncode == 0
    assert (project / "site" / "versions" / written.stem / "index.html").is_file()


def test_the_preview_marks_drafts_on_every_page_escaped() -> None:
    page = '<!doctype html><html><body><p>page</p></body></html>'
    session = PreviewSession(dirty=False)
    try:
        session.drafts = ("<b>FAKE 9</b> (versions/FAKE-9.yaml)",)
        shown = session.with_banner(page)
        assert 'id="catalog-docs-drafts"' in shown and "Draft:" in shown
        assert "&lt;b&gt;FAKE 9&lt;/b&gt;" in shown and "<b>FAKE" not in shown
        session.drafts = ()
        assert session.with_banner(page) == page
    finally:
        session.close()
