"""`diff --against REV` on revisions written by someone the reviewer does not know: the revision is data.

Hostile trees are made with git's plumbing (`git mktree` accepts names a checkout never writes: `..`, `.git`,
a backslash, an empty name) on a fake catalogue. Whatever the tree holds, nothing is written anywhere (the
revision is read into memory, not laid out in a temporary folder); a refused revision says so on one line
naming the entry, exits 2; an over-limit blob is never read whole, and a tree over the limits on its entries
or their total size is refused from its listing, before anything is read.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog_docs import cli
from catalog_docs.catalog import revision
from catalog_docs.catalog.files import MAX_BYTES
from catalog_docs.escape import for_terminal
from fake_catalogs import FAKE_SPECS, write_catalog

pytestmark = pytest.mark.usefixtures("one_argument_parser")  # a hundred and more runs of `diff --against` in process

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "Fake Tester", "GIT_AUTHOR_EMAIL": "fake@example.invalid",
           "GIT_COMMITTER_NAME": "Fake Tester", "GIT_COMMITTER_EMAIL": "fake@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(repo: Path, *args: str, stdin: bytes | None = None) -> str:
    return subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True,
                          input=stdin).stdout.decode().strip()


@dataclass(frozen=True, kw_only=True)
class Planted:
    """One entry added to the revision's catalogue tree."""

    where: tuple[str, ...]
    """The folders below catalog/ that hold it: (), ("versions",) or ("versions", "deeper")."""
    name: str
    kind: str
    """file, big (a blob over the loader's limit), link (mode 120000) or submodule (mode 160000)."""
    content: bytes = b""


class Sandbox:
    """A repository with a fake catalogue committed, inside a folder that holds every temporary folder the
    command may use (TMPDIR), so that what it touches can be listed.

    Trees are made by one `git mktree --batch` process for the sandbox's life, and each blob and listing of the
    committed catalogue is asked of git once: a hostile commit costs one git process (`commit-tree`), where a
    process per tree, blob and listing made the Hypothesis test spend most of its time starting git."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = root / "repo"
        self.tmp = root / "a" / "b" / "c" / "d" / "tmp"  # deep: a `..` written below it would stay inside root
        self.tmp.mkdir(parents=True)
        self.repo.mkdir()
        git(self.repo, "init", "-q", "-b", "main")
        write_catalog(self.repo / "catalog", FAKE_SPECS["plans-come-and-go"])
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", "catalogue")
        self.big = git(self.repo, "hash-object", "-w", "--stdin", stdin=b"x: 1\n" * (MAX_BYTES // 5 + 1))
        self._blobs: dict[bytes, str] = {}
        self._listings: dict[str, list[str]] = {}
        self._mktree: subprocess.Popen[bytes] | None = None

    def close(self) -> None:
        """End the tree-making git process."""
        if self._mktree is not None:
            assert self._mktree.stdin is not None
            self._mktree.stdin.close()
            self._mktree.wait(timeout=30)
            self._mktree = None

    def blob(self, content: bytes) -> str:
        if content not in self._blobs:
            self._blobs[content] = git(self.repo, "hash-object", "-w", "--stdin", stdin=content)
        return self._blobs[content]

    def listing(self, tree: str) -> list[str]:
        """The `git ls-tree -z` records of a tree of the committed catalogue (HEAD never moves: the hostile
        commits are made beside it)."""
        if tree not in self._listings:
            self._listings[tree] = [r for r in git(self.repo, "ls-tree", "-z", tree).split("\0") if r]
        return self._listings[tree]

    def entry(self, planted: Planted) -> str:
        """One `git mktree -z` record."""
        if planted.kind == "submodule":
            return f"160000 commit {'1' * 40}\t{planted.name}"
        if planted.kind == "big":
            return f"100644 blob {self.big}\t{planted.name}"
        mode = "120000" if planted.kind == "link" else "100644"
        return f"{mode} blob {self.blob(planted.content)}\t{planted.name}"

    def mktree(self, records: list[str]) -> str:
        """A tree of exactly these `git mktree -z` records (objects they name need not exist)."""
        if self._mktree is None:
            self._mktree = subprocess.Popen(["git", "mktree", "-z", "--missing", "--batch"], cwd=self.repo,
                                            env=GIT_ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._mktree.stdin is not None and self._mktree.stdout is not None
        text = "".join(f"{r}\0" for r in records) + "\0"  # an empty record ends a tree in --batch -z
        self._mktree.stdin.write(text.encode("utf-8", "surrogateescape"))
        self._mktree.stdin.flush()
        oid = self._mktree.stdout.readline().decode().strip()
        assert re.fullmatch(r"[0-9a-f]{40}", oid), f"git mktree failed on {records!r}"
        return oid

    def tree(self, base: str | None, records: list[str]) -> str:
        """A tree holding the entries of the tree `base` (if any) and `records`."""
        return self.mktree([*(self.listing(base) if base else []), *records])

    def commit_with(self, planted: list[Planted]) -> str:
        """A commit whose catalogue is the committed one plus the planted entries."""
        deeper = [self.entry(p) for p in planted if p.where == ("versions", "deeper")]
        in_versions = [self.entry(p) for p in planted if p.where == ("versions",)]
        if deeper:
            in_versions.append(f"040000 tree {self.tree(None, deeper)}\tdeeper")
        top = [self.entry(p) for p in planted if p.where == ()]
        versions = self.tree("HEAD:catalog/versions", in_versions)
        catalog_old = [r for r in self.listing("HEAD:catalog") if not r.endswith("\tversions")]
        catalog = self.mktree([*catalog_old, f"040000 tree {versions}\tversions", *top])
        root = self.tree(None, [f"040000 tree {catalog}\tcatalog"])
        return git(self.repo, "commit-tree", root, "-m", "hostile", "-p", "HEAD")

    def state(self) -> dict[str, tuple[int, int]]:
        """Every path under the sandbox with its size and modification time (the git objects folder aside:
        the test itself adds objects to it; and the tmp folder's own time, which the tests check is empty)."""
        seen: dict[str, tuple[int, int]] = {}
        tmp = str(self.tmp)

        def walk(folder: str, rel: str, in_git: bool) -> None:  # os.walk's listing, without its Path objects
            with os.scandir(folder) as entries:
                for item in entries:
                    if in_git and item.name == "objects" and item.is_dir():
                        continue
                    st = item.stat(follow_symlinks=False)
                    seen[rel + item.name] = (st.st_size, 0 if item.path == tmp else st.st_mtime_ns)
                    if item.is_dir(follow_symlinks=False):
                        walk(item.path, f"{rel}{item.name}/", item.name == ".git")

        walk(str(self.root), "", self.root.name == ".git")
        return seen


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    box = Sandbox(tmp_path_factory.mktemp("hostile-revisions"))
    yield box
    box.close()


@pytest.fixture
def fresh_sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    """A sandbox of the test's own (its big blobs stay out of the shared one)."""
    box = Sandbox(tmp_path)
    yield box
    box.close()


@contextlib.contextmanager
def temp_folders_watched(sandbox: Sandbox) -> Iterator[list[str]]:
    """Any temporary file or folder the command makes (through `tempfile`) lands in the sandbox's tmp folder;
    yields what was left there. The command makes none: a revision is read into memory."""
    made: list[str] = []
    with mock.patch.object(tempfile, "tempdir", str(sandbox.tmp)):
        yield made
    made.extend(p.name for p in sandbox.tmp.iterdir())


def run_against(sandbox: Sandbox, rev: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(sandbox.repo), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["diff", "--against", rev])
    return code, out.getvalue(), err.getvalue()


# --- the rule, stated independently of the code: what refuses a revision ---------------------------------

EXISTING = {(): {"service.yaml", "listing.yaml", "not-shown.yaml", "versions"},
            ("versions",): {"FAKE-1.0.yaml", "FAKE-2.0.yaml", "FAKE-3.0.yaml"}}


def refused(p: Planted) -> bool:
    return (p.kind in ("link", "submodule") or p.name in ("", ".", "..") or "\\" in p.name
            or p.name.rstrip(". ").lower() == ".git" or p.name in EXISTING.get(p.where, set()))


HOSTILE_NAMES = st.one_of(
    st.sampled_from(["..", ".", "", ".git", ".GIT", ".git.", ".git ", "a\\b", "..\\..\\evil", "\\", "evil.yaml",
                     "listing.yaml", "versions", "FAKE-1.0.yaml", "new.yaml", "notes.txt", ".hidden"]),
    st.text(alphabet=st.sampled_from([".", "\\", "g", "i", "t", "G", " ", "\n", "\x1b", "é", "\u202e", "y", "\udcff"]),
            max_size=6),
)
PLANTED = st.builds(
    Planted,
    where=st.sampled_from([(), ("versions",), ("versions", "deeper")]),
    name=HOSTILE_NAMES,
    kind=st.sampled_from(["file", "file", "big", "link", "submodule"]),
    content=st.sampled_from([b"", b"../../../../../../evil-target", b"label: EVIL\n", b"\x00\xff"]),
)


@pytest.mark.slow  # 150 generated git trees, each compared against
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(planted=st.lists(PLANTED, min_size=1, max_size=3, unique_by=lambda p: (p.where, p.name)))
def test_a_hostile_tree_touches_nothing_and_is_refused_on_one_line(sandbox: Sandbox, planted: list[Planted]) -> None:
    rev = sandbox.commit_with(planted)
    before, root_before = sandbox.state(), set(Path("/").iterdir())
    with temp_folders_watched(sandbox) as made:
        code, out, err = run_against(sandbox, rev)
    assert sandbox.state() == before  # nothing written or removed in the repository or the temporary folders
    assert set(Path("/").iterdir()) == root_before
    assert made == [] and list(sandbox.tmp.iterdir()) == []  # no temporary folder, refused or not
    bad = [p for p in planted if refused(p)]
    if bad:
        assert code == 2 and out == "", err
        assert err.endswith("\n") and err.count("\n") == 1, err  # one line
        assert err.startswith(f"catalog-docs: error: revision {rev!r} refused: "), err
        shown = [f"its tree entry {for_terminal(repr('/'.join(['catalog', *p.where, p.name])))} is " for p in bad]
        # git itself cannot list a tree with an empty name: the error says so, with git's words.
        unreadable = any(p.name == "" for p in planted) and "git cannot read its tree (empty filename" in err
        assert unreadable or any(name in err for name in shown), (shown, err)
    else:
        assert code in (0, 1), err
        if code == 1:  # the revision's catalogue does not load: its errors, each named as git names the file
            lines = err.splitlines()
            assert lines[0] == f"catalog-docs: error: the catalogue at revision {rev!r} does not load:"
            assert all(line.startswith(f"{rev}:catalog/") for line in lines[1:-1]), err
            assert lines[-1].endswith(("1 error", "errors"))


def test_the_entries_the_issue_names_each_refuse_the_revision(sandbox: Sandbox) -> None:
    cases = {"..": "a '..' component", ".": "a '.' component", ".git": "a '.git' component",
             "a\\b": "a backslash in its name", ".GIT.": "a '.git' component"}
    for name, why in cases.items():
        rev = sandbox.commit_with([Planted(where=(), name=name, kind="file", content=b"x")])
        code, out, err = run_against(sandbox, rev)
        assert (code, out) == (2, ""), err
        shown = for_terminal(repr(f"catalog/{name}"))
        assert err == (f"catalog-docs: error: revision {rev!r} refused: its tree entry {shown} is {why}; "
                       "nothing was read from it or written\n")
    rev = sandbox.commit_with([Planted(where=("versions",), name="", kind="file")])
    code, _, err = run_against(sandbox, rev)
    assert code == 2
    assert err == (f"catalog-docs: error: revision {rev!r} refused: git cannot read its tree (empty filename in "
                   "tree entry); nothing was read from it or written\n")
    for kind, word in (("link", "a symbolic link"), ("submodule", "a submodule (gitlink)")):
        rev = sandbox.commit_with([Planted(where=("versions",), name="FAKE-9.0.yaml", kind=kind, content=b"../x")])
        code, _, err = run_against(sandbox, rev)
        assert code == 2
        assert f"its tree entry 'catalog/versions/FAKE-9.0.yaml' is {word}, which a catalogue never holds" in err


def test_the_catalogue_folder_itself_as_a_link_is_refused(sandbox: Sandbox) -> None:
    link = sandbox.blob(b"../../../../")
    rev = git(sandbox.repo, "commit-tree", sandbox.tree(None, [f"120000 blob {link}\tcatalog"]), "-m", "link")
    code, _, err = run_against(sandbox, rev)
    assert code == 2
    assert "its tree entry 'catalog' is the catalogue folder itself, not a file in it" in err


def test_an_over_limit_blob_gets_the_working_trees_error(sandbox: Sandbox) -> None:
    rev = sandbox.commit_with([Planted(where=("versions",), name="FAKE-9.0.yaml", kind="big")])
    code, out, err = run_against(sandbox, rev)
    assert (code, out) == (1, "")
    size = MAX_BYTES // 5 * 5 + 5
    assert (f"{rev}:catalog/versions/FAKE-9.0.yaml:1:1: (file): expected a file of at most {MAX_BYTES} bytes, "
            f"found {size} bytes") in err


def test_a_200_mb_blob_is_never_read(fresh_sandbox: Sandbox) -> None:
    """Peak memory of the command stays far below the blob's size (it was 430-640 MB when read whole)."""
    box = fresh_sandbox
    big = box.root / "big"
    with big.open("wb") as f:
        for _ in range(200):
            f.write(b"y: 1\n" * (1024 * 1024 // 5))
    oid = git(box.repo, "hash-object", "-w", str(big))
    big.unlink()
    catalog = [r for r in git(box.repo, "ls-tree", "-z", "HEAD:catalog").split("\0")
               if r and not r.endswith("\tlisting.yaml")]
    tree = git(box.repo, "mktree", "-z", stdin="".join(f"{r}\0" for r in
                                                       [*catalog, f"100644 blob {oid}\tlisting.yaml"]).encode())
    rev = git(box.repo, "commit-tree", box.tree(None, [f"040000 tree {tree}\tcatalog"]), "-m", "big")
    # The peak is the process's own: /proc's VmHWM starts afresh at exec, where Linux carries ru_maxrss over
    # from the parent (this test process, larger than the limit after a Hypothesis run).
    probe = ("import json, pathlib, re, resource, sys; from catalog_docs.cli import main; code = main(sys.argv[1:]); "
             "status = pathlib.Path('/proc/self/status'); "
             "hwm = re.search(r'VmHWM:\\s+(\\d+) kB', status.read_text()) if status.exists() else None; "
             "peak = int(hwm.group(1)) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; "
             "print(json.dumps([code, peak]), file=sys.__stdout__)")
    result = subprocess.run([sys.executable, "-c", probe, "diff", "--against", rev], cwd=box.repo,
                            capture_output=True, text=True, timeout=300)
    code, peak_kib = json.loads(result.stdout.splitlines()[-1])
    assert code == 1, result.stderr
    assert "expected a file of at most" in result.stderr and "listing.yaml" in result.stderr
    assert peak_kib < 100 * 1024, f"peak RSS {peak_kib} KiB"


def _peak_run(repo: Path, rev: str) -> tuple[int, int, float, str]:
    """`diff --against REV` in a new process: its exit code, peak memory (KiB), seconds and standard error."""
    probe = ("import json, pathlib, re, sys, time; from catalog_docs.cli import main; t = time.monotonic(); "
             "code = main(sys.argv[1:]); took = time.monotonic() - t; "
             "hwm = re.search(r'VmHWM:\\s+(\\d+) kB', pathlib.Path('/proc/self/status').read_text()); "
             "print(json.dumps([code, int(hwm.group(1)), took]), file=sys.__stdout__)")
    result = subprocess.run([sys.executable, "-c", probe, "diff", "--against", rev], cwd=repo, capture_output=True,
                            text=True, timeout=300)
    code, peak_kib, took = json.loads(result.stdout.splitlines()[-1])
    return code, peak_kib, took, result.stderr


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak from /proc")
def test_forty_entries_naming_one_compressible_blob_are_refused_before_reading(fresh_sandbox: Sandbox) -> None:
    """The issue's case: 40 version files, all one 4 MiB blob that compresses to almost nothing, were each
    written to a temporary folder (164 MB, 49 s). Their total is over the limit: refused from the listing."""
    box = fresh_sandbox
    oid = box.blob(b"a" * MAX_BYTES)
    deeper = box.tree(None, [f"100644 blob {oid}\tFAKE-{i}.yaml" for i in range(40)])
    catalog = [r for r in git(box.repo, "ls-tree", "-z", "HEAD:catalog").split("\0")
               if r and not r.endswith("\tversions")]
    tree = git(box.repo, "mktree", "-z", stdin="".join(f"{r}\0" for r in
                                                       [*catalog, f"040000 tree {deeper}\tversions"]).encode())
    rev = git(box.repo, "commit-tree", box.tree(None, [f"040000 tree {tree}\tcatalog"]), "-m", "forty")
    before = box.state()
    code, peak_kib, took, err = _peak_run(box.repo, rev)
    assert code == 2 and err.count("\n") == 1, err
    found = re.fullmatch(rf"catalog-docs: error: revision {re.escape(repr(rev))} refused: its catalogue files hold "
                         rf"(\d+) bytes, over the {revision.MAX_TOTAL_BYTES} a catalogue may have; nothing was read "
                         r"from it or written\n", err)
    assert found and int(found.group(1)) > 40 * MAX_BYTES, err
    # Read, the forty blobs are 160 MiB; refused from the listing, the process stays small. (No limit on the time it
    # took: a wall-clock bound failed on a loaded machine; speed is measured by `make bench`, never by a test.)
    assert peak_kib < 100 * 1024, (took, peak_kib)
    assert box.state() == before


def test_a_tree_of_too_many_entries_is_refused_before_reading(sandbox: Sandbox) -> None:
    note = sandbox.blob(b"x")  # one blob, named many times (a git process per entry took a minute)
    many = sandbox.tree(None, [f"100644 blob {note}\tnote-{i}.txt" for i in range(revision.MAX_ENTRIES + 1)])
    catalog = [r for r in git(sandbox.repo, "ls-tree", "-z", "HEAD:catalog").split("\0") if r]
    tree = git(sandbox.repo, "mktree", "-z", stdin="".join(f"{r}\0" for r in
                                                           [*catalog, f"040000 tree {many}\tnotes"]).encode())
    rev = git(sandbox.repo, "commit-tree", sandbox.tree(None, [f"040000 tree {tree}\tcatalog"]), "-m", "many")
    code, out, err = run_against(sandbox, rev)
    assert (code, out) == (2, "")
    assert err.startswith(f"catalog-docs: error: revision {rev!r} refused: its catalogue folder has "
                          f"{revision.MAX_ENTRIES + 4 + 3} entries, over the {revision.MAX_ENTRIES} a catalogue may "
                          "have"), err


def test_a_revision_within_the_limits_loads_from_memory_and_names_files_as_git_does(sandbox: Sandbox) -> None:
    rev = sandbox.commit_with([Planted(where=("versions",), name="FAKE-9.0.yaml", kind="file",
                                       content=b"label: [unclosed\n")])
    with temp_folders_watched(sandbox) as made:
        code, _, err = run_against(sandbox, rev)
    assert code == 1 and made == [], err
    assert f"{rev}:catalog/versions/FAKE-9.0.yaml:" in err
