"""Reading a catalogue file: its bytes (a regular file of bounded size, opened without waiting on anything), its
text (UTF-8; UTF-16 and UTF-32 named as such), and the characters and tab indents catalogue text never holds,
found before the file is parsed. Each problem comes with the offset it is about, so the loader can name the value
it sits in."""

from __future__ import annotations

import bisect
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from catalog_docs.catalog.files import MAX_BYTES
from catalog_docs.catalog.nodes import BAD_CHAR
from catalog_docs.errors import Problem

REPORTED_PER_FILE = 20
"""Refused characters (and tab indents) reported one by one in a file; beyond, one more line counts them."""
_CATEGORY_WORDS = {"Cc": "control character", "Cf": "invisible format character", "Cs": "lone surrogate",
                   "Co": "private-use character", "Cn": "unassigned code point", "Zl": "line separator",
                   "Zp": "paragraph separator", "Zs": "space other than U+0020"}


def char_name(ch: str) -> str:
    """How a refused character reads in a message: `U+202E RIGHT-TO-LEFT OVERRIDE`."""
    category = unicodedata.category(ch)
    name = unicodedata.name(ch, "") or _CATEGORY_WORDS.get(category, "character")
    return f"U+{ord(ch):04X} {name}"


_TAB_INDENT = re.compile(r"^[ ]*\t", re.M)
_MAYBE_BAD = re.compile("[^\t\n\r\x20-\x7e]")
"""Every character but printable ASCII, tab and line ends: where a refused character can be. Catalogue text is
nearly all ASCII, and this is a much quicker scan than testing each character against the whole refused set."""


def _bad_chars(text: str) -> Iterator[re.Match[str]]:
    """`BAD_CHAR.finditer(text)`, testing only the characters _MAYBE_BAD finds."""
    for maybe in _MAYBE_BAD.finditer(text):
        if (bad := BAD_CHAR.match(text, maybe.start())) is not None:
            yield bad


def _tab_indents(text: str) -> Iterator[re.Match[str]]:
    """`_TAB_INDENT.finditer(text)`, without the scan of every line start when the text holds no tab."""
    return _TAB_INDENT.finditer(text) if "\t" in text else iter(())


def file_problem(name: str, line: int, column: int, expected: str, found: str, hint: str = "",
             key: str = "(file)") -> Problem:
    return Problem(file=name, line=line, column=column, key_path=key, expected=expected, found=found, hint=hint)


_KIND_WORDS = {stat.S_IFIFO: "a named pipe (FIFO)", stat.S_IFCHR: "a character device",
               stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder"}


def kind_word(mode: int) -> str:
    """What a non-regular file is, in an error message."""
    return _KIND_WORDS.get(stat.S_IFMT(mode), "a special file")


def oversize_problem(name: str, size: int) -> Problem:
    """A file over MAX_BYTES, refused by its size before it is read."""
    return file_problem(name, 1, 1, f"a file of at most {MAX_BYTES} bytes", f"{size} bytes",
                        "split the data or check that the file is a catalogue file")


def _read_regular(path: Path, name: str) -> tuple[bytes | None, Problem | None]:
    """The bytes of a regular file of at most MAX_BYTES. Pipes, devices, sockets and dangling links are
    refused from their metadata, and the file is opened non-blocking, so nothing here waits for a writer
    or reads without end (a link to /dev/zero, a FIFO)."""
    hint_special = "a catalogue file is a plain file; replace it with the file itself"
    try:
        st = path.stat()
    except FileNotFoundError:
        found = "a symbolic link to a missing file" if path.is_symlink() else "no such file"
        return None, file_problem(name, 1, 1, "a regular file", found, "point the link at a file or remove it")
    except OSError as exc:
        return None, file_problem(name, 1, 1, "a readable file", exc.strerror or str(exc))
    if not stat.S_ISREG(st.st_mode):
        return None, file_problem(name, 1, 1, "a regular file", kind_word(st.st_mode), hint_special)
    if st.st_size > MAX_BYTES:
        return None, oversize_problem(name, st.st_size)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return None, file_problem(name, 1, 1, "a readable file", exc.strerror or str(exc))
    try:
        st = os.fstat(fd)  # what was opened, in case the path changed since the check
        if not stat.S_ISREG(st.st_mode):
            return None, file_problem(name, 1, 1, "a regular file", kind_word(st.st_mode), hint_special)
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return None, file_problem(name, 1, 1, "a readable file", exc.strerror or str(exc))
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        return None, file_problem(name, 1, 1, f"a file of at most {MAX_BYTES} bytes", f"more than {MAX_BYTES} bytes",
                              "split the data or check that the file is a catalogue file")
    return b"".join(chunks), None


def read_text(path: Path, name: str) -> tuple[str | None, list[tuple[Problem, int | None]], str | None]:
    """Read a file as UTF-8 text, refusing what the catalogue format never contains.

    Returns the text (None when it is refused), the problems, each with the character offset it is about
    (None for the file as a whole), and the text as far as it could be decoded (None when nothing was read),
    which the caller may parse leniently to name the value each offset sits in. Refused characters are
    found in one pass; the first REPORTED_PER_FILE are located, the rest counted."""
    data, refused = _read_regular(path, name)
    if data is None:
        return None, [(refused, None)] if refused else [], None
    return _decoded(data, name)


_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 little-endian"),
              (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 big-endian"),
              (b"\xff\xfe", "utf-16-le", "UTF-16 little-endian"),
              (b"\xfe\xff", "utf-16-be", "UTF-16 big-endian"))
"""Byte order marks of the encodings an editor may save in instead of UTF-8, longest first (UTF-32 LE's
starts with UTF-16 LE's)."""
_WIDE_NULS = ((re.compile(rb"\x00\x00\x00[^\x00]"), "utf-32-be", "UTF-32 big-endian"),
              (re.compile(rb"[^\x00]\x00\x00\x00"), "utf-32-le", "UTF-32 little-endian"),
              (re.compile(rb"\x00[^\x00]"), "utf-16-be", "UTF-16 big-endian"),
              (re.compile(rb"[^\x00]\x00"), "utf-16-le", "UTF-16 little-endian"))
"""Without a mark, YAML's own rule (YAML 1.2, section 5.2): the NUL bytes around the first character, which
in a catalogue file is ASCII (a comment or a key)."""


def wide_encoding(data: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding `data` is in, in words (`UTF-16 little-endian text with a byte order mark`), or
    None. Decided by the byte order mark, else by the NUL bytes of the first character, and only when the whole
    file then decodes in that encoding without a NUL character: a UTF-8 file is never taken for one."""
    for bom, codec, words in _WIDE_BOMS:
        if data.startswith(bom) and _decoded_as(data[len(bom):], codec) is not None:
            return f"{words} text with a byte order mark"
    for pattern, codec, words in _WIDE_NULS:
        text = _decoded_as(data, codec) if pattern.match(data) else None
        # ASCII read two or four bytes at a time gives letters of other scripts (CJK mostly), where catalogue text
        # is mostly ASCII: a UTF-8 file with a stray NUL near its start is not taken for UTF-16.
        if text is not None and 2 * sum(ch < "\x80" for ch in text) >= len(text):
            return f"{words} text without a byte order mark"
    return None


def _decoded_as(data: bytes, codec: str) -> str | None:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else text


def _decoded(data: bytes, name: str) -> tuple[str | None, list[tuple[Problem, int | None]], str | None]:
    """read_text on bytes already read."""
    # UTF-8 holds no NUL in a catalogue file, and UTF-16 or UTF-32 text always starts with a mark or a NUL.
    wide = wide_encoding(data) if data[:4].count(b"\x00") or data[:2] in (b"\xff\xfe", b"\xfe\xff") else None
    if wide is not None:
        # One error for the file: its text read as UTF-8 would only give a garbled key or one error per NUL.
        return None, [(file_problem(name, 1, 1, "UTF-8 text", wide, "save it as UTF-8"), None)], None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _undecodable(data, name, exc)
    problems = _text_problems(text, name)
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        problems.append((file_problem(name, 1, 1, "a YAML mapping", "an empty file"), None))
    return (None if problems else text), problems, text


def _undecodable(data: bytes, name: str,
                 exc: UnicodeDecodeError) -> tuple[None, list[tuple[Problem, int | None]], str]:
    """The first byte that is not UTF-8, placed, and the text as far as it decodes (to name the value it is in)."""
    prefix = data[: exc.start]
    line = prefix.count(b"\n") + 1
    # Columns count characters, as the parser's do: decode what precedes the bad byte on its line.
    column = len(prefix[prefix.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
    problem = file_problem(name, line, column, "UTF-8 text", f"the byte 0x{data[exc.start]:02x}",
                           "save the file as UTF-8")
    return None, [(problem, len(prefix.decode("utf-8", "replace")))], data.decode("utf-8", "replace")


@dataclass(frozen=True, slots=True, kw_only=True)
class _TextCheck:
    """One kind of text a catalogue file never holds: how to find it, where each find is, and how to say it."""

    find: Callable[[str], Iterator[re.Match[str]]]
    place: Callable[[re.Match[str]], int]
    expected: str
    found: Callable[[re.Match[str]], str]
    hint: str


_TEXT_CHECKS = (
    _TextCheck(find=_bad_chars, place=lambda m: m.start(), expected="visible text",
               found=lambda m: char_name(m.group()), hint="remove the control or invisible formatting character"),
    _TextCheck(find=_tab_indents, place=lambda m: m.end() - 1, expected="indentation with spaces",
               found=lambda m: "a tab", hint="YAML forbids tabs in indentation"),
)
"""The checks of a file's text before it is parsed, in the order they report."""


def _text_problems(text: str, name: str) -> list[tuple[Problem, int | None]]:
    """What the text checks find, each with its offset: the first REPORTED_PER_FILE of each check placed, the rest
    counted on one more line."""
    problems: list[tuple[Problem, int | None]] = []
    lines: _LineIndex | None = None  # found only when there is something to place
    for check in _TEXT_CHECKS:
        found = check.find(text)
        for count, m in enumerate(found):
            at = check.place(m)
            lines = lines or _LineIndex(text)
            line, column = lines.line_col(at)
            if count == REPORTED_PER_FILE:
                more = 1 + sum(1 for _ in found)
                problems.append((file_problem(name, line, column, check.expected,
                                          f"{more} more like the ones above, the first here", "fix those too"), at))
                break
            problems.append((file_problem(name, line, column, check.expected, check.found(m), check.hint), at))
    return problems


class _LineIndex:
    """Line and column of a character offset, by bisection over the line starts (found once)."""

    def __init__(self, text: str) -> None:
        self.starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


