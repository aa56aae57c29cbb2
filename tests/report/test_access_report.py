"""polar-report on runs of one model that differ only in agent and document access: the
access table, no duplicates, the paper setting as the baseline."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from polar_inspect.report import build_report
from tests.conftest import fielded_record
from tests.helpers import run

TASK = "polar_inspect/privacy"


@pytest.fixture(scope="module")
def access_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """polar/leaky as a bare model; polar/fetch-all and fetch-needed through react with each
    access mode; the same data (4 samples)."""
    root = tmp_path_factory.mktemp("access_logs")
    data = root / "data.json"
    records = [fielded_record(i, policy=f"P{1 + i}", turns=["Everything?"]) for i in range(4)]
    pd.Series(records).to_json(data, orient="values", force_ascii=False)
    logs = root / "logs"
    run(TASK, "polar/leaky", logs, data=str(data))
    for model in ("polar/fetch-all", "polar/fetch-needed"):
        for access in ("prompt", "fields"):
            run(TASK, model, logs, data=str(data), trusted_agent="react", document_access=access)
    return logs


@pytest.mark.slow
def test_access_table_compares_modes_of_the_same_model(access_logs: Path, tmp_path: Path) -> None:
    result = build_report([access_logs], tmp_path / "report", jobs=1)
    assert "access.md" in result.tables and "access.csv" in result.tables
    assert len(result.models) == 5  # runs that differ in access are not duplicates
    assert not [s for s in result.skipped if s.reason == "duplicate"]
    assert "polar/fetch-all via react (fields)" in result.models
    table = pd.read_csv(tmp_path / "report" / "access.csv")
    fetch_all = table[table["model"] == "polar/fetch-all"]
    assert list(fetch_all["access"]) == ["prompt", "fields"]
    fields = fetch_all.set_index("access").loc["fields"]
    assert fields["privacy"] == 0.0 and fields["fetch_protected"] == 100.0
    assert fields["delta_privacy"] == 0.0  # against the same agent with the prompt
    # an oracle run is named with its leaderboard mark in the access table too
    assert "polar/fetch-needed via react (fields) [ORACLE]" in result.models
    needed = table[table["model"] == "polar/fetch-needed [ORACLE]"].set_index("access")
    assert list(needed.index) == ["prompt", "fields"]
    assert needed.loc["fields", "fetch_protected"] == 0.0
    assert needed.loc["fields", "delta_privacy"] == 0.0
    assert pd.isna(needed.loc["prompt", "delta_privacy"])  # the baseline itself
    leaky = table[table["model"] == "polar/leaky"].iloc[0]
    assert leaky["agent"] == "none" and pd.isna(leaky["fetch_protected"])
    markdown = (tmp_path / "report" / "access.md").read_text(encoding="utf-8")
    assert "| polar/fetch-all | none | react | fields |" in markdown
    assert "| polar/fetch-needed [ORACLE] | none | react | fields |" in markdown
    assert "| polar/fetch-needed | " not in markdown
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert "Trusted agent and document access" in page
    assert 'polar/fetch-needed <span class="oracle">[ORACLE]</span></td>' in page


@pytest.mark.slow
def test_logs_with_the_old_channel_metric_names_are_read_as_the_new(
    access_logs: Path, tmp_path: Path
) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    from polar_inspect.scorers.agent_channel import LEGACY_AGENT_KEYS

    old_names = {new: old for old, new in LEGACY_AGENT_KEYS.items()}
    folder = tmp_path / "old"
    folder.mkdir()
    for path in access_logs.glob("*.eval"):
        log = read_eval_log(str(path))
        for score in log.results.scores if log.results else []:
            score.name = old_names.get(score.name, score.name)
        write_eval_log(log, str(folder / path.name))
    build_report([folder], tmp_path / "report", jobs=1)
    table = pd.read_csv(tmp_path / "report" / "access.csv")
    fields = table[table["model"] == "polar/fetch-all"].set_index("access").loc["fields"]
    assert fields["fetch_protected"] == 100.0 and fields["fetch_allowed"] == 100.0
