"""polar-report's numbers come from a log's samples and header alike, so a log whose header
means are not its samples' (scores edited without recomputing, an epoch reducer other than the
mean) is skipped with the reason, never reported with either number."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import edit_score, read_eval_log, write_eval_log
from inspect_ai.scorer import ScoreEdit

from polar_inspect.report import build_report
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.samples import header_disagreement


def _header(privacy: float, utility: float = 1.0) -> RunHeader:
    metrics = {"privacy": {"mean": privacy}, "utility": {"mean": utility}}
    return RunHeader.model_construct(metrics=metrics)


def test_each_sample_counts_as_the_mean_of_its_epochs() -> None:
    rows = pd.DataFrame({"id": [1, 1, 2, 2], "privacy": [1.0, 0.0, 1.0, 1.0], "utility": [1.0] * 4})
    assert header_disagreement(_header(0.75), rows) == ""  # (0.5 + 1.0) / 2
    assert "privacy mean is 1.0000, its samples' 0.7500" in header_disagreement(_header(1.0), rows)
    assert "utility" in header_disagreement(_header(0.75, utility=0.9), rows)
    unscored = rows.assign(privacy=float("nan"), utility=float("nan"))
    assert header_disagreement(_header(0.75), unscored) == ""  # nothing to compare with


@pytest.mark.slow
def test_a_log_edited_without_recomputing_is_skipped(report_logs, tmp_path: Path) -> None:  # noqa: ANN001
    (source,) = report_logs.epochs_dir.glob("*.eval")  # polar/oracle: every score 1.0
    log = read_eval_log(str(source))
    assert log.samples
    sample = log.samples[0]
    value = dict(sample.scores["polar_scorer"].value) | {"privacy": 0.0}  # type: ignore[arg-type]
    folder = tmp_path / "logs"
    folder.mkdir()
    edit_score(log, sample.id, "polar_scorer", ScoreEdit(value=value), recompute_metrics=False,
               epoch=sample.epoch)  # fmt: skip
    write_eval_log(log, str(folder / source.name))
    with pytest.raises(Exception, match="scores disagree with header"):
        build_report([folder], tmp_path / "report", figures=False, jobs=1)
    edit_score(log, sample.id, "polar_scorer", ScoreEdit(value=value), epoch=sample.epoch)
    write_eval_log(log, str(folder / source.name))
    result = build_report([folder], tmp_path / "report", figures=False, jobs=1)
    assert not result.skipped
