"""The results Inspect prints after a run fit an 80-column terminal (the scorer's metrics)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

MAX_LINES = 30
WIDTH = 80


def _printed_results(grid_file: Path, tmp_path: Path, display: str) -> list[str]:
    """Run `inspect eval` at 80 columns and return the final results block."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(COLUMNS=str(WIDTH), LINES="50", HF_HUB_OFFLINE="1", NO_COLOR="1")
    inspect = Path(sys.executable).with_name("inspect")
    result = subprocess.run(
        [
            str(inspect),
            "eval",
            "polar_inspect/privacy",
            "--model",
            "polar/mixed",
            "-T",
            f"data={grid_file}",
            "--log-dir",
            str(tmp_path / "logs"),
            "--display",
            display,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.rstrip().splitlines()
    # the results block starts at the last occurrence of the task's title line
    start = max(i for i, line in enumerate(lines) if "privacy (50 samples)" in line)
    return [line.rstrip() for line in lines[start - 1 :]]


@pytest.mark.parametrize("display", ["plain", pytest.param("rich", marks=pytest.mark.slow)])
def test_results_fit_80_columns_with_whole_names(
    display: str, grid_file: Path, tmp_path: Path
) -> None:
    block = _printed_results(grid_file, tmp_path, display)
    assert len(block) <= MAX_LINES, "\n".join(block)
    log_line = next(i for i, line in enumerate(block) if "Log:" in line)
    for line in block[:log_line]:  # the log path after "Log:" may be shortened by Inspect
        assert len(line) <= WIDTH and "…" not in line, line
    text = "\n".join(block)
    for name in ("privacy", "utility", "overall", "privacy_strict", "truncated", "empty", "cut"):
        assert name in text
    rows = [line for line in block if line.lstrip("│ ").startswith(("mean", "stderr"))]
    # three rows of scores: two with their mean and stderr lines, then the `cut` flag's mean
    assert len(rows) == 5, text
    # polar/mixed leaks in the P5 and S2 cells: privacy 1 - 9/25, utility 1
    assert "0.640" in rows[0] and "1.000" in rows[0], rows[0]
