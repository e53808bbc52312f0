"""`make bench`'s figure for the render as issue 41 sets it: a cold `catalog-docs render --out` against a bare PyYAML
C parse of the same files, timed back to back in each round."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalog_docs.devtools import bench
from catalog_docs.devtools.bench import BIN, Report, _bench_cli_render
from fixture_facts import FIXTURE_CATALOG


class _Rounds:
    """Stands in for the bench's two clocks: the bare parse (`_timed`, run in process) and the command (`_run`, a new
    process), each answering its next known wall time; records the order they were asked in."""

    def __init__(self, parses: list[float], commands: list[tuple[float, bool]]) -> None:
        self.parses, self.commands, self.asked = parses, commands, []  # type: list[str]
        self.outs: list[str] = []

    def timed(self, fn: Callable[[], Any]) -> tuple[Any, float, float]:
        self.asked.append("parse")
        return fn(), self.parses.pop(0), 0.0

    def run(self, cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, bool, str]:
        self.asked.append(cmd[1])
        assert cmd[:2] == [str(BIN / "catalog-docs"), "render"], cmd  # the command a maintainer runs, cold
        assert cmd[cmd.index("--catalog") + 1] == str(FIXTURE_CATALOG), cmd
        self.outs.append(cmd[cmd.index("--out") + 1])
        wall, ok = self.commands.pop(0)
        return wall, 0.0, ok, "" if ok else "catalog-docs: error: something"


def test_the_cold_render_ratio_is_the_median_of_back_to_back_rounds(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Each round parses, then renders in a new process; the figure is the median of the rounds' ratios (not the
    ratio of medians), the rounds printed beside it, the command's median time its own row."""
    clock = _Rounds([0.5, 1.0, 0.25], [(2.0, True), (6.0, True), (2.5, True)])
    monkeypatch.setattr(bench, "_timed", clock.timed)
    monkeypatch.setattr(bench, "_run", clock.run)
    report = Report()
    (tmp_path / "docs-cold-1").mkdir()  # a folder an earlier run left: render --out writes only into an empty one
    _bench_cli_render(report, "case", tmp_path, FIXTURE_CATALOG, 3)
    assert clock.asked == ["parse", "render"] * 3
    # each round into a folder of its own, every one removed afterwards
    assert clock.outs == [str(tmp_path.resolve() / f"docs-cold-{i}") for i in range(3)]
    assert not list(tmp_path.glob("docs-cold*"))
    row = next(r for r in report.rows if r["metric"] == "cli_render_cold_vs_yaml_parse")
    assert row["rounds"] == [[2.0, 0.5], [6.0, 1.0], [2.5, 0.25]]
    assert row["value"] == 6.0  # the ratios 4, 6 and 10; the ratio of medians would be 5
    assert "goal <= 5" in row["note"]
    assert report.get("case", "cli_render_cold_s") == 2.5


def test_a_failed_cold_render_is_reported_with_its_output_and_no_ratio(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Rounds([0.5, 0.5], [(2.0, True), (1.0, False)])
    monkeypatch.setattr(bench, "_timed", clock.timed)
    monkeypatch.setattr(bench, "_run", clock.run)
    report = Report()
    _bench_cli_render(report, "case", tmp_path, FIXTURE_CATALOG, 3)
    assert clock.asked == ["parse", "render"] * 2  # no round after the failure
    row = next(r for r in report.rows if r["metric"] == "cli_render_cold_s")
    assert row["value"] == "failed" and "something" in row["output"]
    assert "cli_render_cold_vs_yaml_parse" not in {r["metric"] for r in report.rows}

