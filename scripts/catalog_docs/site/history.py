"""When each version label first appeared in the catalogue: facts read from the repository's git history.

The source shows no release dates, so the changelog and its feed never give one. What the repository does
know is when a label's file (`versions/<slug>.yaml`: the validator ties the name to the label) was first
committed under the catalogue folder; that is the date the changelog states, as "added to this catalogue on".
It also knows the latest commit that changed that file: the feed's `<updated>` of the label's entry.

git's output is data like any other input: a commit's fields are checked for their shape, and a file it names
is only ever looked up among the labels' own file names, never used as a path. Where there is no history
(an unpacked archive, git not installed) the page says so, and the feed, which needs a date on every entry,
uses one that is true of the build: SOURCE_DATE_EPOCH when set (reproducible builds), else the time the build
started.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Literal

from catalog_docs.escape import for_terminal

BuildTimeSource = Literal["SOURCE_DATE_EPOCH", "clock"]
Known = Literal["commit", "boundary"]
"""`commit`: the commit that added the label's file. `boundary`: the oldest commit of a shallow clone, which
holds the file; the label may be older than that (the rest of the history was not fetched)."""

GIT_TIMEOUT_S = 20
"""How long the one `git log` of a render may take before the history counts as unreadable."""

_HASH = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_VERSION_FILE = re.compile(r"versions/([^/\x00-\x1f]+)\.yaml")
_PARENTS = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64})(?: (?:[0-9a-f]{40}|[0-9a-f]{64}))*")


@dataclass(frozen=True, slots=True, kw_only=True)
class Added:
    """The commit in which a label's file first appeared under the catalogue folder."""

    when: datetime
    """The commit's committer date, in UTC: when it entered the history."""
    commit: str
    known: Known


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildTime:
    """A date that is true of the build, for entries the history cannot date."""

    when: datetime
    source: BuildTimeSource


@dataclass(frozen=True, slots=True, kw_only=True)
class LabelHistory:
    """What the repository says about when each label was added.

    `repository` is False when the catalogue has no git history to read; `reason` then says why, in words
    for the changelog page, unless it is the plain case of a folder outside any repository (""). `added`
    holds, under each label's slug (its file's name), the labels whose file is committed; a label missing
    from it (in a repository) is not committed yet."""

    repository: bool
    reason: str = ""
    added: Mapping[str, Added] = field(default_factory=dict)
    shallow: bool = False
    build: BuildTime
    warnings: tuple[str, ...] = ()
    """Commits whose date was ignored (outside the years 1970-9999 in UTC), each in one line."""
    changed: Mapping[str, Added] = field(default_factory=dict)
    """Under each label's slug, the latest commit that changed its file (its addition when no later commit did):
    when what the label states last changed in the history, which a feed reader needs to show it again."""

    def date_of(self, slug: str) -> datetime:
        """The date an entry of the label with this slug carries: its addition, else the build's date."""
        found = self.added.get(slug)
        return found.when if found is not None else self.build.when

    def changed_on(self, slug: str) -> datetime:
        """When the label's file last changed in the history: its latest commit, else its addition's date."""
        found = self.changed.get(slug)
        return found.when if found is not None else self.date_of(slug)

    def stamp(self) -> str:
        """What of the history the changelog's pages depend on, for the preview's page keys (the build time
        aside: the render adds it where it is shown)."""
        digest = hashlib.sha256(f"{self.repository}\0{self.reason}\0{self.shallow}".encode())
        for kind, dates in (("added", self.added), ("changed", self.changed)):
            for slug in sorted(dates):
                a = dates[slug]
                digest.update(f"\0{kind}\0{slug}\0{a.when.isoformat()}\0{a.commit}\0{a.known}".encode())
        return digest.hexdigest()


@cache
def _started() -> datetime:
    """The clock, read once per process (to the second)."""
    return datetime.fromtimestamp(int(time.time()), UTC)


def build_time() -> BuildTime:
    """SOURCE_DATE_EPOCH (the reproducible-builds convention) when it is set to a whole number of seconds, else
    the time this process first asked: one build, one date, however many renders a long preview runs."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return BuildTime(when=datetime.fromtimestamp(int(epoch), UTC), source="SOURCE_DATE_EPOCH")
    return BuildTime(when=_started(), source="clock")


def no_history(reason: str = "") -> LabelHistory:
    """The history of a catalogue that has none, with the reason the page gives ("": it is in no repository)."""
    return LabelHistory(repository=False, reason=reason, build=build_time())


def _in_git_work_tree(folder: Path) -> bool:
    """Whether a `.git` entry (a folder, or the file of a linked worktree) sits in `folder` or above: a
    catalogue outside any repository costs no process start."""
    here = folder.resolve()
    return any((parent / ".git").exists() for parent in (here, *here.parents))


def _git_env() -> dict[str, str]:
    """The environment without GIT_* variables, so git reads the repository the catalogue is in, and no
    other (GIT_DIR, GIT_WORK_TREE...), with untranslated messages."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["LC_ALL"] = "C"
    return env


def _run_git(catalog_dir: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", "--no-pager", "-c", "log.showSignature=false", "-C", str(catalog_dir), *args],
        capture_output=True, env=_git_env(), timeout=GIT_TIMEOUT_S, check=False, stdin=subprocess.DEVNULL,
    )


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip().splitlines()
    return text[0][:200] if text else "no message"


EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
"""Commit dates before this, or after the year 9999 in UTC, are ignored (git accepts both; Python's datetime and
the feed's RFC 3339 dates cannot hold every one of them)."""


def _commit_time(text: str) -> datetime | None:
    """The committer date in UTC, or None when it is not a date with an offset, or is outside 1970-9999 in UTC
    (`9999-12-31T23:00:00-01:00` is in the year 10000 in UTC)."""
    try:
        when = datetime.fromisoformat(text)
        if when.tzinfo is None:
            return None
        when = when.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    return when if when >= EARLIEST else None


def _commits(output: bytes, shallow: bool, warnings: list[str] | None) -> Iterator[tuple[Added, list[str]]]:
    """Each commit of `git log -z --name-only --relative` output (newest first; each commit as RS hash US
    committer-date US parents NUL, then its file names, each ending in NUL) with the label slugs whose version file
    it touched (`versions/<slug>.yaml` -> slug). A record or name of another shape is skipped: it dates nothing,
    and a name is only ever a key to look a label's slug up by, never a path. A commit whose date is outside
    1970-9999 in UTC is skipped too, with a line in `warnings`."""
    for record in output.decode("utf-8", "replace").split("\x1e")[1:]:
        head, _, names = record.partition("\0")
        fields = head.split("\x1f")
        if len(fields) != 3 or not _HASH.fullmatch(fields[0]) or not (fields[2] == "" or _PARENTS.fullmatch(fields[2])):
            continue
        when = _commit_time(fields[1])
        if when is None:
            if warnings is not None:
                warnings.append(f"commit {fields[0][:12]} is dated {for_terminal(fields[1][:40])!r}, outside the "
                                "years 1970-9999 in UTC: its date is ignored, and the labels it added are dated by "
                                "the next commit that has them")
            continue
        known: Known = "boundary" if shallow and not fields[2] else "commit"
        slugs = [m.group(1) for name in names.split("\0") if (m := _VERSION_FILE.fullmatch(name.strip("\n")))]
        yield Added(when=when, commit=fields[0], known=known), slugs


def parse_log(output: bytes, *, shallow: bool, warnings: list[str] | None = None) -> dict[str, Added]:
    """The oldest commit of each version file in `git log` output (see `_commits`), under its slug: its addition
    (a commit whose date is unusable is skipped: its files are dated by the next commit that has them)."""
    found: dict[str, Added] = {}
    for commit, slugs in _commits(output, shallow, warnings):
        for slug in slugs:  # older commits come later: the last one seen is the first appearance
            found[slug] = commit
    return found


def parse_changes(output: bytes, *, shallow: bool) -> dict[str, Added]:
    """The newest commit of each version file in `git log` output (see `_commits`), under its slug: the last
    change of what that label states."""
    found: dict[str, Added] = {}
    for commit, slugs in _commits(output, shallow, None):
        for slug in slugs:  # newest first: the first one seen is the latest change
            found.setdefault(slug, commit)
    return found


def label_history(catalog_dir: Path) -> LabelHistory:
    """When each version file was first committed under `catalog_dir`, from one `git log`; a LabelHistory
    without a repository (and why) when there is no history to read."""
    if not _in_git_work_tree(catalog_dir):
        return no_history("")
    try:
        probe = _run_git(catalog_dir, "rev-parse", "--is-inside-work-tree", "--is-shallow-repository")
        if probe.returncode != 0:
            return no_history(f"git could not read it: {_first_line(probe.stderr)}")
        answers = probe.stdout.decode("ascii", "replace").split()
        if answers[:1] != ["true"]:
            return no_history("it is not in a git work tree")
        shallow = answers[1:2] == ["true"]
        # Every commit that touched versions/, not only the additions: a file's oldest is its addition, and when
        # that one's date is unusable, the next one dates it.
        log = _run_git(catalog_dir, "log", "--no-renames", "-z", "--name-only", "--relative",
                       "--format=%x1e%H%x1f%cI%x1f%P", "--", "versions")
    except FileNotFoundError:
        return no_history("git is not installed")
    except (OSError, subprocess.SubprocessError) as exc:
        return no_history(f"git could not be run: {exc}")
    if log.returncode != 0:
        # A repository without a commit yet: every label is not committed, which is a fact, not a failure.
        if b"does not have any commits" in log.stderr:
            return LabelHistory(repository=True, shallow=shallow, build=build_time())
        return no_history(f"git could not read it: {_first_line(log.stderr)}")
    warnings: list[str] = []
    added = parse_log(log.stdout, shallow=shallow, warnings=warnings)
    return LabelHistory(repository=True, added=added, shallow=shallow, build=build_time(), warnings=tuple(warnings),
                        changed=parse_changes(log.stdout, shallow=shallow))
