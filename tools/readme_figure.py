"""Redraw the README's ranking figure (docs/report/example_ranking.png) with polar-report's own
ranking figure, from the README example's leaderboard (docs/report/example_leaderboard.csv).

    python tools/readme_figure.py [REPORT]

With REPORT (the `polar-report` folder of the README's `eval-set` example), its
leaderboard.csv first becomes the committed fixture; without it the figure is redrawn from the
fixture. tests/test_readme_figure.py checks that the committed PNG is what this draws and that
the README's table says what the fixture says.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from polar_inspect.report.plots import ranking_figure  # noqa: E402
from polar_inspect.scorers.parity import SCORE_KEYS  # noqa: E402

FIXTURE = ROOT / "docs" / "report" / "example_leaderboard.csv"
FIGURE = ROOT / "docs" / "report" / "example_ranking.png"
COLUMNS = [
    "rank",
    "model",
    *(f"{key}{end}" for key in SCORE_KEYS for end in ("", "_ci_low", "_ci_high")),
    "weight",
    "oracle",
]


def keep_leaderboard(report: Path, fixture: Path = FIXTURE) -> None:
    """Copy the columns the figure and the README table need from a report's leaderboard."""
    pd.read_csv(report / "leaderboard.csv")[COLUMNS].to_csv(fixture, index=False)


def draw(fixture: Path, out: Path) -> Path:
    """Draw the ranking figure of `fixture`'s leaderboard (x100) to `out` as polar-report does."""
    board = pd.read_csv(fixture)
    table = pd.DataFrame({"rank": board["rank"], "label": board["model"]})
    for key in SCORE_KEYS:
        table[key] = board[key] / 100
        table[f"{key}_low"] = board[f"{key}_ci_low"] / 100
        table[f"{key}_high"] = board[f"{key}_ci_high"] / 100
    table["oracle"] = board["oracle"].astype(bool)
    with tempfile.TemporaryDirectory() as folder:
        made = ranking_figure(
            table, Path(folder), out.name, float(board["weight"][0]), "POLAR-Bench"
        )
        shutil.copyfile(Path(folder) / made.path, out)
    return out


if __name__ == "__main__":
    if len(sys.argv) > 1:
        keep_leaderboard(Path(sys.argv[1]))
    print(draw(FIXTURE, FIGURE))
