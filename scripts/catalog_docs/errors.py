"""The one exception family for everything a user can cause."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catalog_docs.escape import for_terminal


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """One located catalogue error: where, which key, what was expected, what was found, and a hint."""

    file: str
    line: int
    column: int
    key_path: str
    expected: str
    found: str
    hint: str = ""

    def __str__(self) -> str:
        hint = f" ({self.hint})" if self.hint else ""
        # File names, key paths and found values quote the input: never send its control characters raw.
        return for_terminal(f"{self.file}:{self.line}:{self.column}: {self.key_path}: expected {self.expected}, "
                            f"found {self.found}{hint}")


EXIT_OK = 0
EXIT_INVALID = 1
"""The catalogue does not load (the working tree's or a revision's), or `diff --exit-code` found differences."""
EXIT_USAGE = 2
"""Bad arguments or environment: an unknown label or revision, a refused revision, a file that cannot be
written (argparse exits 2 on bad arguments too)."""


class CatalogDocsError(Exception):
    """Base class for every error a user can cause (bad input, bad arguments, bad environment)."""

    exit_code: ClassVar[int] = EXIT_USAGE

    def __str__(self) -> str:
        # Messages quote paths, labels and arguments: one terminal line, its controls shown escaped.
        return for_terminal(super().__str__())

    def report(self) -> str:
        """What the command line prints on stderr: lines without their final newline, controls escaped."""
        return f"catalog-docs: error: {self}"


class CatalogInvalid(CatalogDocsError):
    """The catalogue did not load; carries every problem found."""

    exit_code = EXIT_INVALID

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.file, p.line, p.column, p.key_path))
        super().__init__(f"{len(self.problems)} errors")

    def report(self) -> str:
        """Every problem on its own line, then the count."""
        lines = [str(p) for p in self.problems]
        n = len(self.problems)
        lines.append(f"{n} error" if n == 1 else f"{n} errors")
        return "\n".join(lines)
