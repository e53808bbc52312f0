"""The one module that writes: every file the tool creates, replaces or removes goes through here, and no other
module removes, renames or opens a path for writing (tests/project/test_one_writer.py holds the code to that).

A path is never handed to the system whole. It is opened from a folder this module holds (its descriptor), one
component at a time, each opened as a folder without following a link (`O_NOFOLLOW | O_DIRECTORY`), and each
name is then made, written, renamed or removed relative to the folder that holds it (`dir_fd`). A link, a file, a
pipe, a device or a socket where a folder should be, at any depth, is refused in one line (WriteRefused, exit 2)
before anything is written; a link where a file is to be written is replaced as a link, never written through;
a tree is removed by descriptors too (shutil.rmtree with `dir_fd`), so a link inside it is removed as a link.

Where a walk starts (its anchor) is a folder the tool found or made itself: the project's root, a temporary
folder it made, or, for a path given on the command line, the current folder (a relative path) or `/`.

The tool's mark (MARK, a small file) says that a folder is output the tool wrote: `render --out` leaves it in its
folder and the mkdocs plugin in the site folder, and only a folder with it (or an empty one) is ever replaced or
emptied when it lies outside the project.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from catalog_docs.errors import CatalogDocsError
from catalog_docs.escape import for_terminal

MARK = ".catalog-docs-output"
"""The file that marks a folder as the tool's output (render --out, the built site)."""
MARK_TEXT = (b"Written by catalog-docs. `catalog-docs render --out DIR --replace` and the site's builds may replace "
             b"or empty a folder holding this file.\n")

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class WriteRefused(CatalogDocsError):
    """A path to be written or removed is not what it must be: a link, a file, a pipe or a device where a folder
    should be, a folder where a file should be, or a folder the tool may not replace."""


def kind_of(mode: int) -> str:
    """What an entry is, in words."""
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISREG, "a file"),
             (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
             (stat.S_ISSOCK, "a socket"))
    return next((words for test, words in kinds if test(mode)), "not a folder")


def _check_name(name: str) -> None:
    if name in ("", ".", "..") or "/" in name or "\0" in name:
        raise WriteRefused(f"{for_terminal(name)!r} is not a name of a file or folder")


def _oserror(what: str, path: Path | str, exc: OSError) -> CatalogDocsError:
    return CatalogDocsError(f"cannot {what}: {for_terminal(path)}: {exc.strerror or exc}")


class Folder:
    """A folder held open: every name below it is reached from its descriptor, never through a link. Close it
    (or use it as a context manager) when done; `path` is for messages (and for what other programs read)."""

    def __init__(self, fd: int, path: Path, what: str, parent: Folder | None = None, name: str = "") -> None:
        self.fd = fd
        self.path = path
        self.what = what
        """What is done, for messages: "write the pages", "remove site/"."""
        self._parent = parent
        self._name = name

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self._parent is not None:
            self._parent.close()
            self._parent = None

    def lstat(self, name: str) -> os.stat_result | None:
        """The entry `name` as it is (a link as the link), or None when there is none."""
        _check_name(name)
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def names(self) -> list[str]:
        return sorted(os.listdir(self.fd))  # noqa: PTH208  # a descriptor, which Path cannot list

    def is_empty(self) -> bool:
        return not os.listdir(self.fd)  # noqa: PTH208  # as above

    def marked(self) -> bool:
        """Whether the folder carries the tool's mark (a regular file, not a link)."""
        found = self.lstat(MARK)
        return found is not None and stat.S_ISREG(found.st_mode)

    def refuse(self, name: str, found: os.stat_result, wanted: str = "a folder") -> WriteRefused:
        return WriteRefused(f"cannot {self.what}: {for_terminal(self.path / name)} is {kind_of(found.st_mode)} where "
                            f"{wanted} should be (a link is never followed); remove it or choose another "
                            f"{'folder' if wanted == 'a folder' else 'name'}")

    def child(self, name: str, *, make: bool = False) -> Folder | None:
        """The folder `name` in this one, opened without following a link (made first when `make` and missing);
        None when it is missing and not to be made. Anything but a folder there is refused."""
        _check_name(name)
        while True:
            try:
                fd = os.open(name, _DIR, dir_fd=self.fd)
            except FileNotFoundError:
                if not make:
                    return None
                try:
                    os.mkdir(name, 0o777, dir_fd=self.fd)
                except FileExistsError:  # made meanwhile: open what is there now
                    pass
                except OSError as exc:
                    raise _oserror(self.what, self.path / name, exc) from None
                continue
            except OSError as exc:
                found = self.lstat(name)
                if found is not None and not stat.S_ISDIR(found.st_mode):
                    raise self.refuse(name, found) from None
                raise _oserror(self.what, self.path / name, exc) from None
            return Folder(fd, self.path / name, self.what)

    def walk(self, rel: str, *, make: bool = False) -> Folder | None:
        """The folder at `rel` (names joined by `/`) below this one, each component opened as `child` does."""
        here: Folder = Folder(os.dup(self.fd), self.path, self.what)
        for name in [part for part in rel.split("/") if part not in ("", ".")]:
            try:
                nxt = here.up() if name == ".." else here.child(name, make=make)
            finally:
                here.close()
            if nxt is None:
                return None
            here = nxt
        return here

    def up(self) -> Folder:
        """The folder this one is in (`..` is the folder's own entry, never a link)."""
        return Folder(os.open("..", _DIR, dir_fd=self.fd), self.path / "..", self.what)

    def new_folder(self, prefix: str) -> tuple[str, Folder]:
        """A folder nobody else knows yet, made in this one (with the permissions of the umask)."""
        for _ in range(100):
            name = f"{prefix}{secrets.token_hex(6)}"
            try:
                os.mkdir(name, 0o777, dir_fd=self.fd)
            except FileExistsError:
                continue
            except OSError as exc:
                raise _oserror(self.what, self.path, exc) from None
            made = self.child(name)
            assert made is not None
            return name, made
        raise CatalogDocsError(f"cannot make a new folder in {for_terminal(self.path)}")  # pragma: no cover

    def create(self, name: str, data: bytes) -> None:
        """Write a new file `name` (refused by the system when anything is there already)."""
        _check_name(name)
        fd = os.open(name, _NEW, 0o666, dir_fd=self.fd)
        with os.fdopen(fd, "wb") as out:
            out.write(data)

    def put(self, name: str, data: bytes | Iterable[str] | Iterable[bytes]) -> None:
        """Write file `name` whole: into a new file beside it, renamed over it when complete, so a reader sees the
        old file or the new one. Only a file is replaced: a folder, a link, a pipe or a device there is refused."""
        _check_name(name)
        found = self.lstat(name)
        if found is not None and not stat.S_ISREG(found.st_mode):
            raise self.refuse(name, found, "a file")
        part = f".{name[:64]}.part-{secrets.token_hex(4)}"
        try:
            fd = os.open(part, _NEW, 0o666, dir_fd=self.fd)
            with os.fdopen(fd, "wb") as out:
                if isinstance(data, bytes):
                    out.write(data)
                else:
                    for chunk in data:
                        out.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            os.rename(part, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self.remove(part)
            raise

    def remove(self, name: str) -> bool:
        """Remove the entry `name`: a folder with everything in it, anything else (a link included) as itself.
        Returns whether there was one."""
        found = self.lstat(name)
        if found is None:
            return False
        if stat.S_ISDIR(found.st_mode):
            shutil.rmtree(name, dir_fd=self.fd)  # by descriptors: a link inside is removed as a link
        else:
            try:
                os.unlink(name, dir_fd=self.fd)
            except FileNotFoundError:
                return False
        return True

    def move(self, name: str, to: Folder, new_name: str) -> None:
        """Move the entry `name` of this folder to `new_name` in folder `to` (the entry itself, never a link's
        target); an empty folder at `new_name` is replaced, a folder with anything in it is refused by the system."""
        _check_name(name)
        _check_name(new_name)
        os.rename(name, new_name, src_dir_fd=self.fd, dst_dir_fd=to.fd)

    def remove_self(self) -> None:
        """Remove this folder (made by `temporary_folder` or opened from a parent held) and close it."""
        parent, name = self._parent, self._name
        if parent is None:
            raise CatalogDocsError(f"{for_terminal(self.path)}: no parent folder held to remove it from")
        try:
            parent.remove(name)
        finally:
            self.close()

    def files(self) -> Iterator[tuple[str, Folder, str, os.stat_result]]:
        """Every entry below this folder that is not a folder, as (path from here, its folder, its name, its
        status), folders entered by descriptor (never through a link). The folder given is open only until the
        next entry is asked for: act on each entry as it comes."""
        yield from self._files("")

    def _files(self, prefix: str) -> Iterator[tuple[str, Folder, str, os.stat_result]]:
        for name in self.names():
            found = self.lstat(name)
            if found is None:
                continue
            if stat.S_ISDIR(found.st_mode):
                sub = self.child(name)
                if sub is not None:
                    with sub:
                        yield from sub._files(f"{prefix}{name}/")
            else:
                yield f"{prefix}{name}", self, name, found


def open_anchor(path: Path, what: str) -> Folder:
    """A folder the tool found or made itself (the project's root, its own temporary folder), opened as a walk's
    start: its last component is not followed when it is a link."""
    try:
        fd = os.open(path, _DIR)
    except OSError as exc:
        try:
            found = os.lstat(path)
        except OSError:
            found = None
        if found is not None and not stat.S_ISDIR(found.st_mode):
            raise WriteRefused(f"cannot {what}: {for_terminal(path)} is {kind_of(found.st_mode)} where a folder "
                               "should be (a link is never followed); remove it or choose another folder") from None
        raise _oserror(what, path, exc) from None
    return Folder(fd, path, what)


def open_within(root: Path, rel: str, what: str, *, make: bool = False) -> Folder | None:
    """The folder `rel` below `root` (an anchor), walked one component at a time without following a link."""
    with open_anchor(root, what) as anchor:
        return anchor.walk(rel, make=make)


def open_path(path: Path, what: str, *, make: bool = False) -> Folder | None:
    """The folder `path` as given on a command line: walked from the current folder (a relative path) or from
    `/`, every component opened without following a link. None when missing and not to be made."""
    start = Path("/") if path.is_absolute() else Path()
    rel = "/".join(part for part in path.parts if part != "/")
    with open_anchor(start, what) as anchor:
        anchor.path = Path("/") if path.is_absolute() else Path()
        return anchor.walk(rel, make=make)


def parent_and_name(path: Path, what: str, *, make: bool = True) -> tuple[Folder, str]:
    """The folder holding `path` (opened as `open_path` does, made when missing) and the last name of `path`."""
    name = path.name
    if name in ("", ".", ".."):
        raise WriteRefused(f"cannot {what}: {for_terminal(path)} does not end in a name")
    parent = open_path(path.parent, what, make=make)
    if parent is None:
        raise WriteRefused(f"cannot {what}: {for_terminal(path.parent)} does not exist")
    return parent, name


def write_file(root: Path, rel: str, data: bytes | Iterable[str], what: str) -> None:
    """Write file `rel` (names joined by `/`) below the anchor `root`, making its folders, without following any
    link: the site's downloads into the site folder or the build's spill folder."""
    folder_rel, _, name = rel.rpartition("/")
    if not os.path.lexists(root):  # a spill folder named but not made yet: made here, one level
        made = open_within(root.parent, root.name, what, make=True)
        assert made is not None
        made.close()
    folder = open_within(root, folder_rel, what, make=True)
    assert folder is not None
    with folder:
        folder.put(name, data)


def keep_files(root: Path, files: Mapping[str, bytes], what: str, *, rewrite: Iterable[str] = (),
               beside: Callable[[str], str] | None = None) -> list[str]:
    """Make each of `files` ({path with `/`: bytes}) be there below the anchor `root`: write those missing and
    those named in `rewrite`, each as write_file does (never through a link, written beside and renamed in place);
    returns the paths written. With `beside` (a file's name -> another name), a file is written only where that
    other file is in its folder, and no folder is made. For a folder another program empties and fills meanwhile
    (an engine's site folder while its server rebuilds): a file whose folder that program removes while this
    writes it is skipped, left to the next call."""
    again = set(rewrite)
    written = []
    opened: dict[str, Folder | None] = {}
    with open_anchor(root, what) as anchor:
        try:
            for rel, data in sorted(files.items()):
                sub, _, name = rel.rpartition("/")
                if sub not in opened:
                    opened[sub] = _walk_again(anchor, sub, make=beside is None)
                folder = opened[sub]
                if (folder is None or (rel not in again and folder.lstat(name) is not None)
                        or (beside is not None and folder.lstat(beside(name)) is None)):
                    continue
                try:
                    folder.put(name, data)
                except FileNotFoundError:  # its folder was removed after it was opened here
                    folder.close()
                    opened[sub] = None
                    continue
                written.append(rel)
        finally:
            for held in opened.values():
                if held is not None:
                    held.close()
    return written


def _walk_again(anchor: Folder, rel: str, *, make: bool) -> Folder | None:
    """The folder `rel` below `anchor` (made where missing, with `make`); walked a second time when a folder on the
    way vanished while it was walked (another program emptying the tree); a refusal, or a second failure, is
    raised."""
    try:
        return anchor.walk(rel, make=make)
    except WriteRefused:
        raise
    except CatalogDocsError:
        return anchor.walk(rel, make=make)


def write_path(path: Path, data: bytes, what: str) -> None:
    """Write file `path` as given on a command line (export --out), making its folders (see open_path)."""
    parent, name = parent_and_name(path, what)
    with parent:
        try:
            parent.put(name, data)
        except OSError as exc:
            raise _oserror(what, path, exc) from None


def remove_files_ending(root: Path, suffix: str) -> None:
    """Remove every file whose name ends in `suffix` below the anchor `root` (the preview's built pages)."""
    with open_anchor(root, "remove the preview's pages") as folder:
        for _rel, holder, name, found in folder.files():  # each folder's names listed before any is removed
            if name.endswith(suffix) and stat.S_ISREG(found.st_mode):
                holder.remove(name)


def temporary_folder(prefix: str, what: str) -> Folder:
    """A new private folder in the system's temporary folder (mkdtemp), held with its parent, for remove_self."""
    made = Path(tempfile.mkdtemp(prefix=prefix))
    parent = open_anchor(made.parent, what)
    try:
        folder = parent.child(made.name)
    except BaseException:
        parent.close()
        raise
    assert folder is not None
    folder._parent, folder._name = parent, made.name
    return folder


def write_tree(files: Mapping[str, str | bytes], folder: Folder) -> None:
    """Write `files` ({path with `/`: text or bytes}) into `folder`, an empty folder this process has just made:
    every sub-folder is made here, every file created new."""
    made: dict[str, Folder] = {}
    try:
        for rel, content in sorted(files.items()):
            sub, _, name = rel.rpartition("/")
            holder = folder
            if sub:
                if sub not in made:
                    opened = folder.walk(sub, make=True)
                    assert opened is not None
                    made[sub] = opened
                holder = made[sub]
            holder.create(name, content.encode("utf-8") if isinstance(content, str) else content)
    finally:
        for opened in made.values():
            opened.close()


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def refuse_sources(path: Path, projects: Iterable[Path], what: str) -> None:
    """Refuse, in words that say why, a path in a project's docs/, catalog/ or .git: the tool writes none of them
    but through new-label, which adds a label to the catalogue."""
    real = Path(os.path.realpath(path))
    for project in projects:
        root = Path(os.path.realpath(project))
        for name, holds in (("docs", "its hand-written pages"), ("catalog", "its catalogue"), (".git", "its history")):
            if _inside(real, root / name):
                raise WriteRefused(f"cannot {what}: {for_terminal(path)} is in the project's {name}/, which holds "
                                   f"{holds}; choose a folder of its own")


def refuse_protected(path: Path, projects: Iterable[Path], what: str) -> None:
    """Refuse, in words that say why, a folder the tool must never replace or write into: a project, a folder a
    project is in, its docs/, catalog/ or .git, the home folder, or any folder holding `.git`."""
    real = Path(os.path.realpath(path))
    shown = for_terminal(path)
    projects = list(projects)
    for project in projects:
        root = Path(os.path.realpath(project))
        if _inside(root, real):
            where = "the project" if real == root else f"a folder the project {for_terminal(root)} is in"
            raise WriteRefused(f"cannot {what}: {shown} is {where}; choose a folder of its own")
    refuse_sources(path, projects, what)
    if real == Path(os.path.realpath(Path.home())):
        raise WriteRefused(f"cannot {what}: {shown} is the home folder; choose a folder of its own")
    if os.path.lexists(real / ".git"):
        raise WriteRefused(f"cannot {what}: {shown} holds .git (a repository); choose a folder of its own")


def prepare_site_dir(site_dir: Path, project: Path, what: str = "write the built site") -> None:
    """Make `site_dir` safe for an engine (mkdocs, ProperDocs) to empty and write, before it does: inside
    `project`, every component below the project's root must be a folder (a link, file, pipe or device is
    refused); outside it, the folder must be missing, empty or marked as an earlier build's output. The folder is
    then made, marked (which proves it writable), and cleared of anything that is neither a folder nor a file
    (links, pipes...) and of files with other names elsewhere (hard links), so the engine writes through none."""
    site, root = Path(os.path.abspath(site_dir)), Path(os.path.abspath(project))  # noqa: PTH100  # as written, no link resolved
    if _inside(root, site):
        raise WriteRefused(f"cannot {what}: the site folder {for_terminal(site_dir)} is the project or a folder it "
                           "is in; choose a folder of its own")
    if root in site.parents:
        folder = open_within(root, site.relative_to(root).as_posix(), what, make=True)
    else:
        refuse_protected(site, [root], what)
        folder = open_path(site, what, make=True)
    assert folder is not None
    with folder:
        if root not in site.parents and not folder.is_empty() and not folder.marked():
            raise WriteRefused(f"cannot {what}: {for_terminal(site_dir)} lies outside the project and holds files "
                               f"the tool did not write (it has no {MARK}); empty it or choose another folder")
        try:
            folder.put(MARK, MARK_TEXT)  # written afresh each build: the proof that the folder can be written
            _clear_specials(folder)
        except OSError as exc:
            raise _oserror(what, site_dir, exc) from None


def _clear_specials(folder: Folder) -> None:
    """Remove everything below `folder` that is neither a folder nor a file of one name (a link, a pipe, a device,
    a file with other names elsewhere): an engine writing there then writes through none of them."""
    for _rel, holder, name, found in folder.files():  # each folder's names listed before any is removed
        if not stat.S_ISREG(found.st_mode) or found.st_nlink > 1:
            holder.remove(name)


def prepare_engine_folder(project: Path, rel: str, what: str) -> None:
    """Make `rel` of `project`, a folder an engine writes of its own accord (Zensical's .cache), a plain folder:
    a link, file or pipe on the way refused, links and pipes inside removed."""
    folder = open_within(project, rel, what, make=True)
    assert folder is not None
    with folder:
        _clear_specials(folder)
