"""Files planted in docs/ are data: a journal, a staging folder, a manifest or a symbolic link found there
never makes catalog-docs write or delete outside docs/, nor touch a hand-written file (issue 26, item 2).

The attack of the issue, replayed: a journal, a staging folder and two symbolic links to folders, planted in
docs/, made `catalog-docs render` and `mkdocs build` (through the hook's recovery) create an executable
.git/hooks/pre-commit, delete a file outside the checkout and delete docs/README.md. Now the recovery refuses
such a journal, as an error naming it, and touches nothing. Then the same contract as properties: planted
docs/ states (journals well-formed or garbled, with null or borrowed digests, paths with `..` or absolute,
staging folders full, empty or linked, links at every depth) and runs of render, clean, recovery and crashes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import GENERATED_ROOTS, MANIFEST
from catalog_docs.site import write
from catalog_docs.site.write import JOURNAL, STAGING_PREFIX, RecoveryRefused, recover, write_output
from fake_catalogs import write_catalog

ROOT = Path(__file__).resolve().parents[2]
STAGING = STAGING_PREFIX + "AAAAAAAA"
CATALOG = {"entries": ["/fakeAlpha", "/fakeBeta"], "labels": {"FAKE 1": {"PLAN A": "cu"}}}
HAND = {"README.md": b"# Hand-written notes\n", "guide/page.md": b"# A hand-written page\n"}
"""Hand-written files in docs/, outside the generated folders (mkdocs.yml and the README keep them there)."""
OUTSIDE = {"victim.txt": b"precious, outside the checkout\n", "hooks/pre-push": b"#!/bin/sh\n"}


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def snapshot(root: Path, *, skip: str | None = None) -> dict[str, tuple[str, bytes]]:
    """Every entry under root without following a link: kind, and bytes (files) or target (links)."""
    out: dict[str, tuple[str, bytes]] = {}
    for here, dirs, names in os.walk(root):
        if skip is not None and Path(here) == root and skip in dirs:
            dirs.remove(skip)
        for name in dirs + names:
            path = Path(here) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = ("link", str(path.readlink()).encode())
            elif path.is_dir():
                out[rel] = ("dir", b"")
            elif path.is_file():
                out[rel] = ("file", path.read_bytes() + oct(path.stat().st_mode).encode())
            else:
                out[rel] = ("special", b"")
    return out


def hand_written(docs: Path) -> dict[str, bytes | None]:
    return {rel: (docs / rel).read_bytes() if (docs / rel).is_file() else None for rel in HAND}


def site(tag: str) -> dict[str, str]:
    return {"index.md": f"# Home {tag}\n", "operations/fakeA.md": f"# A {tag}\n",
            "operations/deep/fakeB.md": f"# B {tag}\n", f"plans/{tag}.md": f"# plan {tag}\n"}


def lay_out(root: Path) -> Path:
    """A project folder: files outside docs/ (a victim, a .git/hooks folder) and docs/ with hand-written files."""
    for rel, data in OUTSIDE.items():
        (root / "outside" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "outside" / rel).write_bytes(data)
    (root / ".git" / "hooks").mkdir(parents=True)
    docs = root / "docs"
    for rel, data in HAND.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_bytes(data)
    return docs


def plant_the_issues_attack(root: Path, docs: Path, *, digests: bool) -> None:
    """The issue's plant: a journal, its staging folder, and links to .git/hooks and to a folder outside.
    `digests`: removals carry the right digests of the files they name (their bytes are no secret)."""
    staging = docs / STAGING
    (staging / "new" / "operations").mkdir(parents=True)
    (staging / "old").mkdir()
    hook = staging / "new" / "operations" / "pre-commit"
    hook.write_bytes(b"#!/bin/sh\necho planted\n")
    hook.chmod(0o755)
    shutil.rmtree(docs / "operations", ignore_errors=True)
    (docs / "operations").symlink_to(root / ".git" / "hooks")
    (docs / "plans").mkdir(exist_ok=True)
    (docs / "plans" / "out").symlink_to(root / "outside")
    remove = {"plans/out/victim.txt": OUTSIDE["victim.txt"], "README.md": HAND["README.md"],
              "guide/page.md": HAND["guide/page.md"]}
    manifest = {"files": ["operations/pre-commit"], "digests": {"operations/pre-commit": digest(hook.read_bytes())}}
    journal = {"generator": "catalog-docs render", "staging": STAGING, "replace": ["operations/pre-commit"],
               "remove": {rel: digest(data) if digests else None for rel, data in remove.items()},
               "manifest": json.dumps(manifest)}
    (docs / JOURNAL).write_text(json.dumps(journal), encoding="utf-8")


def _outside_docs(root: Path) -> dict[str, tuple[str, bytes]]:
    return snapshot(root, skip="docs")


@pytest.mark.parametrize("digests", [False, True])
def test_the_planted_journal_of_the_issue_is_refused_by_render(tmp_path: Path, digests: bool,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    catalog = write_catalog(tmp_path / "catalog", CATALOG)
    docs = lay_out(tmp_path)
    plant_the_issues_attack(tmp_path, docs, digests=digests)
    outside, inside = _outside_docs(tmp_path), snapshot(docs)
    code = cli.main(["render", "--catalog", str(catalog), "--out", str(docs)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{docs / JOURNAL}: refusing to complete the interrupted render" in err
    assert "nothing was changed" in err and "delete it" in err
    assert _outside_docs(tmp_path) == outside, "something outside docs/ changed"
    assert snapshot(docs) == inside, "a refused recovery touched docs/"
    assert not (tmp_path / ".git" / "hooks" / "pre-commit").exists()
    assert hand_written(docs) == HAND


@pytest.mark.parametrize("where", ["operations", "operations/deep", "operations/deep/er"])
def test_a_link_anywhere_on_the_way_to_a_journal_path_is_refused_and_named(tmp_path: Path, where: str) -> None:
    # A journal that names only generated paths, with its files staged and its digests right: the link on
    # the way is what it fails on.
    docs = lay_out(tmp_path)
    write_output(site("old"), docs)
    rel = "operations/deep/er/pre-commit"
    data = b"#!/bin/sh\necho planted\n"
    staged = docs / STAGING / "new" / rel
    staged.parent.mkdir(parents=True)
    staged.write_bytes(data)
    (docs / STAGING / "old").mkdir()
    shutil.rmtree(docs / where, ignore_errors=True)
    (docs / where).parent.mkdir(parents=True, exist_ok=True)
    (docs / where).symlink_to(tmp_path / ".git" / "hooks")
    manifest = {"files": [rel], "digests": {rel: digest(data)}}
    (docs / JOURNAL).write_text(json.dumps({"staging": STAGING, "replace": [rel], "remove": {},
                                            "manifest": json.dumps(manifest)}), encoding="utf-8")
    outside, inside = _outside_docs(tmp_path), snapshot(docs)
    with pytest.raises(RecoveryRefused, match=rf"{docs / where} is a symbolic link; nothing was changed"):
        recover(docs)
    assert (_outside_docs(tmp_path), snapshot(docs)) == (outside, inside)


@pytest.mark.parametrize("record", [JOURNAL, MANIFEST])
def test_a_planted_journal_or_manifest_of_any_size_is_refused_before_it_is_read(tmp_path: Path, record: str) -> None:
    docs = lay_out(tmp_path)
    write_output(site("old"), docs)
    with (docs / record).open("wb") as f:
        f.truncate(write.MAX_RECORD_BYTES + 1)  # sparse: the size a reader would load, with no disk used
    inside = snapshot(docs)
    with pytest.raises(CatalogDocsError, match=r"larger than any journal|more than catalog-docs writes"):
        write_output(site("new"), docs)
    assert snapshot(docs) == inside


@pytest.mark.parametrize("case", ["no staging folder", "staging is a link", "file missing", "file differs",
                                  "null digest", "replaces a hand-written file"])
def test_a_journal_whose_staging_folder_does_not_prove_it_is_refused(tmp_path: Path, case: str) -> None:
    docs = lay_out(tmp_path)
    write_output(site("old"), docs)
    (docs / "plans" / "notes.md").write_bytes(b"# notes\n")  # hand-written, inside a generated folder
    staging = docs / STAGING
    rel = "plans/notes.md" if case == "replaces a hand-written file" else "operations/fakeA.md"
    data = b"# A planted\n"
    (staging / "new" / Path(rel).parent).mkdir(parents=True)
    (staging / "old").mkdir()
    if case != "file missing":
        (staging / "new" / rel).write_bytes(b"# other bytes\n" if case == "file differs" else data)
    if case == "no staging folder":
        shutil.rmtree(staging)
    if case == "staging is a link":
        shutil.move(staging, tmp_path / "outside" / "staged")
        staging.symlink_to(tmp_path / "outside" / "staged")
    remove = {"plans/old.md": None} if case == "null digest" else {}
    manifest = {"files": [rel], "digests": {rel: digest(data)}}
    (docs / JOURNAL).write_text(json.dumps({"staging": STAGING, "replace": [rel], "remove": remove,
                                            "manifest": json.dumps(manifest)}), encoding="utf-8")
    outside, inside = _outside_docs(tmp_path), snapshot(docs)
    with pytest.raises(RecoveryRefused, match=r"refusing to complete the interrupted render it records: .*; nothing"):
        recover(docs)
    assert (_outside_docs(tmp_path), snapshot(docs)) == (outside, inside)


def test_a_completed_planted_journal_is_overwritten_by_the_render(tmp_path: Path) -> None:
    # A journal can pass every check (a generated page staged with its digest, replacing a generated page):
    # recovery completes it, and the render that follows does not trust its fingerprint but renders.
    from catalog_docs.site.incremental import render_if_changed

    catalog = write_catalog(tmp_path / "catalog", CATALOG)
    docs = tmp_path / "docs"
    assert render_if_changed(catalog, docs) is not None
    good = {p: (docs / p).read_bytes() for p in json.loads((docs / MANIFEST).read_text(encoding="utf-8"))["files"]}
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    planted = b"<script>planted</script>\n"
    manifest["digests"]["index.md"] = digest(planted)
    (docs / STAGING / "new").mkdir(parents=True)
    (docs / STAGING / "old").mkdir()
    (docs / STAGING / "new" / "index.md").write_bytes(planted)
    (docs / JOURNAL).write_text(json.dumps({"staging": STAGING, "replace": ["index.md"], "remove": {},
                                            "manifest": json.dumps(manifest)}), encoding="utf-8")
    assert render_if_changed(catalog, docs) is not None
    assert {p: (docs / p).read_bytes() for p in good} == good


def test_the_render_writes_only_under_the_generated_roots_which_gitignore_lists() -> None:
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.site.render import render_pages

    pages = render_pages(load_catalog(ROOT / "tests" / "fixture-catalog"))
    assert {rel.split("/", 1)[0] for rel in pages} <= GENERATED_ROOTS
    ignored = {line.removeprefix("/docs/").rstrip("/") for line in (ROOT / ".gitignore").read_text().splitlines()
               if line.startswith("/docs/") and "*" not in line and MANIFEST not in line}
    assert ignored == GENERATED_ROOTS


def test_a_planted_manifest_does_not_hide_hand_written_edits_from_the_preview(tmp_path: Path) -> None:
    from catalog_docs.site.preview import generated_roots

    (tmp_path / MANIFEST).write_text(json.dumps({"files": ["README.md", "guide/page.md", "operations/a.md",
                                                           "index.md"]}), encoding="utf-8")
    assert generated_roots(tmp_path) == {"operations", "index.md"}


# --- properties --------------------------------------------------------------------------------------------

PATHS = ["operations/fakeA.md", "operations/deep/fakeB.md", "plans/old.md", "plans/new.md", "index.md",
         "operations/link/victim.txt", "plans/out/victim.txt", "operations/pre-commit", "README.md",
         "guide/page.md", "../outside/victim.txt", "/etc/hostname", "operations/../../outside/victim.txt",
         "operations//x.md", "./index.md", "out/victim.txt"]
LINKS = ["operations", "operations/deep", "operations/link", "plans", "plans/out", "out", STAGING,
         f"{STAGING}/new", f"{STAGING}/new/operations", f"{STAGING}/old", f"{STAGING}/old/plans"]
CONTENTS = [b"# planted\n", *HAND.values(), *OUTSIDE.values(), *(t.encode() for t in site("old").values())]

paths = st.sampled_from(PATHS)
digests = st.one_of(st.none(), st.just("not a digest"), st.sampled_from(CONTENTS).map(digest))


@st.composite
def manifests(draw: st.DrawFn) -> str:
    files = draw(st.lists(paths, max_size=4, unique=True))
    return json.dumps({"files": files, "digests": {f: draw(digests) for f in files}})


garbled_journals = st.one_of(st.binary(max_size=40).map(lambda b: b.decode("latin-1")), st.just("null"),
                             st.just('{"staging": "../outside", "replace": [], "remove": {}, "manifest": ""}'))


@st.composite
def journals(draw: st.DrawFn, staged: list[tuple[str, str, bytes]]) -> str:
    """A journal in the writer's shape. Half name the staging folder and the files planted in it, with their
    true digests (journals that pass the staging checks, to reach the checks after them)."""
    coherent = draw(st.booleans())
    new = {rel: data for side, rel, data in staged if side == "new"}
    replace = list(new) if coherent else draw(st.lists(paths, max_size=3))
    files = {rel: digest(new[rel]) if coherent and rel in new else draw(digests) for rel in replace}
    files.update({rel: draw(digests) for rel in draw(st.lists(paths, max_size=2))})
    return json.dumps({
        "generator": "catalog-docs render",
        "staging": STAGING if coherent else draw(st.sampled_from([STAGING, ".catalog-docs-staging-BBBBBBBB"])),
        "replace": replace,
        "remove": draw(st.dictionaries(paths, digests, max_size=3)),
        "manifest": json.dumps({"files": sorted(files), "digests": files}),
    })


@st.composite
def planted_states(draw: st.DrawFn) -> dict[str, Any]:
    staged = draw(st.lists(st.tuples(st.sampled_from(["new", "new", "old"]), paths, st.sampled_from(CONTENTS)),
                           max_size=3, unique_by=lambda t: t[:2]))
    kind = draw(st.sampled_from(["none", "garbled", "shaped", "shaped", "shaped"]))
    journal = {"none": st.none(), "garbled": garbled_journals}.get(kind, journals(staged))
    return {
        "rendered": draw(st.booleans()),
        "links": draw(st.lists(st.tuples(st.sampled_from(LINKS), st.sampled_from(["outside", ".git/hooks"])),
                               max_size=3, unique_by=lambda t: t[0])),
        "staged": staged,
        "journal": draw(journal),
        "manifest": draw(st.none() | manifests()),
    }


def _plant(root: Path, docs: Path, state: dict[str, Any]) -> None:
    """Make the drawn docs/ state; a step the state makes impossible (a file where a folder goes) is skipped."""
    if state["rendered"]:
        write_output(site("old"), docs)
    if state["manifest"] is not None:
        (docs / MANIFEST).write_text(state["manifest"], encoding="utf-8")
    for where, target in state["links"]:
        link = docs / where
        with suppress(OSError):
            if link.is_dir() and not link.is_symlink():
                shutil.rmtree(link)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(root / target)
    for side, rel, data in state["staged"]:
        path = docs / STAGING / side / rel
        if "/../" not in f"/{rel}/" and not rel.startswith("/"):
            with suppress(OSError):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    if state["journal"] is not None:
        (docs / JOURNAL).write_text(state["journal"], encoding="utf-8")


ACTIONS: dict[str, Callable[[Path], object]] = {
    "render": lambda docs: write_output(site("new"), docs),
    "clean": lambda docs: write_output({}, docs),
    "recover": recover,
}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=planted_states(), action=st.sampled_from(sorted(ACTIONS)))
def test_no_planted_docs_state_reaches_outside_docs_or_a_hand_written_file(state: dict[str, Any], action: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        docs = lay_out(root)
        _plant(root, docs, state)
        outside, inside, hand = _outside_docs(root), snapshot(docs), hand_written(docs)
        error = _error_of(lambda: ACTIONS[action](docs))
        assert "\n" not in error, "an error of more than one line"
        if error.startswith(str(docs / JOURNAL)):
            assert snapshot(docs) == inside, "a refused recovery touched docs/"
        assert _outside_docs(root) == outside, "something outside docs/ changed"
        assert hand_written(docs) == hand, "a hand-written file was touched"


def _error_of(action: Callable[[], object]) -> str:
    """The message of the CatalogDocsError the action raises ("" when it raises none; anything else fails)."""
    try:
        action()
    except CatalogDocsError as exc:
        return str(exc)
    return ""


class Crash(BaseException):
    """A kill at a rename: no handler of the writer catches it, as none runs after SIGKILL."""


STEPS = st.lists(st.one_of(st.sampled_from(["render old", "render new", "clean", "recover"]),
                           st.tuples(st.sampled_from(["render old", "render new", "clean"]),
                                     st.integers(min_value=1, max_value=12))),
                 min_size=1, max_size=5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=planted_states(), steps=STEPS)
def test_any_run_of_renders_cleans_recoveries_and_crashes_keeps_hand_written_files(
        state: dict[str, Any], steps: list[str | tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        docs = lay_out(root)
        _plant(root, docs, state)
        outside, hand = _outside_docs(root), hand_written(docs)
        for step in steps:
            name, crash_at = (step, None) if isinstance(step, str) else step
            _run_step(docs, name, crash_at)
            assert _outside_docs(root) == outside, f"something outside docs/ changed at {step}"
            assert hand_written(docs) == hand, f"a hand-written file was touched at {step}"


def _run_step(docs: Path, name: str, crash_at: int | None) -> None:
    files = {"render old": site("old"), "render new": site("new"), "clean": {}}.get(name)
    real, count = os.replace, [0]

    def replace(a: Any, b: Any) -> None:
        count[0] += 1
        if count[0] == crash_at:
            raise Crash
        real(a, b)

    write.os.replace = replace  # type: ignore[assignment]  # a kill at the crash_at-th rename
    try:
        if files is None:
            recover(docs)
        else:
            write_output(files, docs)
    except (CatalogDocsError, Crash):
        pass
    finally:
        write.os.replace = real  # type: ignore[assignment]
        write._WRITTEN.clear()  # a crashed process forgets what it wrote


# --- the same through `mkdocs build` (the hook's recovery) ---------------------------------------------------


@pytest.mark.site
def test_the_planted_journal_of_the_issue_stops_mkdocs_build_with_one_line(tmp_path: Path) -> None:
    from sitebuild import build, copy_project

    project = copy_project(tmp_path / "project", ROOT / "tests" / "fixture-catalog")
    docs = project / "docs"
    for rel, data in HAND.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_bytes(data)
    for rel, data in OUTSIDE.items():
        (tmp_path / "outside" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "outside" / rel).write_bytes(data)
    (project / ".git" / "hooks").mkdir(parents=True)
    plant_the_issues_attack(project, docs, digests=True)
    (docs / "plans" / "out").unlink()
    (docs / "plans" / "out").symlink_to(tmp_path / "outside")  # outside the checkout itself
    (project / "site").mkdir()  # the hook makes it (and proves it writable) before it renders
    outside, inside = _outside_docs(tmp_path), snapshot(docs)
    result = build(project)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    refusal = [line for line in result.stderr.splitlines() if str(docs / JOURNAL) in line]
    assert len(refusal) == 1 and "refusing to complete the interrupted render" in refusal[0], result.stderr
    assert "delete it" in refusal[0]
    assert _outside_docs(tmp_path) == outside and snapshot(docs) == inside
    assert not (project / ".git" / "hooks" / "pre-commit").exists()
