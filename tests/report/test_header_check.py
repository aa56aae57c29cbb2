"""polar-report's numbers come from a log's samples and header alike, so a log whose header
means are not its samples' (scores edited without recomputing, an epoch reducer other than the
mean) is skipped with the reason, never reported with either number."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import EvalLog, edit_score, read_eval_log, write_eval_log
from inspect_ai.scorer import ScoreEdit

from polar_inspect.report import build_report
from polar_inspect.report.build import no_runs_message
from polar_inspect.report.inventory import RunHeader, SkippedLog
from polar_inspect.report.samples import header_disagreement


def _header(privacy: float, utility: float = 1.0) -> RunHeader:
    metrics = {"privacy": {"mean": privacy}, "utility": {"mean": utility}}
    return RunHeader.model_construct(metrics=metrics)


def test_each_sample_counts_as_the_mean_of_its_epochs() -> None:
    rows = pd.DataFrame(  # a log's rows: one per sample and epoch, with its axes
        {"id": [1, 1, 2, 2], "privacy": [1.0, 0.0, 1.0, 1.0], "utility": [1.0] * 4}
    ).assign(overall=1.0, domain="medical", policy="P1", attack="S1", cell="P1-S1")
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


def _copy(report_logs, folder: Path, edit: Callable[[EvalLog], None]) -> Path:  # noqa: ANN001
    (source,) = report_logs.epochs_dir.glob("*.eval")  # polar/oracle: every score 1.0
    log = read_eval_log(str(source))
    edit(log)
    folder.mkdir(exist_ok=True)
    write_eval_log(log, str(folder / source.name))
    return folder / source.name


@pytest.mark.slow
def test_of_several_reducers_the_mean_is_the_one_read(report_logs, tmp_path: Path) -> None:  # noqa: ANN001
    def add_max(log: EvalLog) -> None:  # as `--epochs-reducer mean,max` writes it: mean first
        assert log.results
        extra = [s.model_copy(update={"reducer": "max"}, deep=True) for s in log.results.scores]
        for score in extra:
            for metric in score.metrics.values():
                metric.value = 0.25
        log.results.scores += extra

    _copy(report_logs, tmp_path / "logs", add_max)
    result = build_report([tmp_path / "logs"], tmp_path / "report", figures=False, jobs=1)
    assert not result.skipped
    board = pd.read_csv(tmp_path / "report" / "leaderboard.csv")
    assert board["privacy"].tolist() == [100.0]


@pytest.mark.slow
def test_a_copy_edited_without_recomputing_does_not_hide_its_original(
    report_logs,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    def unrecomputed(log: EvalLog) -> None:
        assert log.samples
        sample = log.samples[0]
        value = dict(sample.scores["polar_scorer"].value) | {"privacy": 0.0}  # type: ignore[arg-type]
        edit_score(log, sample.id, "polar_scorer", ScoreEdit(value=value), recompute_metrics=False,
                   epoch=sample.epoch)  # fmt: skip

    original = _copy(report_logs, tmp_path / "logs", lambda log: None)
    _copy(report_logs, tmp_path / "edited", unrecomputed)
    (tmp_path / "edited").rename(tmp_path / "logs" / "a_edited")  # its name sorts first
    result = build_report([tmp_path / "logs"], tmp_path / "report", figures=False, jobs=1)
    assert [s.reason for s in result.skipped] == ["scores disagree with header"]
    board = pd.read_csv(tmp_path / "report" / "leaderboard.csv")
    assert board["log"].tolist() == [str(original)]


def test_the_one_line_error_shortens_the_first_reason_at_a_word() -> None:
    detail = "its header's privacy mean is 0.6400, its samples' 0.6800 (each sample's epochs " * 3
    skipped = SkippedLog(path="/logs/a.eval", reason="r", detail=detail, model="m", task="t")
    shown = no_runs_message([skipped]).split("first: a.eval: ")[1].split(" ...")[0]
    assert detail.startswith(shown) and detail[len(shown)] == " "
