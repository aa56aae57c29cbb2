"""The report tells runs apart by prompt content and flags sampling the provider did not apply."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from polar_inspect.report import build_report
from tests.report.conftest import ReportLogs


def _oracle_log(report_logs: ReportLogs):
    return next(
        read_eval_log(str(p))
        for p in report_logs.eval_set_dir.glob("*.eval")
        if read_eval_log(str(p), header_only=True).eval.model == "polar/oracle"
    )


def _with_trusted_prompt(log, source: str, sha: str, text: str):
    copy = log.model_copy(deep=True)
    prompts = dict(copy.eval.metadata["prompts"])
    prompts["system_prompt"] = {"source": source, "sha256": sha, "text": text}
    identity = dict(copy.eval.metadata["identity"])
    identity["templates"] = {**identity["templates"], "system_prompt": sha}
    copy.eval.metadata = {**copy.eval.metadata, "prompts": prompts, "identity": identity}
    return copy


@pytest.mark.slow
def test_prompts_are_labelled_side_by_side_and_edits_are_not_duplicates(
    report_logs: ReportLogs, tmp_path: Path
) -> None:
    oracle = _oracle_log(report_logs)
    folder = tmp_path / "logs"
    folder.mkdir()
    write_eval_log(oracle, str(folder / "a_default.eval"))
    # the same file path edited between two runs: two prompts, not a duplicate
    for name, sha in (("b_first.eval", "aaaaaaaaaaaa"), ("c_edited.eval", "bbbbbbbbbbbb")):
        write_eval_log(
            _with_trusted_prompt(oracle, "/work/defended.txt", sha, f"text {sha}"),
            str(folder / name),
        )
    result = build_report([folder], tmp_path / "out")
    board = pd.read_csv(tmp_path / "out" / "leaderboard.csv")
    assert len(result.groups) == 1  # compared in one table...
    assert result.skipped == []  # ...and none of them counted as a duplicate
    default_sha = oracle.eval.metadata["prompts"]["system_prompt"]["sha256"][:12]
    assert sorted(board["prompt"]) == sorted(
        [
            f"default {default_sha}",
            "custom defended.txt aaaaaaaaaaaa",
            "custom defended.txt bbbbbbbbbbbb",
        ]
    )
    assert board["model"].nunique() == 3  # labels carry the prompt, so tables keep them apart
    assert all("[prompt " in model for model in board["model"])


@pytest.mark.slow
def test_claude_sampling_is_flagged_next_to_the_model(
    report_logs: ReportLogs, tmp_path: Path
) -> None:
    oracle = _oracle_log(report_logs)
    folder = tmp_path / "logs"
    folder.mkdir()
    write_eval_log(oracle, str(folder / "oracle.eval"))
    claude = oracle.model_copy(deep=True)
    claude.eval.model = "anthropic/claude-sonnet-4-5"
    write_eval_log(claude, str(folder / "claude.eval"))
    build_report([folder], tmp_path / "out")
    board = pd.read_csv(tmp_path / "out" / "leaderboard.csv").set_index("model")
    oracle = "polar/oracle [ORACLE]"
    assert board.loc[oracle, "sampling"] == "temperature=0, top_p=1, max_tokens=1200"
    assert pd.isna(board.loc[oracle, "sampling_caveat"])
    assert board.loc["anthropic/claude-sonnet-4-5", "sampling"] == "max_tokens=1200"
    assert "anthropic" in board.loc["anthropic/claude-sonnet-4-5", "sampling_caveat"]
    assert board.loc[oracle, "truncated_samples"] == 0
    markdown = (tmp_path / "out" / "leaderboard.md").read_text(encoding="utf-8")
    assert "| anthropic/claude-sonnet-4-5 † |" in markdown
    assert "† Sampling not as requested for anthropic/claude-sonnet-4-5" in markdown
    assert "| polar/oracle [ORACLE] |" in markdown
    assert "| Sampling |" in markdown  # the two rows differ in it: a column, not a setup line
