"""The package's folders are its pipeline: each stage imports only the stages before it, no two modules import
each other (directly or round a longer circle), and the product never imports the project's own tooling.

ARCHITECTURE.md draws the same order; this test reads every `import` of every module (those inside functions
too) with `ast`, so a new import that points the wrong way fails here with the two module names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scripts" / "catalog_docs"

STAGES = ["catalog", "compare", "downloads", "site", "authoring", "devtools"]
"""Pipeline order: a module may import its own stage, an earlier one, and the shared top modules."""
TOP_SHARED = {"errors", "escape", "layout", "serialize", "writing"}
"""What every stage shares (the top of the package). They import nothing of the stages."""
SHELL = "cli"
"""The command line: imports any stage but the tooling."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        found[".".join(["catalog_docs", *parts])] = path
    return found


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """Every catalog_docs module `path` imports, resolved to a module of the package (not a name in one)."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        out.update(t for t in targets if t.startswith("catalog_docs"))
    return out - {name}


def _stage(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "package"
    return parts[1] if parts[1] in STAGES else ("shell" if parts[1] == SHELL else "shared")


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, name, set(modules)) for name, path in modules.items()}


def test_every_module_sits_in_a_stage_or_is_a_shared_top_module(graph: dict[str, set[str]]) -> None:
    top = {m.split(".")[1] for m in graph if m.count(".") == 1}
    assert top - set(STAGES) <= TOP_SHARED | {SHELL}, f"modules at the top besides the shared ones: {top}"
    files_at_top = [p.name for p in PACKAGE.glob("*.py")]
    # __init__, cli and the five shared modules (writing.py, the one module that writes, is shared by every stage)
    assert len(files_at_top) <= 7, f"the top of the package holds at most 7 modules, found {sorted(files_at_top)}"


def test_stages_import_only_earlier_stages(graph: dict[str, set[str]]) -> None:
    wrong = []
    for module, targets in graph.items():
        stage = _stage(module)
        for target in targets:
            other = _stage(target)
            if other in ("package", "shared"):
                if stage in ("shared", "package") and other == "package":
                    wrong.append(f"{module} imports the package itself")
                continue
            if stage in ("shared", "package"):
                wrong.append(f"shared module {module} imports stage module {target}")
            elif stage == "shell":
                if other == "devtools":
                    wrong.append(f"the command line {module} imports tooling {target}")
            elif other == "shell":
                wrong.append(f"{module} imports the command line")
            elif STAGES.index(other) > STAGES.index(stage):
                wrong.append(f"{module} ({stage}) imports {target} ({other}), a later stage")
    assert not wrong, "\n".join(wrong)


def test_the_product_never_imports_the_tooling(graph: dict[str, set[str]]) -> None:
    wrong = [f"{m} imports {t}" for m, ts in graph.items() if _stage(m) != "devtools"
             for t in ts if _stage(t) == "devtools"]
    assert not wrong, "\n".join(wrong)


def test_no_import_circle(graph: dict[str, set[str]]) -> None:
    """Depth-first search for a back edge; the circle is printed module by module."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (circle := visit(start)):
            pytest.fail("import circle: " + " -> ".join(circle))


def test_the_checks_see_a_wrong_import(tmp_path: Path) -> None:
    """The graph reader itself: a relative and an absolute import both resolve to their module."""
    source = tmp_path / "m.py"
    source.write_text("from ..site import render\nfrom catalog_docs.compare.changes import Side\n"
                      "def f():\n    from catalog_docs.devtools import bench\n")
    known = {"catalog_docs.site.render", "catalog_docs.compare.changes", "catalog_docs.devtools.bench"}
    assert _imports(source, "catalog_docs.catalog.m", known) == known


def test_architecture_page_names_every_folder() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert folders == sorted(STAGES)
    missing = [f for f in folders if f"`{f}/`" not in text]
    assert not missing, f"ARCHITECTURE.md does not name {missing}"


def test_security_md_cites_tests_that_exist() -> None:
    """SECURITY.md names the tests that hold each untrusted input to its contract: every file and test
    function it names exists (`::name` after a file belongs to that file)."""
    text = (ROOT / "SECURITY.md").read_text(encoding="utf-8")
    cited, current = [], ""
    for match in re.finditer(r"`(tests/[\w/]+\.py)(?:::(\w+))?`|`::(\w+)`", text):
        current = match.group(1) or current
        cited.append((current, match.group(2) or match.group(3)))
    assert len({path for path, _ in cited}) >= 10
    for path, name in cited:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert name is None or re.search(rf"^def {name}\(", source, re.M), f"{path}::{name}"
