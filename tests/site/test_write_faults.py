"""Fault injection for the safe writer (catalog_docs.site.write): whatever goes wrong while docs/ is written,
docs/ ends byte for byte as it was, or (after a crash) the next render completes the interrupted one.

Covered: docs is a file; a read-only or permission-denied folder (the whole of docs/, or one generated
folder, so the swap fails half way and must be rolled back); a full disk (a tiny tmpfs in a private mount
namespace where the machine allows one, and an injected ENOSPC at every write of the stage); a fault at
every step of the swap; SIGKILL at every step of the swap and at random moments, each followed by the next
render; two renders racing on the same folder; symbolic links, folders and pipes at generated paths; the
manifest claiming files the writer did not write; leftover staging folders.

The writer is driven with small made-up file sets (paths and bytes only), never the real catalogue.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from catalog_docs import cli
from catalog_docs.errors import CatalogDocsError
from catalog_docs.layout import MANIFEST
from catalog_docs.site import write
from catalog_docs.site.write import JOURNAL, recover, write_output
from fake_catalogs import write_catalog

SCRIPTS = Path(write.__file__).resolve().parents[1]


def old_site(n: int = 40) -> dict[str, str]:
    """A first render: an index, n operation pages in a folder, a page that the second render drops."""
    files = {"index.md": "# Old home\n", "operations/index.md": "# Old operations\n",
             "downloads/catalog.json": '{"old": true}\n', "plans/gone.md": "# A plan that disappears\n"}
    files.update({f"operations/fakeOp{i}.md": f"# fakeOp{i} old\n" for i in range(n)})
    return files


def new_site(n: int = 40) -> dict[str, str]:
    """A second render: every kept page changed, a new folder, one page gone."""
    files = {"index.md": "# New home\n", "operations/index.md": "# New operations\n",
             "downloads/catalog.json": '{"new": true}\n', "compare/A...B.md": "# Compare\n"}
    files.update({f"operations/fakeOp{i}.md": f"# fakeOp{i} new\n" for i in range(n)})
    files.update({f"operations/fakeNew{i}.md": f"# fakeNew{i}\n" for i in range(5)})
    return files


def tree(root: Path) -> dict[str, bytes]:
    """Every entry under root, byte for byte (folders as b'<dir>', links as their target), hidden included."""
    out: dict[str, bytes] = {}
    for here, dirs, names in os.walk(root):
        for name in dirs + names:
            path = Path(here) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = b"-> " + str(path.readlink()).encode()
            elif path.is_dir():
                out[rel] = b"<dir>"
            elif not path.is_file():
                out[rel] = b"<special>"  # a pipe: never opened (it would block)
            else:
                out[rel] = path.read_bytes()
    return out


def visible(root: Path) -> dict[str, str]:
    """The files a site builder would publish (hidden files and folders are skipped by mkdocs)."""
    return {rel: data.decode() for rel, data in tree(root).items()
            if data not in (b"<dir>", b"<special>") and not any(p.startswith(".") for p in rel.split("/"))}


def assert_clean(docs: Path, expected: dict[str, str]) -> None:
    """docs/ holds exactly `expected`, a manifest listing it, no journal and no staging folder."""
    assert visible(docs) == expected
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["files"] == sorted(expected)
    hidden = sorted(p.name for p in docs.iterdir() if p.name.startswith("."))
    assert hidden == [MANIFEST], f"leftovers: {hidden}"


# --- the output folder itself ------------------------------------------------------------------------------


def test_docs_is_a_file(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.write_bytes(b"not a folder")
    with pytest.raises(CatalogDocsError) as info:
        write_output(new_site(), docs)
    message = str(info.value)
    assert "\n" not in message and str(docs) in message and "a file is there, not a folder" in message
    assert docs.read_bytes() == b"not a folder"


def test_a_parent_of_docs_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "site-src").write_bytes(b"x")
    docs = tmp_path / "site-src" / "docs"
    with pytest.raises(CatalogDocsError,
                       match=r"^cannot create .*site-src/docs: Not a directory; nothing was changed$"):
        write_output(new_site(), docs)


def _cli_catalog(tmp_path: Path) -> Path:
    return write_catalog(tmp_path / "catalog", {"entries": ["/fakeAlpha", "/fakeBeta"],
                                                "labels": {"FAKE 1": {"PLAN A": "cu"}}})


def test_the_cli_prints_one_line_when_docs_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = _cli_catalog(tmp_path)
    docs = tmp_path / "docs"
    docs.write_bytes(b"not a folder")
    code = cli.main(["render", "--catalog", str(catalog), "--out", str(docs)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and str(docs) in err and "Traceback" not in err, err
    assert docs.read_bytes() == b"not a folder"


# --- permissions: a child process without root's override --------------------------------------------------


def _unprivileged() -> list[str]:
    """A command prefix under which permission bits apply: as root (CI), the child loses the capabilities
    that override them (root still owns the files, so a 0o555 folder is read-only to it too)."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: permission bits cannot be made to apply")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def _run_writer(docs: Path, files: dict[str, str], *, unprivileged: bool, extra: str = "",
                timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run write_output(files, docs) in a child; it prints {"ok": files written} or {"error": message}."""
    spec = docs.parent / f"files-{os.getpid()}-{time.monotonic_ns()}.json"
    spec.write_text(json.dumps(files), encoding="utf-8")
    code = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(SCRIPTS)!r})
        from pathlib import Path
        from catalog_docs.site import write
        from catalog_docs.errors import CatalogDocsError
        {extra}
        files = json.loads(Path({str(spec)!r}).read_text(encoding="utf-8"))
        try:
            r = write.write_output(files, Path({str(docs)!r}))
            print(json.dumps({{"ok": len(r.written)}}))
        except CatalogDocsError as exc:
            print(json.dumps({{"error": str(exc)}}))
    """)
    prefix = _unprivileged() if unprivileged else []
    return subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)


def _restore_modes(root: Path) -> None:
    for here, dirs, _ in os.walk(root):
        for d in dirs:
            (Path(here) / d).chmod(0o755)


@pytest.mark.parametrize("locked", ["docs", "docs/operations", "docs/downloads"])
def test_a_read_only_folder_leaves_docs_byte_identical(tmp_path: Path, locked: str) -> None:
    """docs/ read-only stops the stage; one read-only generated folder stops the swap half way, after
    files in other folders were already moved in: they are all put back."""
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (tmp_path / locked).chmod(0o555)
    try:
        before = tree(docs)
        result = _run_writer(docs, new_site(), unprivileged=True)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        answer = json.loads(result.stdout)
        assert "error" in answer, answer
        assert "\n" not in answer["error"] and "Permission denied" in answer["error"], answer
        assert str(tmp_path / locked) in answer["error"] and "nothing was changed" in answer["error"], answer
        assert tree(docs) == before
    finally:
        _restore_modes(tmp_path)


def test_permission_denied_on_a_stale_page_leaves_docs_byte_identical(tmp_path: Path) -> None:
    """A stale page the writer may not remove (its folder is read-only): the render fails after every new
    page was moved in, and every one of them goes back."""
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / "plans").chmod(0o555)
    try:
        before = tree(docs)
        result = _run_writer(docs, new_site(), unprivileged=True)
        answer = json.loads(result.stdout)
        assert "Permission denied" in answer.get("error", ""), (answer, result.stderr)
        assert "plans/gone.md" in answer["error"] and "nothing was changed" in answer["error"]
        assert tree(docs) == before
    finally:
        _restore_modes(tmp_path)


def test_an_unreadable_generated_page_is_reported_before_anything_is_written(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / "operations" / "fakeOp5.md").chmod(0o000)
    before = tree(docs)
    result = _run_writer(docs, new_site(), unprivileged=True)
    answer = json.loads(result.stdout)
    assert answer.get("error", "").startswith(f"cannot read {docs / 'operations' / 'fakeOp5.md'}: Permission denied")
    assert tree(docs) == before


# --- a full disk --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fail_at", [0, 1, 7, 30, 48, 49, 50])
def test_injected_enospc_at_any_staged_write_leaves_docs_byte_identical(tmp_path: Path, fail_at: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new file, the manifest and the journal are written through one function; the disk fills up
    at write number fail_at + 1 (49 pages are staged, then the manifest, then the journal)."""
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    before = tree(docs)
    real_put = write._put
    calls = []

    def put(path: Path, data: bytes) -> None:
        calls.append(path)
        if len(calls) > fail_at:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real_put(path, data)

    monkeypatch.setattr(write, "_put", put)
    with pytest.raises(CatalogDocsError) as info:
        write_output(new_site(), docs)
    message = str(info.value)
    assert "No space left on device" in message and "nothing was changed" in message and "\n" not in message
    assert str(docs) in message and ".catalog-docs-staging" not in message, "name the page, not the staging folder"
    assert tree(docs) == before
    monkeypatch.setattr(write, "_put", real_put)
    write_output(new_site(), docs)
    assert_clean(docs, new_site())


def _can_mount_tmpfs() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_tmpfs(), reason="no private mount namespace here (unshare -rm)")
def test_a_full_tmpfs_leaves_docs_byte_identical(tmp_path: Path) -> None:
    """A real full disk: docs/ on a 512 KB tmpfs in a private mount namespace; the second render needs
    more than is left. Inside the namespace, the child compares docs/ before and after."""
    mount = tmp_path / "mnt"
    mount.mkdir()
    big = {f"operations/fakeBig{i}.md": f"# fakeBig{i}\n" + "x" * 60_000 + "\n" for i in range(12)}
    child = textwrap.dedent(f"""
        import hashlib, json, os, sys
        sys.path.insert(0, {str(SCRIPTS)!r})
        from pathlib import Path
        from catalog_docs.site.write import write_output
        from catalog_docs.errors import CatalogDocsError
        docs = Path({str(mount)!r}) / "docs"
        def tree():
            out = {{}}
            for here, dirs, names in os.walk(docs):
                for n in dirs + names:
                    p = Path(here) / n
                    out[str(p.relative_to(docs))] = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
            return out
        write_output(json.loads({json.dumps(json.dumps(old_site()))}), docs)
        before = tree()
        try:
            write_output({{**json.loads({json.dumps(json.dumps(new_site()))}),
                          **json.loads({json.dumps(json.dumps(big))})}}, docs)
            print(json.dumps({{"error": None}}))
        except CatalogDocsError as exc:
            print(json.dumps({{"error": str(exc), "same": tree() == before}}))
    """)
    script = tmp_path / "child.py"
    script.write_text(child, encoding="utf-8")
    result = subprocess.run(["unshare", "-rm", "sh", "-c",
                             f"mount -t tmpfs -o size=512k tmpfs {mount} && {sys.executable} {script}"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    answer = json.loads(result.stdout)
    assert answer["error"] is not None, "the disk was not full: make the pages bigger"
    assert "No space left on device" in answer["error"] and "\n" not in answer["error"], answer
    assert answer["same"], "docs/ changed although the render failed"


# --- a fault at every step of the swap ----------------------------------------------------------------------


def _count_replaces(tmp_path: Path, n: int = 40) -> int:
    docs = tmp_path / "count"
    write_output(old_site(n), docs)
    calls = []
    real = os.replace
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(write.os, "replace", lambda a, b: (calls.append(a), real(a, b)))
        write_output(new_site(n), docs)
    shutil.rmtree(docs)
    return len(calls)


def test_a_fault_at_every_step_of_the_swap_is_rolled_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    steps = _count_replaces(tmp_path, 8)
    # The journal; 17 pages in, 11 old ones aside; a stale page; the manifest, the old one aside.
    assert steps == 1 + (17 + 11) + 1 + 2
    real = os.replace
    for fail_at in range(1, steps):  # 0 is the journal itself: covered by the ENOSPC test
        docs = tmp_path / f"docs{fail_at}"
        write_output(old_site(8), docs)
        before = tree(docs)
        calls: list[object] = []

        def replace(a: object, b: object, calls: list[object] = calls, fail_at: int = fail_at) -> None:
            calls.append(a)
            if len(calls) == fail_at + 1:
                raise OSError(errno.EIO, os.strerror(errno.EIO), str(a))
            real(a, b)

        monkeypatch.setattr(write.os, "replace", replace)
        with pytest.raises(CatalogDocsError, match=r"Input/output error; nothing was changed$"):
            write_output(new_site(8), docs)
        monkeypatch.setattr(write.os, "replace", real)
        assert tree(docs) == before, f"fault at step {fail_at} of the swap was not rolled back"
        write_output(new_site(8), docs)
        assert_clean(docs, new_site(8))


# --- crashes: SIGKILL during the swap -------------------------------------------------------------------


def _kill_at_rename(kill_at: int) -> str:
    """Code for a child process: it kills itself with SIGKILL at the writer's kill_at-th rename (the journal
    is the 1st)."""
    return textwrap.dedent(f"""
        import os, signal
        from catalog_docs.site import write
        _real, _n = os.replace, [0]
        def _replace(a, b):
            _n[0] += 1
            if _n[0] == {kill_at}:
                os.kill(os.getpid(), signal.SIGKILL)
            _real(a, b)
        write.os.replace = _replace
    """)


def _killed_writer(docs: Path, files: dict[str, str], kill_at: int) -> subprocess.CompletedProcess[str]:
    """A child that renders and kills itself with SIGKILL at its kill_at-th rename (the journal is the 1st)."""
    extra = _kill_at_rename(kill_at).replace("\n", "\n        ")  # into _run_writer's indented code
    return _run_writer(docs, files, unprivileged=False, extra=extra)


def test_sigkill_at_every_step_of_the_swap_then_the_next_render_completes_it(tmp_path: Path) -> None:
    steps = _count_replaces(tmp_path)
    points = sorted({1, 2, 3, steps - 1, steps, *random.Random(13).sample(range(1, steps + 1), 12)})
    for kill_at in points:
        docs = tmp_path / f"docs{kill_at}"
        write_output(old_site(), docs)
        result = _killed_writer(docs, new_site(), kill_at)
        assert result.returncode == -signal.SIGKILL, result.stderr
        # What the next build does first (the mkdocs hook and `catalog-docs render` both call recover):
        recover(docs)
        assert visible(docs) in (old_site(), new_site()), f"a mix was left after a kill at step {kill_at}"
        if kill_at > 1:
            assert visible(docs) == new_site(), "a journal was written: the swap must be completed"
        write_output(new_site(), docs)
        assert_clean(docs, new_site())


def test_sigkill_at_random_moments_then_the_next_build_publishes_one_consistent_site(tmp_path: Path) -> None:
    """Kills by the clock, not by instrumentation: the child renders 1,000 pages; it is killed after a
    random delay within the time an uninterrupted render takes."""
    many_old = {f"operations/fakeOp{i}.md": f"# fakeOp{i} old\n" * 20 for i in range(1000)}
    many_new = {f"operations/fakeOp{i}.md": f"# fakeOp{i} new\n" * 20 for i in range(1000)}
    docs = tmp_path / "timing"
    write_output(many_old, docs)
    started = time.monotonic()
    assert json.loads(_run_writer(docs, many_new, unprivileged=False).stdout) == {"ok": 1000}
    full = time.monotonic() - started
    rng = random.Random(7)
    for attempt in range(3):
        docs = tmp_path / f"docs{attempt}"
        write_output(many_old, docs)
        spec = tmp_path / "many.json"
        spec.write_text(json.dumps(many_new), encoding="utf-8")
        child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
            import json, sys
            sys.path.insert(0, {str(SCRIPTS)!r})
            from pathlib import Path
            from catalog_docs.site.write import write_output
            write_output(json.loads(Path({str(spec)!r}).read_text()), Path({str(docs)!r}))
        """)])
        time.sleep(rng.uniform(0.1, full))
        child.send_signal(signal.SIGKILL)
        child.wait()
        recover(docs)
        assert visible(docs) in (many_old, many_new), f"a mix was left (attempt {attempt})"
        write_output(many_new, docs)
        assert_clean(docs, many_new)


def test_the_render_fingerprint_does_not_hide_an_interrupted_render(tmp_path: Path) -> None:
    """A kill right after the journal: no page changed yet, so the pages' signature still matches the
    manifest; `render` must complete the swap rather than answer 'nothing changed'."""
    from catalog_docs.site.incremental import render_if_changed

    catalog = _cli_catalog(tmp_path)
    docs = tmp_path / "docs"
    assert render_if_changed(catalog, docs) is not None
    rendered = visible(docs)
    assert render_if_changed(catalog, docs) is None
    changed = {rel: text + "<!-- killed -->\n" for rel, text in rendered.items()}
    result = _killed_writer(docs, changed, 2)
    assert result.returncode == -signal.SIGKILL
    assert (docs / JOURNAL).exists()
    render_if_changed(catalog, docs)
    assert not (docs / JOURNAL).exists()
    assert visible(docs) == rendered


# --- two renders at once ------------------------------------------------------------------------------------


def test_two_renders_racing_on_one_folder_leave_one_whole_site(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    a = {f"operations/fakeOp{i}.md": f"# A {i}\n" * 30 for i in range(800)} | {"index.md": "# A\n"}
    b = {f"operations/fakeOp{i}.md": f"# B {i}\n" * 30 for i in range(0, 800, 2)} | {"index.md": "# B\n",
                                                                                  "plans/fakeB.md": "# B\n"}
    specs = []
    for name, files in (("a", a), ("b", b)):
        specs.append(tmp_path / f"{name}.json")
        specs[-1].write_text(json.dumps(files), encoding="utf-8")
    for round_ in range(3):
        children = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
            import json, sys
            sys.path.insert(0, {str(SCRIPTS)!r})
            from pathlib import Path
            from catalog_docs.site.write import write_output
            files = json.loads(Path({str(spec)!r}).read_text(encoding="utf-8"))
            for _ in range(3):
                write_output(files, Path({str(docs)!r}))
        """)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for spec in specs]
        outs = [c.communicate(timeout=300) for c in children]
        for child, (_, err) in zip(children, outs, strict=True):
            assert child.returncode == 0 and "Traceback" not in err, err
        final = visible(docs)
        assert final in (a, b), f"round {round_}: the two renders mixed their pages"
        assert_clean(docs, final)


def test_a_second_writer_waits_for_the_first(tmp_path: Path) -> None:
    import fcntl

    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    fd = os.open(docs, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    spec = tmp_path / "new.json"
    spec.write_text(json.dumps(new_site()), encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(SCRIPTS)!r})
        from pathlib import Path
        from catalog_docs.site.write import write_output
        write_output(json.loads(Path({str(spec)!r}).read_text()), Path({str(docs)!r}))
    """)])
    try:
        time.sleep(1.0)
        assert child.poll() is None, "the second writer did not wait for the lock"
        assert visible(docs) == old_site()
    finally:
        os.close(fd)
    assert child.wait(timeout=60) == 0
    assert_clean(docs, new_site())


# --- links, folders and special files at generated paths ---------------------------------------------------


@pytest.mark.parametrize("where", ["inside", "outside", "dangling"])
def test_a_symlink_at_a_generated_path_is_never_written_through(tmp_path: Path, where: str) -> None:
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / "assets").mkdir()
    mine = {"inside": docs / "assets" / "mine.md", "outside": tmp_path / "outside.md",
            "dangling": tmp_path / "nowhere" / "x.md"}[where]
    if where != "dangling":
        mine.write_bytes(b"# Mine\n")
    link = docs / "operations" / "fakeOp3.md"
    link.unlink()
    link.symlink_to(mine)
    before, outside_before = tree(docs), mine.read_bytes() if mine.exists() else None
    with pytest.raises(CatalogDocsError,
                       match=r"fakeOp3\.md \(a symbolic link; catalog-docs never writes through one\)"):
        write_output(new_site(), docs)
    assert tree(docs) == before
    assert (mine.read_bytes() if mine.exists() else None) == outside_before


@pytest.mark.parametrize("where", ["generated folder", "nested"])
def test_a_symlinked_generated_folder_is_refused(tmp_path: Path, where: str) -> None:
    docs = tmp_path / "docs"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "fakeOp1.md").write_bytes(b"# Someone else's\n")
    docs.mkdir()
    if where == "generated folder":
        (docs / "operations").symlink_to(elsewhere)
    else:
        (docs / "compare").mkdir()
        (docs / "operations").mkdir()
        (docs / "operations" / "sub").symlink_to(elsewhere)
    files = {"operations/fakeOp1.md": "# generated\n", "operations/sub/x.md": "# generated\n",
             "compare/A...B.md": "# c\n"}
    before = tree(docs)
    with pytest.raises(CatalogDocsError, match=r"a symbolic link where catalog-docs writes a folder"):
        write_output(files, docs)
    assert tree(docs) == before
    assert (elsewhere / "fakeOp1.md").read_bytes() == b"# Someone else's\n"


def test_a_link_or_pipe_inside_a_generated_folder_is_a_stray(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / "operations" / "linked.md").symlink_to(tmp_path / "nowhere.md")
    os.mkfifo(docs / "operations" / "pipe.md")
    (docs / "operations" / "folder-link").symlink_to(tmp_path)
    before = tree(docs)
    with pytest.raises(CatalogDocsError, match=r"inside folders that catalog-docs generates") as info:
        write_output(new_site(), docs)
    for name in ("linked.md", "pipe.md", "folder-link"):
        assert f"operations/{name}" in str(info.value)
    assert tree(docs) == before


@pytest.mark.parametrize("thing", ["folder", "fifo"])
def test_a_folder_or_pipe_at_a_generated_path_is_refused(tmp_path: Path, thing: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    if thing == "folder":
        (docs / "index.md").mkdir()
    else:
        os.mkfifo(docs / "index.md")
    before = tree(docs) if thing == "folder" else None
    with pytest.raises(CatalogDocsError, match=r"index\.md \(a (folder|special file)"):
        write_output(new_site(), docs)
    if before is not None:
        assert tree(docs) == before
    assert sorted(p.name for p in docs.iterdir()) == ["index.md"]


# --- never delete a file it did not write ------------------------------------------------------------------


def test_a_stale_page_changed_by_hand_is_not_deleted(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / "plans" / "gone.md").write_text("# My notes, kept here\n", encoding="utf-8")
    before = tree(docs)
    with pytest.raises(CatalogDocsError, match=r"plans/gone\.md; catalog-docs removes only what it wrote"):
        write_output(new_site(), docs)
    assert tree(docs) == before


@pytest.mark.parametrize(("rel", "refusal"), [
    ("plans/notes.md", r"plans/notes\.md; catalog-docs removes only what it wrote"),
    ("about.md", r"manifest is damaged \(it lists 'about\.md', which catalog-docs never writes\)"),
])
def test_a_manifest_claiming_a_hand_written_file_does_not_get_it_deleted(tmp_path: Path, rel: str,
                                                                         refusal: str) -> None:
    # Inside a generated folder the digest tells; outside them (docs/about.md) no manifest can claim a file.
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / rel).write_text("# About us\n", encoding="utf-8")
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"].append(rel)
    manifest["digests"][rel] = hashlib.blake2b(b"something else", digest_size=16).hexdigest()
    (docs / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(CatalogDocsError, match=refusal):
        write_output(new_site(), docs)
    assert (docs / rel).read_text(encoding="utf-8") == "# About us\n"


def test_a_manifest_claiming_a_hand_written_file_with_its_digest_cannot_have_it_deleted(tmp_path: Path) -> None:
    # The bytes of docs/README.md are no secret: a planted manifest can record their digest. It still names a
    # file outside the generated folders, so it is refused and the file stays.
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / "README.md").write_bytes(b"# Hand-written\n")
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"].append("README.md")
    manifest["digests"]["README.md"] = hashlib.blake2b(b"# Hand-written\n", digest_size=16).hexdigest()
    (docs / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    before = tree(docs)
    for files in (new_site(), {}):  # a render, then `catalog-docs clean`
        with pytest.raises(CatalogDocsError, match=r"'README\.md', which catalog-docs never writes"):
            write_output(files, docs)
        assert tree(docs) == before


def test_a_stale_page_replaced_by_a_link_is_not_followed_or_deleted(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    target = tmp_path / "precious.md"
    target.write_bytes(b"# precious\n")
    (docs / "plans" / "gone.md").unlink()
    (docs / "plans" / "gone.md").symlink_to(target)
    with pytest.raises(CatalogDocsError, match=r"gone\.md \(listed as generated, but now a symbolic link\)"):
        write_output(new_site(), docs)
    assert (docs / "plans" / "gone.md").is_symlink() and target.read_bytes() == b"# precious\n"


def test_a_manifest_older_than_digests_does_not_get_its_stale_pages_deleted(tmp_path: Path) -> None:
    # Without a digest nothing proves the bytes there are the ones catalog-docs wrote: the render names them
    # and stops; once they are gone (deleted by hand), it goes on.
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    del manifest["digests"]
    (docs / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    before = tree(docs)
    with pytest.raises(CatalogDocsError, match=r"without a digest, so nothing proves catalog-docs wrote them: "
                                               r".*plans/gone\.md; delete them if they are old generated pages"):
        write_output(new_site(), docs)
    assert tree(docs) == before
    (docs / "plans" / "gone.md").unlink()
    assert write_output(new_site(), docs).removed == ()
    assert_clean(docs, new_site())


@pytest.mark.parametrize("manifest", ["link", "folder"])
def test_a_manifest_that_is_not_a_regular_file_is_refused(tmp_path: Path, manifest: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    if manifest == "link":
        planted = tmp_path / "planted.json"
        planted.write_text(json.dumps({"files": ["index.md"]}), encoding="utf-8")
        (docs / MANIFEST).symlink_to(planted)
    else:
        (docs / MANIFEST).mkdir()
    with pytest.raises(CatalogDocsError, match=r"not a regular file"):
        write_output(new_site(), docs)


# --- leftovers ----------------------------------------------------------------------------------------------


def test_leftover_staging_folders_are_removed_and_nothing_else(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    for name in (".catalog-docs-k2j4h5g6", ".catalog-docs-staging-a1b2c3d4"):
        (docs / name / "new" / "operations").mkdir(parents=True)
        (docs / name / "new" / "operations" / "x.md").write_bytes(b"x" * 1000)
    (docs / ".catalog-docs-notes").mkdir()  # not a name the writer makes
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.md").write_bytes(b"keep")
    (docs / ".catalog-docs-staging-zzzzzzzz").symlink_to(elsewhere)  # a link is never followed
    write_output(new_site(), docs)
    names = sorted(p.name for p in docs.iterdir() if p.name.startswith("."))
    assert names == [".catalog-docs-manifest.json", ".catalog-docs-notes", ".catalog-docs-staging-zzzzzzzz"]
    assert (elsewhere / "keep.md").read_bytes() == b"keep"


def test_a_damaged_journal_is_reported_not_trusted(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_output(old_site(), docs)
    (docs / JOURNAL).write_text('{"staging": "../../etc", "replace": [], "remove": {}, "manifest": ""}',
                                encoding="utf-8")
    before = tree(docs)
    with pytest.raises(write.RecoveryRefused, match=r"journal of an interrupted render is damaged"):
        write_output(new_site(), docs)
    assert tree(docs) == before


@pytest.mark.parametrize("rel", ["../escape.md", "/abs.md", "a/../../b.md", "a//b.md", "./x.md"])
def test_a_path_leaving_the_output_folder_is_refused(tmp_path: Path, rel: str) -> None:
    docs = tmp_path / "docs"
    with pytest.raises(CatalogDocsError, match=r"refusing to write outside"):
        write_output({rel: "x"}, docs)
    assert not (tmp_path / "escape.md").exists()


# --- a killed render, then a real build -----------------------------------------------------------------------


@pytest.mark.site
@pytest.mark.parametrize("kill_at", [2, 4, 9])
def test_a_render_killed_mid_swap_then_mkdocs_build_publishes_the_new_site_whole(tmp_path: Path, kill_at: int) -> None:
    """The fixture project is built, a value changes, `catalog-docs render` is killed at its kill_at-th rename
    (the journal is the first), then `mkdocs build --strict` runs: its hook completes the interrupted render,
    and docs/ holds exactly the pages of the changed catalogue when the site is built from it."""
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.site.render import render_pages
    from sitebuild import build, copy_project

    project = copy_project(tmp_path / "project", Path(__file__).resolve().parents[1] / "fixture-catalog")
    first = build(project)
    assert first.returncode == 0, first.stderr
    version = project / "catalog" / "versions" / "FAKE-1.1.yaml"
    text = version.read_text(encoding="utf-8")
    assert ": close\n" in text
    version.write_text(text.replace(": close\n", ": unlimited\n"), encoding="utf-8")
    render = ('import sys\nfrom catalog_docs import cli\n'
              'sys.exit(cli.main(["render", "--catalog", "catalog", "--out", "docs"]))\n')
    child = subprocess.run([sys.executable, "-c", _kill_at_rename(kill_at) + render],
                           cwd=project, capture_output=True, text=True, timeout=300)
    assert child.returncode == -signal.SIGKILL, child.stdout + child.stderr
    assert (project / "docs" / JOURNAL).exists()
    second = build(project)
    assert second.returncode == 0, second.stderr
    expected = render_pages(load_catalog(project / "catalog"))
    docs = project / "docs"
    assert not (docs / JOURNAL).exists()
    assert not [p.name for p in docs.iterdir() if p.name.startswith(".catalog-docs-") and p.is_dir()]
    for rel, page in expected.items():
        assert (docs / rel).read_text(encoding="utf-8") == page, f"{rel} is not the changed catalogue's page"
    built = {p.relative_to(project / "site").as_posix() for p in (project / "site").rglob("index.html")}
    assert "operations/index.html" in built


def test_a_repeated_write_of_the_same_texts_reads_no_file_and_still_sees_edits(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # The preview writes the same page texts again and again: a file this process wrote with the same text,
    # untouched since, is not read again. A file changed behind its back still is, and is written back.
    from catalog_docs.site.write import write_output

    out = tmp_path / "docs"
    files = {f"plans/p{i}.md": f"page {i}\n" * 50 for i in range(20)}
    assert len(write_output(files, out).written) == 20
    reads: list[str] = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes",
                        lambda self: (reads.append(self.name) if self.suffix == ".md" else None) or real(self))
    again = write_output(files, out)
    assert (again.written, again.unchanged, reads) == ((), 20, [])
    (out / "plans/p3.md").write_text("edited by hand, longer than before\n", encoding="utf-8")
    fixed = write_output(files, out)
    assert fixed.written == ("plans/p3.md",)
    assert (out / "plans/p3.md").read_text(encoding="utf-8") == files["plans/p3.md"]
    assert reads == ["p3.md"]
    # Equal texts that are other objects are read and compared as before: nothing to write.
    reads.clear()
    copies = {rel: "".join(list(text)) for rel, text in files.items()}
    assert write_output(copies, out).written == () and len(reads) == 20
