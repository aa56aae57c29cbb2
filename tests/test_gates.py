"""The gates of `.ci/gates.py` fail on a new offender and only note a fixed baseline entry.

Each gate is tried on a small package planted in a temporary folder, so these tests fail if a
gate stops seeing what it is there to see.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]


def _load_gates() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_gates", REPO / ".ci" / "gates.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ci_gates"] = module
    spec.loader.exec_module(module)
    return module


gates = _load_gates()

TOO_COMPLEX = """
def tangled(a, b, c):
    total = 0
    for x in a:
        if x:
            for y in b:
                if y and x:
                    while c:
                        if c > 3 or (c < -3 and x):
                            total += 1
                        elif c:
                            total -= 1
                        c -= 1
                else:
                    total += 2
        elif b:
            total += 3
    return total
"""
SIMPLE = "def simple(a: int) -> int:\n    return a + 1\n"


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, text in files.items():
        (package / name).write_text(text)
    return tmp_path


def _run(root: Path, only: str, baseline: dict[str, str] | None = None) -> tuple[bool, str]:
    baseline_dir = root / "baseline"
    baseline_dir.mkdir(exist_ok=True)
    for gate, text in (baseline or {}).items():
        (baseline_dir / gates.BASELINE_FILES[gate]).write_text(text)
    lines: list[str] = []
    passed = gates.run(root, "pkg", baseline_dir, only.split(","), out=lines.append)
    return passed, "\n".join(lines)


def test_a_new_too_complex_function_fails_the_complexity_gate(tmp_path: Path) -> None:
    root = _package(tmp_path, {"a.py": TOO_COMPLEX + SIMPLE})
    passed, output = _run(root, "complexity")
    assert not passed
    assert "NEW (complexity): pkg/a.py::tangled" in output
    assert "simple" not in output
    assert "gate complexity FAIL    1 found, 1 new, 0 fixed" in output


def test_a_baselined_function_passes_and_a_fixed_one_is_only_noted(tmp_path: Path) -> None:
    root = _package(tmp_path, {"a.py": TOO_COMPLEX, "b.py": SIMPLE})
    baseline = "# known\npkg/a.py::tangled  # 20\npkg/b.py::simple\n"
    passed, output = _run(root, "complexity", {"complexity": baseline})
    assert passed
    assert "fixed: remove from baseline baseline/complexity.txt: pkg/b.py::simple" in output
    assert "NEW" not in output
    assert "gate complexity ok      1 found, 0 new, 1 fixed" in output


def test_an_oversized_module_fails_unless_within_its_allowance(tmp_path: Path) -> None:
    long_module = "x = 1\n" * (gates.MAX_MODULE_LINES + 5)
    root = _package(tmp_path, {"long.py": long_module, "short.py": SIMPLE})
    passed, output = _run(root, "size")
    assert not passed
    assert "NEW (size): pkg/long.py: 405 lines (> 400)" in output

    passed, output = _run(root, "size", {"size": "pkg/long.py 405\n"})
    assert passed, output

    passed, output = _run(root, "size", {"size": "pkg/long.py 403\n"})
    assert not passed
    assert "grown past its allowance of 403" in output

    passed, output = _run(root, "size", {"size": "pkg/long.py 410\npkg/short.py 420\n"})
    assert passed
    assert "lower the allowance of pkg/long.py to 405" in output
    assert "fixed: remove from baseline baseline/module_size.txt: pkg/short.py 420" in output


def test_a_package_over_its_line_budget_fails_unless_within_its_ratchet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gates, "MAX_PACKAGE_LINES", 30)
    root = _package(tmp_path, {"a.py": "x = 1\n" * 20, "b.py": "y = 2\n" * 15})
    passed, output = _run(root, "size")
    assert not passed
    assert "NEW (size): pkg/: 35 lines (> 30)" in output

    passed, output = _run(root, "size", {"size": "pkg/ 35\n"})
    assert passed, output

    passed, output = _run(root, "size", {"size": "pkg/ 33\n"})
    assert not passed
    assert "pkg/: 35 lines, grown past its allowance of 33" in output

    (root / "pkg" / "b.py").write_text("y = 2\n" * 5)  # 25 lines: within the budget
    passed, output = _run(root, "size", {"size": "pkg/ 35\n"})
    assert passed
    assert "fixed: remove from baseline baseline/module_size.txt: pkg/ 35" in output


def test_unused_code_fails_the_dead_gate_but_entry_points_do_not(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "a.py": (
                "from inspect_ai import task\n\n"
                "@task\ndef registered():\n    return 1\n\n"
                "def used():\n    return 2\n\n"
                "def forgotten():\n    return used()\n\n"
                "class Thing:\n    def called_by_name(self):\n        return 3\n"
                "    def never(self):\n        return 4\n\n"
                "Thing\n"
            )
        },
    )
    (root / "pyproject.toml").write_text('[tool.vulture]\nignore_decorators = ["@task"]\n')
    (root / ".ci").mkdir()
    (root / gates.WHITELIST).write_text("from pkg.a import Thing\n\nThing.called_by_name\n")
    passed, output = _run(root, "dead")
    assert not passed
    assert "NEW (dead): pkg/a.py::forgotten (function)" in output
    assert "NEW (dead): pkg/a.py::never (method)" in output
    assert "registered" not in output and "called_by_name" not in output
    assert "gate dead       FAIL    2 found, 2 new, 0 fixed" in output


def test_mypy_errors_are_keyed_without_line_numbers_and_counted() -> None:
    output = (
        "pkg/a.py:3: error: Function is missing a return type annotation  [no-untyped-def]\n"
        "pkg/a.py:9: error: Function is missing a return type annotation  [no-untyped-def]\n"
        'pkg/a.py:12:5: error: Name "x" already defined on line 4  [no-redef]\n'
        "pkg/a.py:3: note: Use -> None if function does not return a value\n"
    )
    offences = gates.parse_mypy(output)
    key = "pkg/a.py: [no-untyped-def] Function is missing a return type annotation"
    assert offences.found[key] == 2
    assert offences.found['pkg/a.py: [no-redef] Name "x" already defined on line N'] == 1
    assert sum(offences.found.values()) == 3

    verdict = gates.compare("mypy", offences, gates.Counter([key]), 0.0)
    assert not verdict.ok
    assert sorted(entry.split("   (")[0] for entry in verdict.new) == [
        'pkg/a.py: [no-redef] Name "x" already defined on line N',
        key,
    ]


@pytest.mark.slow
def test_the_mypy_gate_fails_on_an_untyped_function(tmp_path: Path) -> None:
    root = _package(tmp_path, {"a.py": SIMPLE + "\ndef untyped(a):\n    return a\n"})
    (root / "pyproject.toml").write_text("[tool.mypy]\ndisallow_untyped_defs = true\n")
    passed, output = _run(root, "mypy")
    assert not passed
    assert "NEW (mypy): pkg/a.py: [no-untyped-def] Function is missing a type annotation" in output


def test_ci_runs_the_gates_and_the_dev_extra_installs_their_tools() -> None:
    run = (REPO / ".ci" / "run").read_text()
    assert ".venv/bin/python .ci/gates.py" in run
    assert run.index("ruff check") < run.index(".ci/gates.py") < run.index('-c "$test_cmd"')
    dev = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {spec.split(">")[0].split("=")[0].strip() for spec in dev["dev"]}
    assert {"complexipy", "mypy", "vulture"} <= names


def test_written_baselines_pass_and_name_each_offender(tmp_path: Path) -> None:
    long_module = TOO_COMPLEX + "x = 1\n" * gates.MAX_MODULE_LINES
    root = _package(tmp_path, {"a.py": long_module})
    baseline_dir = root / "baseline"
    lines: list[str] = []
    gates.run(root, "pkg", baseline_dir, ["complexity", "size"], write=True, out=lines.append)
    assert gates.run(root, "pkg", baseline_dir, ["complexity", "size"], out=lines.append)
    complexity = (baseline_dir / "complexity.txt").read_text().splitlines()
    assert complexity[1].startswith("pkg/a.py::tangled  # ")  # its complexity, as a comment
    sizes = (baseline_dir / "module_size.txt").read_text().splitlines()
    assert sizes[1] == f"pkg/a.py {len(long_module.splitlines())}"  # today's length: allowance


def test_an_unknown_gate_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        gates.main(["--only", "complexity,nosuch"])
    assert exit_.value.code == 2
    assert "unknown gate(s) nosuch" in capsys.readouterr().err
