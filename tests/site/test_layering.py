"""The project's layering, read from the source: every import of one project module by another
(at module level or inside a function) is an edge. The graph has no circle (import-linter's
acyclic contract works on packages, not modules, so this one is read here), no edge runs the
wrong way between the layers (the import-linter contracts of pyproject.toml) and no module is
over 700 lines."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "ledger", "tables", "rummy_site")
MAX_LINES = 700


def _project_files() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(module: str) -> bool:
    return (ROOT / module.replace(".", "/") / "__init__.py").exists()


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules that ``path`` imports (``from pkg import mod`` counts as ``pkg.mod``
    where that is a module, else as ``pkg``)."""
    module = _module_name(path)
    package = module if _is_package(module) else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                targets.append(child if child in modules else base)
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    files = list(_project_files())
    modules = {_module_name(p) for p in files}
    return {_module_name(p): _imports(p, modules) for p in files}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_from_the_source(graph: dict[str, set[str]]) -> None:
    assert "tables.services.play" in graph["tables.services"]
    assert "tables.services._pipeline" in graph["tables.services.play"]
    assert "ledger.services" in graph["tables.services.settlement"]
    assert "tables.rules.errors" in graph["tables.engines"]


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle(graph: dict[str, set[str]]) -> None:
    assert _cycles(graph) == []


def test_the_import_contracts_hold() -> None:
    """The layers (docs/architecture.md, "Layers") are import-linter contracts in pyproject.toml
    ([tool.importlinter]; scripts/test runs ``lint-imports`` too): the rules engine imports no
    Django and no other part of the project, the ledger nothing of tables or accounts, accounts
    neither, services no views, consumers, admin or tasks, and so on down."""
    result = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"Contracts: \d+ kept, 0 broken", result.stdout), result.stdout


def test_no_module_is_a_warehouse() -> None:
    """One concern per room: no project module (migrations and tests aside) over 700 lines."""
    big = {
        str(path.relative_to(ROOT)): n
        for path in _project_files()
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert big == {}
