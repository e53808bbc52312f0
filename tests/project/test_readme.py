"""The README is a user's page: short, and its exit-code table says what every command really does."""

from __future__ import annotations

import re

from catalog_docs import cli
from catalog_docs.errors import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from sitebuild import ROOT

README = ROOT / "README.md"


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def test_the_readme_is_at_most_200_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def test_the_exit_code_table_has_a_row_for_every_command_and_a_column_for_each_code() -> None:
    section = _section(README.read_text(encoding="utf-8"), "### Exit codes")
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert header == ["Command", str(EXIT_OK), str(EXIT_INVALID), str(EXIT_USAGE)]
    commands = {m.group(1) for row in rows[1:] if (m := re.match(r"\| `([a-z-]+)` \|", row))}
    assert commands == set(cli.sub_commands(cli.build_parser()).choices)
    # The codes every command shares beyond the three: each named in the prose under the table.
    prose = section.split(rows[-1], 1)[1]
    for code in (cli.EXIT_INTERRUPTED, cli.EXIT_BROKEN_PIPE):
        assert re.search(rf"\b{code}\b", prose), code
