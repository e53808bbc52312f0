"""The complexity limit of `make lint`: no function of the package above cyclomatic complexity 15, as radon counts.

ruff's C90 counts branches the way mccabe does; radon also counts each boolean operator and comprehension
condition, which is the measure the project's limit is stated in. Prints each function over the limit as
`file:line: name (complexity)` and exits 1 when there is one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from radon.complexity import cc_visit  # type: ignore[import-untyped]  # radon has no py.typed nor stub package

LIMIT = 15


def over_limit(paths: Sequence[Path], limit: int = LIMIT) -> Iterator[str]:
    """Yield `file:line: name (complexity)` for every function or method above `limit` under `paths`."""
    for root in paths:
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for file in files:
            for block in cc_visit(file.read_text(encoding="utf-8")):
                if block.complexity > limit:
                    yield f"{file}:{block.lineno}: {block.fullname} ({block.complexity})"


def main(argv: Sequence[str] | None = None) -> int:
    """Check the folders or files named on the command line; exit 1 when a function is over the limit."""
    args = list(sys.argv[1:] if argv is None else argv)
    found = list(over_limit([Path(a) for a in args or ["scripts/catalog_docs"]]))
    for line in found:
        print(line)
    print(f"{len(found)} functions above complexity {LIMIT}" if found else f"no function above complexity {LIMIT}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
