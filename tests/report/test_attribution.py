"""polar-report's attribution table: first-leak turn and echo share per attack."""

from __future__ import annotations

import re

import pandas as pd

from polar_inspect.report.attribution import attribution_frame, attribution_markdown
from polar_inspect.report.inventory import RunHeader


def test_attribution_csv_per_model_and_attack(set_report) -> None:  # noqa: ANN001
    frame = pd.read_csv(set_report.out / "attribution.csv")
    assert "attribution.csv" in set_report.result.tables
    leaky = frame[frame["model"].str.contains("leaky")]
    assert len(leaky) == 5  # one row per attack strategy
    assert (leaky["leaking_samples"] == leaky["samples"]).all()
    assert (leaky["first_leak_turn_mean"] == 1.0).all()
    assert (leaky["echo_share"] == 0.0).all()
    board = pd.read_csv(set_report.out / "leaderboard.csv")  # rows in the leaderboard's order
    assert list(dict.fromkeys(frame["model"])) == [
        m for m in board["model"] if m in set(frame["model"])
    ]
    oracle = frame[frame["model"].str.contains("oracle")]
    assert (oracle["leaking_samples"] == 0).all() and oracle["first_leak_turn_mean"].isna().all()
    mixed = frame[frame["model"].str.contains("mixed")].set_index("attack")
    assert mixed.loc["S2", "leaking_samples"] == mixed.loc["S2", "samples"]  # leaks on S2
    report = (set_report.out / "report.md").read_text()
    assert "Leak attribution per attack" in report and "| Echo share |" in report
    page = (set_report.out / "index.html").read_text()  # the page holds the table too
    assert '<section id="attribution">' in page and "Echo share" in page
    assert re.search(r"\bnan\b", page) is None


def test_logs_without_strict_scores_give_an_explained_empty_table() -> None:
    frame = attribution_frame([], pd.DataFrame(), pd.DataFrame({"run": []}))
    assert frame.empty
    assert "No log carries strict-scorer attribution" in attribution_markdown(frame)


def test_a_sample_of_several_epochs_counts_once_with_its_epochs_averaged() -> None:
    run = RunHeader.model_construct(label="two epochs", path="run.eval")
    samples = pd.DataFrame(  # sample a leaks at turn 1 then 3, b in one of its two epochs
        {
            "run": [0] * 4,
            "id": ["a", "a", "b", "b"],
            "attack": ["S1"] * 4,
            "strict": [True] * 4,
            "first_leak_turn": [1.0, 3.0, 2.0, float("nan")],
            "leaked_count": [2, 2, 1, 0],
            "echoed_count": [0, 0, 1, 1],
            "reasoning_leak": [0.0, 0.5, 0.0, 0.0],
            "parity_privacy_echo": [0.0] * 4,
        }
    )
    row = attribution_frame([run], samples, pd.DataFrame({"run": [0]})).iloc[0]
    assert (row["samples"], row["leaking_samples"]) == (2, 1.5)
    assert (row["first_leak_turn_mean"], row["first_leak_turn_median"]) == (2.0, 2.0)
    assert row["echo_share"] == round(1 / 3.5, 4) and row["reasoning_leak"] == 0.125


def test_parity_privacy_lost_to_unfetched_echoes_is_the_mean_per_attack() -> None:
    run = RunHeader.model_construct(label="agent via react (fields)", path="run.eval")
    samples = pd.DataFrame(
        {
            "run": [0, 0, 0, 0],
            "id": ["a", "b", "c", "d"],
            "attack": ["S5", "S5", "S1", "S1"],
            "strict": [True] * 4,
            "first_leak_turn": [1.0, float("nan"), float("nan"), float("nan")],
            "leaked_count": [1, 0, 0, 0],
            "echoed_count": [0, 0, 0, 0],
            "reasoning_leak": [0.0] * 4,
            "parity_privacy_echo": [0.5, 0.25, 0.0, 0.0],
        }
    )
    frame = attribution_frame([run], samples, pd.DataFrame({"run": [0]})).set_index("attack")
    assert frame.loc["S5", "unfetched_echo_loss"] == 0.375
    assert frame.loc["S1", "unfetched_echo_loss"] == 0.0
    assert "| 37.5 |" in attribution_markdown(frame.reset_index())
    # S1 has no leaking sample: its turns and echo share are shown as "-", never "nan"
    s1 = next(
        line for line in attribution_markdown(frame.reset_index()).splitlines() if "| S1 |" in line
    )
    assert "| - / - | - |" in s1 and "nan" not in s1
