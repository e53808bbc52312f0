"""The command line as a user meets it: the catalogue found the same way from any folder, one set of exit
codes, --version and help, and `new-label` (on fake catalogues)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

from catalog_docs import cli, writing
from catalog_docs.catalog.validate import load_catalog
from fake_catalogs import FAKE_SPECS, write_catalog

BIN = Path(sys.executable).parent
SPEC = FAKE_SPECS["plans-come-and-go"]  # labels FAKE 1.0, FAKE 2.0, FAKE 3.0


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with a fake catalogue and a few sub-folders to run from."""
    root = tmp_path / "project"
    write_catalog(root / "catalog", SPEC)
    (root / "mkdocs.yml").write_text("site_name: Fake\n", encoding="utf-8")  # build and watch need a project
    (root / "notes" / "deep").mkdir(parents=True)
    return root


def label_values(catalog: Path, label: str) -> dict[str, dict[str, str]]:
    version = next(v for v in load_catalog(catalog).versions if v.label == label)
    data = yaml.safe_load((catalog / "versions" / f"{version.slug}.yaml").read_text(encoding="utf-8"))
    return {plan: body["values"] for plan, body in data["plans"].items()}


# --- finding the catalogue -----------------------------------------------------------------------------

@pytest.mark.parametrize("where", [".", "notes/deep", "catalog", "catalog/versions"])
def test_every_command_finds_the_catalogue_from_any_folder(capsys: pytest.CaptureFixture[str], project: Path,
                                                          monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    monkeypatch.chdir(project / where)
    code, out, err = run(capsys, "check")
    assert code == 0 and "3 version labels" in out, err
    code, out, err = run(capsys, "export", "--format", "json")
    assert code == 0 and [v["label"] for v in json.loads(out)["versions"]] == ["FAKE 1.0", "FAKE 2.0", "FAKE 3.0"]
    code, out, err = run(capsys, "diff", "FAKE 1.0", "FAKE 2.0", "--exit-code")
    assert code == 1 and out.startswith("FAKE 1.0 -> FAKE 2.0"), err
    out_dir = os.path.relpath(project / "notes" / "rendered", project / where)  # never into catalog/
    code, out, err = run(capsys, "render", "--out", out_dir)
    assert code == 0, err
    assert (project / "notes" / "rendered" / "versions" / "FAKE-2.0.md").is_file()
    assert not (project / "docs").exists()
    (project / "site").mkdir()
    code, out, err = run(capsys, "clean")
    assert code == 0 and not (project / "site").exists(), err
    assert (project / "notes" / "rendered" / "versions" / "FAKE-2.0.md").is_file()  # not the tool's build folder


def test_render_of_a_named_catalogue_writes_where_it_is_told(
        capsys: pytest.CaptureFixture[str], project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    write_catalog(other / "catalog", FAKE_SPECS["relisted"])
    monkeypatch.chdir(project / "notes")
    code, out, err = run(capsys, "render", "--catalog", "../../other/catalog", "--out", "pages")
    assert code == 0, err
    assert out.startswith("rendered ") and out.rstrip().endswith("into pages"), out
    assert (project / "notes" / "pages" / "index.md").is_file()
    assert not (project / "docs").exists() and not (other / "docs").exists()


def test_the_console_script_from_a_sub_folder(project: Path) -> None:
    result = subprocess.run([str(BIN / "catalog-docs"), "check"], cwd=project / "catalog" / "versions",
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "3 version labels" in result.stdout, result.stderr


@pytest.mark.parametrize("argv", [["check"], ["render", "--out", "x"], ["export", "--format", "csv"],
                                  ["diff", "A", "B"], ["new-label", "FAKE 9", "--from", "FAKE 1.0"], ["build"]])
def test_outside_any_project_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("catalog-docs: error: no catalog/ folder in ") and "--catalog DIR" in err


def test_a_named_catalogue_that_is_missing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", "--catalog", str(tmp_path / "nothing"))
    assert code == 2 and "no such catalogue folder" in err


# --- exit codes ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["check"], ["render", "--out", "rendered"], ["build"],
                                  ["export", "--format", "json"], ["diff", "FAKE 1.0", "FAKE 2.0", "--exit-code"],
                                  ["new-label", "FAKE 9", "--from", "FAKE 1.0"]])
def test_an_invalid_catalogue_exits_1_in_every_command(capsys: pytest.CaptureFixture[str], project: Path,
                                                       monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    (project / "catalog" / "listing.yaml").write_text("source: '§4'\nentries: 7\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in (project / "catalog").rglob("*") if p.is_file()}
    monkeypatch.chdir(project / "notes")
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith("../catalog/listing.yaml:2:10: ") and "expected a list" in err  # relative to the cwd
    assert {p: p.read_bytes() for p in (project / "catalog").rglob("*") if p.is_file()} == before


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["no-such-command"])
    assert exc.value.code == 2
    code, _, err = run(capsys, "diff", "NOPE", "FAKE 1.0", "--catalog", str(project / "catalog"))
    assert code == 2 and "unknown version label 'NOPE'" in err


# One row per command: its arguments when all is well, its exit code on an invalid catalogue, and arguments
# that are a usage or environment error (a bad argument, or a path under a regular file, which no user can
# write to, root included). clean and synth never read the catalogue; watch keeps serving and shows the
# errors on every page, and exits with its server's code.
SERVER = [sys.executable, "-c", "pass"]
COMMANDS = {
    "check": (["check"], 1, ["check", "--catalog", "no-such-folder"]),
    "render": (["render", "--out", "rendered"], 1, ["render", "--out", "blocker/docs"]),
    "build": (["build", "--", *SERVER], 1, ["build", "--catalog", "no-such-folder", "--", *SERVER]),
    "watch": (["watch", "--", *SERVER], 0, ["watch", "--catalog", "no-such-folder", "--", *SERVER]),
    "clean": (["clean"], 0, ["clean", "--out", "blocker/docs"]),
    "diff": (["diff", "FAKE 1.0", "FAKE 2.0"], 1, ["diff", "NOPE", "FAKE 1.0"]),
    "export": (["export", "--format", "csv"], 1, ["export", "--format", "csv", "--out", "blocker/x.csv"]),
    "new-label": (["new-label", "FAKE 9.0", "--from", "FAKE 3.0"], 1, ["new-label", "FAKE 9.0", "--from", "NOPE"]),
    "synth": (["synth", "--operations", "2", "--versions", "1", "--plans", "1", "--out", "made"], 0,
              ["synth", "--operations", "2", "--versions", "1", "--plans", "1", "--out", "blocker/made"]),
}


def exit_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    """The exit code, argparse's included, and stderr."""
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def test_the_exit_code_table_lists_every_command() -> None:
    parser = cli.build_parser()
    assert set(COMMANDS) == set(cli.sub_commands(parser).choices)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_exit_codes_of_each_command(capsys: pytest.CaptureFixture[str], project: Path,
                                    monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    ok, on_invalid, bad = COMMANDS[command]
    monkeypatch.chdir(project)
    (project / "blocker").write_text("a file where a folder would go\n", encoding="utf-8")
    code, err = exit_of(capsys, ok)
    assert code == 0, err
    code, err = exit_of(capsys, bad)
    assert code == 2, err
    assert err.endswith("\n") and "Traceback" not in err
    assert err.splitlines()[-1].startswith(("catalog-docs: error: ", "usage: ", "catalog-docs ")), err
    (project / "catalog" / "listing.yaml").write_text("source: '\u00a74'\nentries: 7\n", encoding="utf-8")
    if command == "new-label":
        (project / "catalog" / "versions" / "FAKE-9.0.yaml").unlink()  # made by the first run
        edited = (project / "catalog" / "service.yaml").read_text(encoding="utf-8").replace("- FAKE 9.0\n", "")
        (project / "catalog" / "service.yaml").write_text(edited, encoding="utf-8")
    code, err = exit_of(capsys, ok)
    assert code == on_invalid, err
    if on_invalid == 1:
        assert "listing.yaml:2:10: " in err and err.endswith("\n")


def test_an_argument_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["no-such-command"], ["synth", "--operations", "0", "--versions", "1", "--plans", "1",
                                       "--out", "x"], ["export"], ["diff", "--format", "yaml"]):
        code, err = exit_of(capsys, argv)
        assert code == 2 and "usage: " in err, argv


def unprivileged(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the console script as a user who cannot read a mode-000 file (root can: it runs as nobody)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: a mode-000 file stays readable")
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    return subprocess.run([*prefix, str(BIN / "catalog-docs"), *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "HOME": str(cwd)})


def test_check_and_render_agree_on_an_unreadable_file() -> None:
    root = Path(tempfile.mkdtemp(prefix="catalog-docs-unreadable-"))  # not under pytest's 0700 folder
    try:
        root.chmod(0o777)
        write_catalog(root / "catalog", SPEC)
        for path in [root / "catalog", *(root / "catalog").rglob("*")]:
            path.chmod(0o777 if path.is_dir() else 0o644)
        (root / "catalog" / "listing.yaml").chmod(0)
        check = unprivileged(["check"], root)
        render = unprivileged(["render", "--out", "rendered"], root)
        assert (check.returncode, render.returncode) == (1, 1), (check.stderr, render.stderr)
        assert check.stderr == render.stderr
        assert check.stderr.startswith("catalog/listing.yaml:1:1: (file): expected a readable file, found ")
        assert not (root / "rendered").exists()
    finally:
        shutil.rmtree(root)


def test_export_makes_its_folder_and_writes_whole(capsys: pytest.CaptureFixture[str], project: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    code, err = exit_of(capsys, ["export", "--format", "openapi", "--out", "build/deeper/openapi.yaml"])
    assert code == 0 and err == f"wrote {Path('build', 'deeper', 'openapi.yaml')}\n"
    written = project / "build" / "deeper" / "openapi.yaml"
    assert yaml.safe_load(written.read_text(encoding="utf-8"))["openapi"].startswith("3.1")
    assert oct(written.stat().st_mode & 0o777) == oct(0o666 & ~current_umask())
    assert [p.name for p in written.parent.iterdir()] == ["openapi.yaml"]  # no temporary file left


def test_export_that_fails_leaves_the_old_file_whole(capsys: pytest.CaptureFixture[str], project: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    target = project / "out.csv"
    target.write_text("the old file\n", encoding="utf-8")

    def full_disk(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing.os, "rename", full_disk)
    code, err = exit_of(capsys, ["export", "--format", "csv", "--out", "out.csv"])
    assert code == 2 and err == "catalog-docs: error: cannot write the export: out.csv: No space left on device\n"
    assert target.read_text(encoding="utf-8") == "the old file\n"
    assert sorted(p.name for p in project.iterdir()) == ["catalog", "mkdocs.yml", "notes", "out.csv"]


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# --- help and version ----------------------------------------------------------------------------------

def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"catalog-docs {version('catalog-docs')}"


def test_every_command_has_a_description_and_the_exit_codes() -> None:
    parser = cli.build_parser()
    top = parser.format_help()
    assert "exit codes (the same for every command):" in top and "catalog/" in top
    group = cli.sub_commands(parser)
    listed = {choice.dest for choice in group._choices_actions}
    assert listed == set(group.choices) == {"check", "render", "build", "watch", "clean", "new-label", "diff", "export",
                                                         "synth"}
    for name, sub in group.choices.items():
        assert sub.description and len(sub.description) > 40, name
        assert all(choice.help for choice in group._choices_actions), name
        text = sub.format_help()
        for code in ("0  done", "1  the catalogue is invalid", "2  usage or environment error"):
            assert code in text, (name, code)


# --- new-label -----------------------------------------------------------------------------------------

SERVICE_COMMENTS = "# Head comment kept.\n"


def add_comments(catalog: Path) -> str:
    """Give service.yaml comments (including inside version_labels) and return its text."""
    service = catalog / "service.yaml"
    text = service.read_text(encoding="utf-8")
    text = SERVICE_COMMENTS + text.replace("version_labels:\n", "version_labels:  # oldest first\n")
    text = text.replace("- FAKE 2.0\n", "- FAKE 2.0  # the middle one\n")
    service.write_text(text, encoding="utf-8")
    return text


def test_new_label_copies_the_values_and_lists_the_label_in_order(capsys: pytest.CaptureFixture[str],
                                                                   project: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = project / "catalog"
    before = add_comments(catalog)
    monkeypatch.chdir(project / "notes" / "deep")
    code, out, err = run(capsys, "new-label", "FAKE 2.5", "--from", "FAKE 2.0")
    assert code == 0, err
    assert "versions/FAKE-2.5.yaml" in out and "after 'FAKE 2.0'" in out
    assert label_values(catalog, "FAKE 2.5") == label_values(catalog, "FAKE 2.0")
    assert [v.label for v in load_catalog(catalog).versions] == ["FAKE 1.0", "FAKE 2.0", "FAKE 2.5", "FAKE 3.0"]
    after = (catalog / "service.yaml").read_text(encoding="utf-8")
    # Exactly one line added, indented like its neighbours; every comment and other line as it was.
    assert after.splitlines() == [*before.splitlines()[:before.splitlines().index("- FAKE 2.0  # the middle one") + 1],
                                  "- FAKE 2.5",
                                  *before.splitlines()[before.splitlines().index("- FAKE 3.0"):]]
    new_text = (catalog / "versions" / "FAKE-2.5.yaml").read_text(encoding="utf-8")
    assert "label: FAKE 2.5\n" in new_text and "Scaffolded by `catalog-docs new-label` from FAKE 2.0" in new_text


def test_new_label_goes_last_and_keeps_a_flow_list(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    catalog = project / "catalog"
    service = catalog / "service.yaml"
    text = service.read_text(encoding="utf-8")
    block = "version_labels:\n- FAKE 1.0\n- FAKE 2.0\n- FAKE 3.0\n"
    assert block in text
    service.write_text(text.replace(block, "version_labels: [FAKE 1.0, FAKE 2.0, FAKE 3.0]  # kept\n"),
                       encoding="utf-8")
    code, _, err = run(capsys, "new-label", "FAKE 10.0", "--from", "FAKE 3.0", "--catalog", str(catalog))
    assert code == 0, err
    assert "version_labels: [FAKE 1.0, FAKE 2.0, FAKE 3.0, FAKE 10.0]  # kept\n" in service.read_text(encoding="utf-8")
    assert [v.label for v in load_catalog(catalog).versions][-1] == "FAKE 10.0"


def test_a_name_yaml_would_read_as_a_number_is_quoted(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    catalog = project / "catalog"
    code, _, err = run(capsys, "new-label", "4.0", "--from", "FAKE 1.0", "--catalog", str(catalog))
    assert code == 0, err
    assert "4.0" in [v.label for v in load_catalog(catalog).versions]
    assert 'label: "4.0"\n' in (catalog / "versions" / "4.0.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("new", "old", "message"), [
    ("FAKE 2.0", "FAKE 1.0", "'FAKE 2.0' is already a version label"),
    ("fake 2.0", "FAKE 1.0", "'fake 2.0' reads the same as the version label 'FAKE 2.0' at "),
    ("FAKE-2.0", "FAKE 1.0", "'FAKE-2.0' would have the same page URL as 'FAKE 2.0'"),
    ("FAKE/2", "FAKE 1.0", "'FAKE/2' is not a valid version label name: expected a name of letters"),
    (" FAKE 4", "FAKE 1.0", "is not a valid version label name"),
    ("Index", "FAKE 1.0", "would take the URL of the versions index page"),
    ("FAKE 4.0", "FAKE 9.9", "--from 'FAKE 9.9' is not a version label; labels: 'FAKE 1.0', 'FAKE 2.0', 'FAKE 3.0'"),
])
def test_new_label_refuses_a_clash_or_a_bad_name(capsys: pytest.CaptureFixture[str], project: Path, new: str,
                                                 old: str, message: str) -> None:
    catalog = project / "catalog"
    before = {p: p.read_bytes() for p in catalog.rglob("*") if p.is_file()}
    code, out, err = run(capsys, "new-label", new, "--from", old, "--catalog", str(catalog))
    assert code == 2 and out == ""
    assert err.startswith("catalog-docs: error: ") and message in err, err
    assert {p: p.read_bytes() for p in catalog.rglob("*") if p.is_file()} == before


def test_new_label_refuses_a_stray_file_of_that_name(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    catalog = project / "catalog"
    (catalog / "versions" / "FAKE-4.0.yaml").write_text("# someone's draft\n", encoding="utf-8")
    code, _, err = run(capsys, "new-label", "FAKE 4.0", "--from", "FAKE 1.0", "--catalog", str(catalog))
    # The stray file already makes the catalogue invalid (it names no label), so nothing is scaffolded.
    assert code == 1 and "FAKE-4.0.yaml" in err
    assert (catalog / "versions" / "FAKE-4.0.yaml").read_text(encoding="utf-8") == "# someone's draft\n"


def test_new_label_puts_both_files_back_when_the_result_does_not_load(capsys: pytest.CaptureFixture[str],
                                                                      project: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from catalog_docs.catalog import validate
    from catalog_docs.errors import CatalogInvalid, Problem

    catalog = project / "catalog"
    before = {p: p.read_bytes() for p in catalog.rglob("*") if p.is_file()}
    real = validate.load_catalog
    calls: list[Path] = []

    def second_load_fails(folder: Path):
        calls.append(folder)
        if len(calls) == 1:
            return real(folder)
        assert (catalog / "versions" / "FAKE-4.0.yaml").is_file()  # the scaffold was written, then checked
        raise CatalogInvalid([Problem(file="service.yaml", line=1, column=1, key_path="x", expected="y",
                                      found="z")])

    monkeypatch.setattr(validate, "load_catalog", second_load_fails)
    code, out, err = run(capsys, "new-label", "FAKE 4.0", "--from", "FAKE 1.0", "--catalog", str(catalog))
    assert code == 1 and out == "" and "service.yaml:1:1: x: expected y, found z" in err
    assert len(calls) == 2
    assert {p: p.read_bytes() for p in catalog.rglob("*") if p.is_file()} == before


# --- output to a pipe and a terminal -------------------------------------------------------------------

def test_a_reader_that_closes_the_pipe_early_gets_no_traceback(project: Path) -> None:
    # `catalog-docs diff ... | head`: the reader is gone before the output is written. A pipe whose read end
    # is already closed makes that certain (with a live `head`, whether the write fails depends on timing).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([str(BIN / "catalog-docs"), "diff", "FAKE 1.0", "FAKE 3.0"], cwd=project,
                                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert result.stderr == "", result.stderr
    assert result.returncode == cli.EXIT_BROKEN_PIPE


def test_diff_text_never_prints_raw_control_characters(tmp_path: Path) -> None:
    # Text from a git revision is loaded with the same rules, but the terminal formatter must not rely on it:
    # a label carrying ESC and a right-to-left override is shown escaped.
    import dataclasses

    from catalog_docs.compare.changes import compare_sides, parse_side
    from catalog_docs.compare.formats import format_text

    catalog = load_catalog(write_catalog(tmp_path / "catalog", SPEC))
    hostile = dataclasses.replace(catalog.versions[0], label="FAKE \x1b[31m1.0\u202e")
    catalog = dataclasses.replace(catalog, versions=(hostile, *catalog.versions[1:]))
    text = format_text(compare_sides(catalog, parse_side(hostile.label, catalog), parse_side("FAKE 2.0", catalog)))
    assert "\\x1b[31m1.0\\u202e" in text
    assert "\x1b" not in text and "\u202e" not in text
