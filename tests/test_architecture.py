"""The rules of docs/architecture.md hold: the layers (import-linter's contract in
pyproject.toml), no import cycle between any two modules, no module over 400 lines and no
function over cognitive complexity 15 beyond the known offenders of `.ci/baseline/` (the gates
of `.ci/gates.py`; its own tests are in test_gates.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import grimp

REPO = Path(__file__).resolve().parents[1]


def _gates() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_gates", REPO / ".ci" / "gates.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ci_gates"] = module
    spec.loader.exec_module(module)
    return module


def _new_offenders(gate: str) -> list[str]:
    gates = _gates()
    collect = {"size": gates.size_offences, "complexity": gates.complexity_offences}[gate]
    baseline = gates.read_baseline(REPO / ".ci" / "baseline" / gates.BASELINE_FILES[gate])
    return gates.compare(gate, collect(REPO, "polar_inspect"), baseline, 0.0).new


def test_no_module_is_over_400_lines_beyond_its_allowance() -> None:
    assert _new_offenders("size") == [], "split the module (docs/architecture.md)"


def test_no_function_is_over_cognitive_complexity_15_beyond_the_baseline() -> None:
    assert _new_offenders("complexity") == [], "split the function (docs/architecture.md)"


def test_every_layer_imports_only_from_the_layers_below() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = grimp.build_graph("polar_inspect")
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    package = tmp_path / "loopy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loopy import b\n")
    (package / "b.py").write_text("from loopy import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _cycles(grimp.build_graph("loopy")) == [["loopy.a", "loopy.b"]]
