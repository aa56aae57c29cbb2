"""The gates that hold the shape docs/architecture.md states ("Rules that keep it livable"),
run by `.ci/run` after ruff: complexity, module size, mypy, dead code, each against a baseline
of known offenders in `.ci/baseline/`; a NEW offender fails.

    .venv/bin/python .ci/gates.py                  # all gates
    .venv/bin/python .ci/gates.py --only complexity,size
    .venv/bin/python .ci/gates.py --write-baseline # today's offenders become the baseline
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

MAX_COMPLEXITY = 15
MAX_MODULE_LINES = 400
#: The whole package's line budget (issue 28); above it, the package's own allowance in
#: `module_size.txt` (`polar_inspect/ N`) is a ratchet: it may shrink, never grow.
MAX_PACKAGE_LINES = 23_748
GATES = ("complexity", "size", "mypy", "dead")
BASELINE_FILES = {
    "complexity": "complexity.txt",
    "size": "module_size.txt",
    "mypy": "mypy.txt",
    "dead": "dead_code.txt",
}
TOOLS = {
    "complexity": f"complexipy, cognitive complexity <= {MAX_COMPLEXITY}",
    "size": f"modules <= {MAX_MODULE_LINES} lines, package <= {MAX_PACKAGE_LINES:,}",
    "mypy": "mypy, pyproject [tool.mypy]",
    "dead": "vulture, unused classes/functions/methods/properties",
}
DEAD_KINDS = ("class", "function", "method", "property", "unreachable_code")
WHITELIST = Path(".ci") / "vulture_whitelist.py"
_MYPY_ERROR = re.compile(
    r"^(?P<path>[^:\s][^:]*):\d+(?::\d+)?: error: (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)
_ON_LINE = re.compile(r"\bon line \d+\b")


@dataclass
class Offences:
    """What a gate found, keyed as its baseline is (a key may repeat: mypy)."""

    found: Counter[str]
    #: size only: the module's length (the allowance is the baseline's number)
    sizes: dict[str, int] = field(default_factory=dict)
    #: where each key is (file:line), for the messages
    where: dict[str, str] = field(default_factory=dict)


@dataclass
class Verdict:
    """One gate's comparison of what it found with its baseline."""

    gate: str
    found: int
    new: list[str]
    fixed: list[str]
    notes: list[str]
    seconds: float

    @property
    def ok(self) -> bool:
        """No new offender."""
        return not self.new


# --- reading and writing baselines -------------------------------------------------------------


def read_baseline(path: Path) -> Counter[str]:
    """The entries of a baseline file (blank lines and `#` comments skipped), counted."""
    if not path.is_file():
        return Counter()
    entries: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = line.split("  #", 1)[0].strip()
        if entry and not entry.startswith("#"):
            entries[entry] += 1
    return entries


def write_baseline(path: Path, gate: str, offences: Offences) -> None:
    """Today's offenders as the baseline of `gate` (sorted; sizes with their length)."""
    header = (
        f"# Baseline of the {gate!r} gate (.ci/gates.py): known offenders, shrinking to none.\n"
    )
    if gate == "size":
        lines = [f"{key} {offences.sizes[key]}" for key in sorted(offences.found)]
    elif gate == "complexity":
        # the complexity today, as a comment: `where` ends with "at N"
        lines = [f"{key}  # {offences.where[key].rsplit(' ', 1)[1]}" for key in offences.found]
        lines.sort()
    else:
        lines = sorted(offences.found.elements())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + "".join(f"{line}\n" for line in lines), encoding="utf-8")


# --- the four gates ----------------------------------------------------------------------------


def _modules(root: Path, package: str) -> list[Path]:
    return sorted(p for p in (root / package).rglob("*.py") if "__pycache__" not in p.parts)


def _relative(root: Path, path: Path | str) -> str:
    path = Path(path)
    if path.is_absolute():
        path = path.relative_to(root.resolve()) if path.is_relative_to(root.resolve()) else path
    return path.as_posix()


def complexity_offences(root: Path, package: str) -> Offences:
    """Functions above MAX_COMPLEXITY, as `path::function` (methods `Class::method`)."""
    import complexipy

    offences = Offences(Counter())
    for module in _modules(root, package):
        report = complexipy.file_complexity(str(module))
        for function in report.functions:
            if function.complexity > MAX_COMPLEXITY:
                key = f"{_relative(root, module)}::{function.name}"
                offences.found[key] += 1
                offences.where[key] = (
                    f"{_relative(root, module)}:{function.line_start} at {function.complexity}"
                )
    return offences


def size_offences(root: Path, package: str) -> Offences:
    """Modules above MAX_MODULE_LINES lines, and the package above MAX_PACKAGE_LINES (keyed
    `package/`), with their length."""
    offences = Offences(Counter())
    total = 0
    for module in _modules(root, package):
        lines = len(module.read_bytes().splitlines())
        total += lines
        if lines > MAX_MODULE_LINES:
            _add_size(offences, _relative(root, module), lines)
    if total > MAX_PACKAGE_LINES:
        _add_size(offences, f"{package}/", total)
    return offences


def _add_size(offences: Offences, key: str, lines: int) -> None:
    offences.found[key] += 1
    offences.sizes[key] = lines
    offences.where[key] = f"{key}: {lines} lines"


def start_mypy(root: Path, package: str) -> subprocess.Popen[str]:
    """mypy on the package, started in the background (the slowest gate)."""
    command = [sys.executable, "-m", "mypy", package, "--no-error-summary", "--no-pretty"]
    command += ["--hide-error-context", "--no-color-output", "--show-error-codes"]
    return subprocess.Popen(
        command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def parse_mypy(output: str) -> Offences:
    """mypy's errors as `path: [code] message` (line numbers dropped, also inside messages)."""
    offences = Offences(Counter())
    for line in output.splitlines():
        match = _MYPY_ERROR.match(line)
        if match is None:
            continue
        message = _ON_LINE.sub("on line N", match["message"])
        key = f"{match['path']}: [{match['code'] or 'misc'}] {message}"
        offences.found[key] += 1
        offences.where.setdefault(key, line.split(": error:", 1)[0])
    return offences


def mypy_offences(process: subprocess.Popen[str]) -> Offences:
    """The errors of a mypy run started by `start_mypy` (a crash is an error, not a pass)."""
    output, _ = process.communicate()
    offences = parse_mypy(output)
    if process.returncode not in (0, 1) or (process.returncode == 1 and not offences.found):
        raise RuntimeError(f"mypy did not run (exit {process.returncode}):\n{output}")
    return offences


def _vulture_settings(root: Path) -> dict[str, list[str]]:
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return {}
    settings = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
    return dict(settings.get("vulture", {}))


def dead_code_offences(root: Path, package: str) -> Offences:
    """Classes, functions, methods, properties nothing refers to, and unreachable code."""
    from vulture import Vulture

    settings = _vulture_settings(root)
    scanner = Vulture(
        ignore_names=settings.get("ignore_names"),
        ignore_decorators=settings.get("ignore_decorators"),
    )
    paths = [str(root / package)]
    if (root / WHITELIST).is_file():
        paths.append(str(root / WHITELIST))
    scanner.scavenge(paths)
    offences = Offences(Counter())
    for item in scanner.get_unused_code():
        in_whitelist = Path(item.filename).resolve() == (root / WHITELIST).resolve()
        if item.typ not in DEAD_KINDS or in_whitelist:
            continue
        path = _relative(root, item.filename)
        key = f"{path}::{item.name} ({item.typ.replace('_', ' ')})"
        offences.found[key] += 1
        offences.where[key] = f"{path}:{item.first_lineno}"
    return offences


# --- comparing with the baseline ---------------------------------------------------------------


def compare(gate: str, offences: Offences, baseline: Counter[str], seconds: float) -> Verdict:
    """New offenders (fail) and baseline entries that no longer offend (a note)."""
    if gate == "size":
        return _compare_sizes(offences, baseline, seconds)
    new = [_described(key, offences) for key in sorted((offences.found - baseline).elements())]
    fixed = sorted((baseline - offences.found).elements())
    return Verdict(gate, sum(offences.found.values()), new, fixed, [], seconds)


def _compare_sizes(offences: Offences, baseline: Counter[str], seconds: float) -> Verdict:
    allowances: dict[str, int] = {}
    for entry in baseline:
        path, _, lines = entry.rpartition(" ")
        allowances[path] = int(lines)
    new, notes = [], []
    for path, lines in sorted(offences.sizes.items()):
        allowed = allowances.get(path)
        if allowed is None:
            limit = MAX_PACKAGE_LINES if path.endswith("/") else MAX_MODULE_LINES
            new.append(f"{path}: {lines} lines (> {limit})")
        elif lines > allowed:
            new.append(f"{path}: {lines} lines, grown past its allowance of {allowed}")
        elif lines < allowed:
            notes.append(f"shrank: lower the allowance of {path} to {lines} (was {allowed})")
    fixed = [
        f"{path} {allowed}"
        for path, allowed in sorted(allowances.items())
        if path not in offences.sizes
    ]
    return Verdict("size", len(offences.sizes), new, fixed, notes, seconds)


def _described(key: str, offences: Offences) -> str:
    where = offences.where.get(key)
    return f"{key}   ({where})" if where and where != key else key


def report(verdict: Verdict, baseline_file: str, out: Callable[[str], object] = print) -> None:
    """The gate's new offenders, fixed entries and one summary line."""
    for entry in verdict.new:
        out(f"  NEW ({verdict.gate}): {entry}")
    for entry in verdict.fixed:
        out(f"  fixed: remove from baseline {baseline_file}: {entry}")
    for note in verdict.notes:
        out(f"  {note}")
    status = "ok" if verdict.ok else "FAIL"
    out(
        f"gate {verdict.gate:<10} {status:<4} {verdict.found:>4} found, {len(verdict.new)} new, "
        f"{len(verdict.fixed)} fixed   ({TOOLS[verdict.gate]}; {verdict.seconds:.1f}s)"
    )


# --- running -----------------------------------------------------------------------------------


def run(
    root: Path,
    package: str,
    baseline_dir: Path,
    gates: Iterable[str] = GATES,
    write: bool = False,
    out: Callable[[str], object] = print,
) -> bool:
    """Run the gates; True when none has a new offender (or the baselines were written)."""
    gates = [gate for gate in GATES if gate in set(gates)]
    started = time.monotonic()
    mypy = start_mypy(root, package) if "mypy" in gates else None
    collectors: dict[str, Callable[[], Offences]] = {
        "complexity": lambda: complexity_offences(root, package),
        "size": lambda: size_offences(root, package),
        "dead": lambda: dead_code_offences(root, package),
        "mypy": lambda: mypy_offences(mypy) if mypy else Offences(Counter()),
    }
    passed = True
    for gate in sorted(gates, key=lambda g: g == "mypy"):  # mypy last: it runs meanwhile
        began = time.monotonic() if gate != "mypy" else started
        offences = collectors[gate]()
        baseline_file = baseline_dir / BASELINE_FILES[gate]
        if write:
            write_baseline(baseline_file, gate, offences)
        verdict = compare(gate, offences, read_baseline(baseline_file), time.monotonic() - began)
        report(verdict, _relative(root, baseline_file), out)
        passed = passed and verdict.ok
    return passed


def main(argv: list[str] | None = None) -> int:
    """Command line: exit 1 when a gate has a new offender."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--package", default="polar_inspect")
    parser.add_argument("--baseline-dir", type=Path, default=None)
    parser.add_argument("--only", default=",".join(GATES), help="gates, comma-separated")
    parser.add_argument("--write-baseline", action="store_true")
    args = parser.parse_args(argv)
    gates = [gate.strip() for gate in args.only.split(",") if gate.strip()]
    unknown = sorted(set(gates) - set(GATES))
    if unknown:
        parser.error(f"unknown gate(s) {', '.join(unknown)}; the gates are {', '.join(GATES)}")
    baseline_dir = args.baseline_dir or args.root / ".ci" / "baseline"
    passed = run(args.root, args.package, baseline_dir, gates, args.write_baseline)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
