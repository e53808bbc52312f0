"""The package works however it is installed: a wheel built from the tracked files carries what the package
reads (templates, the catalogue's and the downloads' JSON Schemas), and a fresh virtual environment with only
that wheel (its dependencies taken from the project's own environment, offline) runs `check`, `render` and
`diff` on a catalogue that lies outside any checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

import fixture_facts as ff

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # builds a wheel and a fresh virtual environment


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    for rel in filter(None, listed.split("\0")):
        if rel.startswith("catalog/") and not rel.startswith("catalog/schema/"):
            continue  # the catalogue's data is not part of the package (and tests do not read it: tests/guards.py)
        # As a checkout has them: files, and links as links (the package's catalog/schemas is a link to the
        # catalogue's schema/ folder, the one copy git holds).
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).is_symlink() and not (ROOT / rel).readlink().is_absolute():
            (source / rel).symlink_to((ROOT / rel).readlink())
        elif (ROOT / rel).is_file():
            shutil.copy2(ROOT / rel, source / rel)
    out = tmp_path_factory.mktemp("dist")
    # The build backend pyproject.toml names, asked for a wheel through its PEP 517 hook, as `pip wheel
    # --no-build-isolation` asks it (the same wheel, byte for byte), without pip's own start-up around it.
    backend = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["build-backend"]
    build = "import importlib, sys; importlib.import_module(sys.argv[1]).build_wheel(sys.argv[2])"
    done = subprocess.run([sys.executable, "-c", build, backend, str(out)], cwd=source, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    [built] = out.glob("catalog_docs-*.whl")
    return built


def test_the_wheel_carries_what_the_package_reads(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    package = ROOT / "scripts"
    for pattern in ("catalog_docs/site/templates/*.j2", "catalog_docs/catalog/schemas/*.json",
                    "catalog_docs/schemas/*.json"):
        wanted = {p.relative_to(package).as_posix() for p in package.glob(pattern)}
        assert wanted and wanted <= names, f"{pattern}: missing {sorted(wanted - names)}"


def test_the_wheel_carries_the_catalogue_schemas_as_files(wheel: Path) -> None:
    """Git holds the catalogue's JSON Schemas once, in catalog/schema/ (the package links to it); the wheel holds
    them as files of their own, byte for byte the same."""
    editors = ROOT / "catalog" / "schema"
    with zipfile.ZipFile(wheel) as built:
        shipped = {Path(i.filename).name: i for i in built.infolist()
                   if i.filename.startswith("catalog_docs/catalog/schemas/")}
        assert sorted(shipped) == sorted(p.name for p in editors.glob("*.json"))
        for name, info in shipped.items():
            assert (info.external_attr >> 16) & 0o170000 in (0, 0o100000), f"{name} is not a plain file in the wheel"
            assert built.read(info) == (editors / name).read_bytes(), name


def test_an_installed_wheel_checks_renders_and_diffs_a_catalogue_anywhere(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    # Without a pip of its own (ensurepip would install one, most of this test's processor time): the project's
    # pip, reached through the path entry below like every other dependency, installs the wheel into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True,
                   timeout=120)
    py = venv / "bin" / "python"
    # The dependencies come from the project's environment (no network): a path entry, not a site folder, so
    # the editable install of this checkout that it also holds is not activated.
    pure = Path(sysconfig.get_paths()["purelib"])
    target = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 capture_output=True, text=True, check=True).stdout.strip())
    (target / "project-deps.pth").write_text(f"{pure}\n", encoding="utf-8")
    done = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True, timeout=300, env={k: v for k, v in os.environ.items()
                                                                             if k != "PYTHONPATH"})
    assert done.returncode == 0, done.stdout + done.stderr

    # Nothing of this checkout on the path (a test run inside a project copy sets PYTHONPATH to its scripts/).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(ff.FIXTURE_CATALOG, elsewhere / "catalog")
    exe = str(venv / "bin" / "catalog-docs")
    where = subprocess.run([str(py), "-c", "import catalog_docs; print(catalog_docs.__file__)"], cwd=elsewhere,
                           capture_output=True, text=True, check=True, env=env).stdout
    assert where.startswith(str(venv)), where  # the wheel's copy, not this checkout

    check = subprocess.run([exe, "check"], cwd=elsewhere, capture_output=True, text=True, timeout=120, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"{ff.LISTING_SIZE} listing entries" in check.stdout

    render = subprocess.run([exe, "render", "--out", "pages"], cwd=elsewhere, capture_output=True, text=True,
                            timeout=300, env=env)
    assert render.returncode == 0, render.stdout + render.stderr
    assert (elsewhere / "pages" / "index.md").is_file()
    assert (elsewhere / "pages" / "downloads" / "catalog.schema.json").is_file()

    first, second = ff.LABELS[0], ff.LABELS[1]
    diff = subprocess.run([exe, "diff", first, second, "--format", "json"], cwd=elsewhere, capture_output=True,
                          text=True, timeout=120, env=env)
    assert diff.returncode == 0, diff.stdout + diff.stderr
    assert '"format": "catalog-docs-diff"' in diff.stdout
