"""Nothing outside the tool's own folders is ever written or deleted, through any link (issue 40). For every
command that writes (the Zensical build among them), Hypothesis draws each component of each path it writes or
removes from: a folder, a link to outside, a link to `..`, a link to the project, a file, a FIFO, or missing. For
every draw: nothing changes but the tool's own folders (a snapshot of the folder holding the project, its .git, docs/
and catalog/, and an outside folder, links not followed), a refusal is one line with exit 2 (a catalogue that no
longer loads: its located errors, exit 1), no traceback, within a time limit; and a draw of plain folders is built
or written as on any checkout.

The engines that build through the plugin (mkdocs, ProperDocs) write only site/, and only after the plugin's
writing.prepare_site_dir has made it a plain folder. A Hypothesis property drives that check in this process on every
draw of site/ and of what it holds at the names an engine writes (links, a pipe, a hard link to a file outside):
site/ anything but a folder or missing is refused in one line, changing nothing; else it is left holding only the
mark, folders and files of one name, and nothing outside it changes. Then each engine builds as a process of its own
into a site/ holding all of those at once (built; nothing outside changes) and into a site/ that is a link to
outside (one ERROR line; nothing changes).

Every path a command writes goes through catalog_docs/writing.py (tests/project/test_one_writer.py holds the code to
that), which this test proves from the outside: the sibling tests/site/test_docs_untouched.py draws docs/ itself."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import fixture_facts as ff
from catalog_docs.writing import MARK, MARK_TEXT, WriteRefused, prepare_site_dir
from sitebuild import BIN, cli_here, copy_env, copy_project, in_memory_folder, tree_entries

pytestmark = pytest.mark.site

TIME_LIMIT_S = 60.0
"""Each command, on a loaded two-core machine; a hang (a pipe opened, a link loop walked) would never end."""
KINDS = ["folder", "link to outside", "link to ..", "link to the project", "file", "fifo", "missing"]


@dataclass(frozen=True, slots=True)
class Command:
    argv: list[str]
    paths: tuple[tuple[str, ...], ...]
    """Each path the command writes or removes, by its components (each drawn)."""
    own: tuple[str, ...]
    """The tool's own folders (or file) among them, from the project: what may change, when every component on the
    way to it (and it) was a folder or missing."""
    walked: tuple[int, ...]
    """For each path, how many leading components must be folders for the command to go ahead: the ones after are
    inside its own folder (removed whatever they are) or the file it writes."""
    makes_missing: bool = True
    """Whether a missing component is made (new-label needs the catalogue there)."""
    leaf_file: bool = False
    """Whether the last component is the file written (replaced only when it is a file)."""


ZENSICAL = [str(BIN / "zensical"), "build", "--strict", "--clean", "-f", "mkdocs.yml"]
COMMANDS = {
    "render --out --replace": Command(["render", "--out", "out/pages", "--replace"], (("out", "pages"),),
                                      ("out/pages",), (2,)),
    "export --out": Command(["export", "--format", "csv", "--out", "out/lock.csv"], (("out", "lock.csv"),),
                            ("out/lock.csv",), (2,), leaf_file=True),
    "synth --out": Command(["synth", "--operations", "3", "--versions", "2", "--plans", "2", "--out", "out/synth"],
                           (("out", "synth"),), ("out/synth",), (2,)),
    "new-label": Command(["new-label", "FAKE 9.0", "--from", ff.LABELS[0]], (("catalog", "versions"),),
                         ("catalog",), (2,), makes_missing=False),
    "clean": Command(["clean"], (("site", "assets"), ("build", "catalog-docs", "build-1")),
                     ("site", "build/catalog-docs"), (1, 2)),
    "zensical build": Command(["build", "--publish", "--", *ZENSICAL],
                              (("site", "assets"), ("build", "catalog-docs"), (".cache", "x")),
                              ("site", "build/catalog-docs", ".cache"), (1, 2, 1)),
}
"""Each runs here, through cli.main (the Zensical build runs its engine as a process of its own)."""
ENGINES = {
    "mkdocs build": [str(BIN / "mkdocs"), "build", "--strict"],
    "properdocs build": [str(BIN / "properdocs"), "build", "--strict", "-f", "mkdocs.yml"],
}
"""The engines that build through the plugin, each a process of its own: they write site/ only."""
HARD_LINK = "hard link to outside"
IN_SITE = {"assets": "link to outside", "search": "link to the project", "operations": "link to ..",
           "404.html": "fifo", "index.html": HARD_LINK, "sitemap.xml": "file", "stale": "folder"}
"""What a site/ folder may hold where an engine writes (the theme's assets, the search index, the pages, the 404
page, the home page, the sitemap) and a folder of an older build: at each, something it must not write through."""
SITE_STATES = {"site/ holding links, a pipe and a hard link": ("folder", IN_SITE),
               "site/ a link to outside": ("link to outside", {})}


def snapshot(root: Path) -> dict[str, tuple[object, ...]]:
    """Every entry under `root`, links not followed: a folder as such (its time aside: a folder the tool made in its
    own folder changes the time of the one it is in), a file by its bytes, a link by its target, others by kind."""
    out: dict[str, tuple[object, ...]] = {}
    for key, path, st_ in tree_entries(os.fspath(root)):
        if stat.S_ISLNK(st_.st_mode):
            out[key] = ("link", str(Path(path).readlink()))
        elif stat.S_ISDIR(st_.st_mode):
            out[key] = ("folder",)
        elif stat.S_ISREG(st_.st_mode):
            out[key] = ("file", Path(path).read_bytes())
        else:
            out[key] = (stat.S_IFMT(st_.st_mode),)
    return out


def _free(before: dict[str, tuple[object, ...]], own: str, leaf_file: bool) -> bool:
    """Whether the tool's own `own` may change: it and every folder on the way were folders or missing (the file
    written: a file or missing)."""
    parts = own.split("/")
    kinds = [before.get("/".join(["project", *parts[:n]]), ("missing",))[0] for n in range(1, len(parts) + 1)]
    last = {"missing", "file"} if leaf_file else {"missing", "folder"}
    return all(kind in {"missing", "folder"} for kind in kinds[:-1]) and kinds[-1] in last


def changed_outside_own(before: dict[str, tuple[object, ...]], after: dict[str, tuple[object, ...]],
                        own: tuple[str, ...], leaf_file: bool = False) -> list[str]:
    """The entries that changed other than inside the tool's own folders (and the folders made on the way to
    them, missing before)."""
    free = [f"project/{o}" for o in own if _free(before, o, leaf_file)]
    changed = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) == after.get(key):
            continue
        inside = any(key == f or key.startswith(f + "/") for f in free)
        made_on_the_way = (key not in before and after.get(key) == ("folder",)
                           and any(f.startswith(key + "/") for f in free))
        if not (inside or made_on_the_way):
            changed.append(f"{key}: {before.get(key, 'missing')!r} -> {after.get(key, 'missing')!r}"[:300])
    return changed


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder holding the project (with a .git of its own), its pristine catalogue and the outside folder."""
    with in_memory_folder(tmp_path_factory, "writes") as root:
        base = root / "base"
        project = copy_project(base / "project", catalog=ff.FIXTURE_CATALOG)
        who = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]
        for git in (["init", "-q"], ["add", "catalog", "docs", "mkdocs.yml"], [*who, "commit", "-q", "-m", "project"]):
            subprocess.run(["git", *git], cwd=project, check=True, capture_output=True)
        shutil.copytree(ff.FIXTURE_CATALOG, base.parent / f"{base.name}-pristine-catalog")
        yield base


KEEP = {".git", "catalog", "docs", "mkdocs.yml", "overrides", "scripts"}


def _remove(path: Path) -> None:
    if path.is_symlink() or (os.path.lexists(path) and not path.is_dir()):
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _reset(base: Path, *, catalog: bool = True) -> tuple[Path, Path]:
    """The project as copied (its catalogue afresh, unless no draw can reach it), nothing else beside it but a new
    outside folder."""
    project, outside = base / "project", base / "outside"
    for entry in base.iterdir():
        if entry.name != "project":
            _remove(entry)
    for entry in project.iterdir():
        if entry.name not in KEEP or (catalog and entry.name == "catalog"):
            _remove(entry)
    if catalog:
        shutil.copytree(base.parent / f"{base.name}-pristine-catalog", project / "catalog")
    (outside / "deeper").mkdir(parents=True)
    (outside / "keep.txt").write_text("outside, not ours\n", encoding="utf-8")
    return project, outside


def _plant(base: Path, project: Path, outside: Path, components: tuple[str, ...], kinds: tuple[str, ...]) -> None:
    path = project
    for name, kind in zip(components, kinds, strict=False):
        path = path / name
        if os.path.lexists(path) and kind != "folder":  # the catalogue, moved aside (outside the project)
            path.rename(base / f"aside-{name}")
        if kind == "folder":
            path.mkdir(exist_ok=True)
            continue
        if kind == "file":
            path.write_text("a file, not a folder\n", encoding="utf-8")
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind.startswith("link"):
            path.symlink_to({"link to outside": outside, "link to ..": Path(".."),
                             "link to the project": project}[kind])
        return  # nothing can be planted under a file, a pipe, a link or nothing


def _planted(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds planted: up to the first that is not a folder (nothing is planted below it)."""
    cut = next((i for i, kind in enumerate(kinds) if kind != "folder"), len(kinds))
    return kinds[:cut + 1]


def _is_plain(kinds: tuple[str, ...], walked: int, command: Command, plain: set[str]) -> bool:
    """Whether the components the command walks were folders (or missing, in `plain`), and the file it writes a
    file or missing."""
    planted = _planted(kinds)[:walked]
    if command.leaf_file and len(planted) == walked:
        return all(kind in plain for kind in planted[:-1]) and planted[-1] in {"file", "missing"}
    return all(kind in plain for kind in planted)


def _run_here(argv: list[str], project: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """cli.main in the project (sitebuild.cli_here): its exit code and what it printed to stderr."""
    code, _, err = cli_here(argv, project, capsys, TIME_LIMIT_S, str(argv))
    return code, err


def _plant_site(base: Path, project: Path, outside: Path, kind: str, inside: dict[str, str]) -> None:
    """site/ of `kind`; a folder holding `inside` ({name: kind}, a hard link to outside's file among them)."""
    _plant(base, project, outside, ("site",), (kind,))
    if kind != "folder":
        return
    for name, what in inside.items():
        if what == HARD_LINK:
            os.link(outside / "keep.txt", project / "site" / name)
        else:
            _plant(base, project, outside, ("site", name), ("folder", what))


def _within_time(call: Callable[[], None]) -> Exception | None:
    """What `call` raises (None: it returned), in a thread given TIME_LIMIT_S (a pipe opened would wait for ever:
    the test fails instead of stopping)."""
    outcome: list[Exception | None] = []

    def run() -> None:
        try:
            call()
            outcome.append(None)
        except Exception as exc:  # the outcome is checked by its type
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(TIME_LIMIT_S)
    assert not thread.is_alive() and outcome, f"the check did not finish within {TIME_LIMIT_S} s"
    return outcome[0]


def _run_engine(argv: list[str], project: Path) -> tuple[int, str]:
    try:
        done = subprocess.run(argv, cwd=project, capture_output=True, text=True, env=copy_env(project),
                              timeout=TIME_LIMIT_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{argv} did not finish within {TIME_LIMIT_S} s")
    return done.returncode, done.stdout + done.stderr


def _draws(command: Command) -> st.SearchStrategy[tuple[tuple[str, ...], ...]]:
    return st.tuples(*[st.tuples(*[st.sampled_from(KINDS) for _ in path]) for path in command.paths])


@pytest.mark.parametrize("name", list(COMMANDS))
def test_nothing_outside_the_tools_own_folders_changes(base: Path, capsys: pytest.CaptureFixture[str],
                                                       name: str) -> None:
    command = COMMANDS[name]

    @settings(max_examples=4, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(_draws(command))
    def check(draw: tuple[tuple[str, ...], ...]) -> None:
        project, outside = _reset(base)
        for components, kinds in zip(command.paths, draw, strict=True):
            _plant(base, project, outside, components, kinds)
        before = snapshot(base)
        code, output = _run_here(command.argv, project, capsys)
        changed = changed_outside_own(before, snapshot(base), command.own, command.leaf_file)
        assert changed == [], f"{name} on {draw} changed outside its own folders:\n" + "\n".join(changed[:20])
        assert "Traceback" not in output, f"{name} on {draw}:\n{output[-3000:]}"
        if code == 1:  # the catalogue does not load (a link where versions/ was): its located errors, counted
            assert output.splitlines()[-1].endswith(("1 error", " errors")), f"{name} on {draw}:\n{output[-3000:]}"
        elif code != 0:
            assert code == 2 and output.count("\n") == 1, f"{name} on {draw}: exit {code}\n{output[-3000:]}"
        plain = {"folder", "missing"} if command.makes_missing else {"folder"}
        walks = list(zip(draw, command.walked, strict=True))
        if all(_is_plain(kinds, walked, command, plain) for kinds, walked in walks):
            assert code == 0, f"{name} on plain folders {draw}: exit {code}\n{output[-3000:]}"
        elif not all(_is_plain(kinds, walked, command, {"folder", "missing"}) for kinds, walked in walks):
            assert code != 0, f"{name} went through {draw}"

    check()


@pytest.fixture(scope="module")
def small_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder holding a project of a few files (its .git, catalogue, docs/ and mkdocs.yml): all the site folder's
    check is given is the project's path, and a snapshot of a small project is quick."""
    with in_memory_folder(tmp_path_factory, "site-check") as base:
        project = base / "project"
        shutil.copytree(ff.FIXTURE_CATALOG, project / "catalog")
        (project / "docs").mkdir()
        (project / "docs" / "about.md").write_text("# About\n", encoding="utf-8")
        (project / "mkdocs.yml").write_text("site_name: fake\n", encoding="utf-8")
        subprocess.run(["git", "init", "-q"], cwd=project, check=True, capture_output=True)
        yield base


def _assert_site_left_plain(before: dict[str, tuple[object, ...]], after: dict[str, tuple[object, ...]],
                            inside: dict[str, str]) -> None:
    """site/ holds the mark and what was a folder or a file of one name, as it was; the rest (links, pipes, hard
    links) is gone, so an engine writing there writes through none of it."""
    left = {key.removeprefix("project/site/"): value for key, value in after.items()
            if key.startswith("project/site/")}
    kept = {name for name, kind in inside.items() if kind in ("folder", "file")}
    assert set(left) == {MARK, *kept}, left
    assert left[MARK] == ("file", MARK_TEXT)
    for name in kept:
        assert left[name] == before[f"project/site/{name}"], name


SITE_KINDS = st.one_of(st.just("folder"), st.sampled_from(KINDS))
"""site/ of any kind, a folder in one draw of two at least: what it holds is planted only then."""
IN_SITE_DRAWS = st.dictionaries(st.sampled_from(list(IN_SITE)), st.sampled_from([*KINDS, HARD_LINK]), max_size=5)


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(SITE_KINDS, IN_SITE_DRAWS)
@example(*SITE_STATES["site/ holding links, a pipe and a hard link"])
def test_the_site_folder_is_refused_or_left_plain_before_an_engine_writes(small_base: Path, kind: str,
                                                                          inside: dict[str, str]) -> None:
    project, outside = _reset(small_base, catalog=False)  # a draw reaches site/ and outside only
    _plant_site(small_base, project, outside, kind, inside)
    before = snapshot(small_base)
    raised = _within_time(lambda: prepare_site_dir(project / "site", project))  # as the plugin calls it
    after = snapshot(small_base)
    changed = changed_outside_own(before, after, ("site",))
    assert changed == [], f"site/ {kind} holding {inside} changed outside it:\n" + "\n".join(changed[:20])
    if kind in ("folder", "missing"):
        assert raised is None, raised
        _assert_site_left_plain(before, after, inside if kind == "folder" else {})
    else:
        assert isinstance(raised, WriteRefused) and raised.exit_code == 2 and "\n" not in str(raised), raised
        assert after == before


@pytest.mark.parametrize("state", list(SITE_STATES))
@pytest.mark.parametrize("engine", list(ENGINES))
def test_an_engine_build_changes_nothing_outside_its_site_folder(base: Path, engine: str, state: str) -> None:
    project, outside = _reset(base)
    kind, inside = SITE_STATES[state]
    _plant_site(base, project, outside, kind, inside)
    before = snapshot(base)
    code, output = _run_engine(ENGINES[engine], project)
    after = snapshot(base)
    changed = changed_outside_own(before, after, ("site",))
    assert changed == [], f"{engine} into {state} changed outside site/:\n" + "\n".join(changed[:20])
    assert "Traceback" not in output, f"{engine} into {state}:\n{output[-3000:]}"
    if kind == "folder":
        assert code == 0, f"{engine} into {state}: exit {code}\n{output[-3000:]}"
        built = {key: value for key, value in after.items() if key.startswith("project/site/")}
        assert all(value[0] in ("folder", "file") for value in built.values()), built
        assert "project/site/assets/stylesheets" in built and "project/site/search/search_index.json" in built
    else:
        errors = [line for line in output.splitlines() if line.startswith("ERROR")]
        assert code != 0 and len(errors) == 1, f"{engine} into {state}: exit {code}\n{output[-3000:]}"
        assert after == before
