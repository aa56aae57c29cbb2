"""Logs for the report tests, built once per session by running the reference agents offline.

- `eval_set_dir`: an `inspect eval-set` directory with polar/oracle, polar/leaky, polar/refuse
  and polar/mixed (leaks on P5 or S2) over a 2-domain x 25-cell grid (50 samples each).
- `epochs_dir`: polar/oracle on the S1 samples with two epochs.
- `extra_logs_dir`: logs that must be handled specially: a live S5 attacker; another data
  file; an older duplicate of polar/mixed; an errored log; a log with errored samples; a log
  of another task; and `notes.json`, a file that is not a log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from inspect_ai import Task, eval_set
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalError, EvalLog, read_eval_log, write_eval_log
from inspect_ai.scorer import match
from matplotlib.figure import Figure

from polar_inspect.axes import ATTACK_TYPES, POLICY_TYPES
from polar_inspect.report import ReportResult, build_report, defenses, heatmaps, leakage, plots
from polar_inspect.report.figstyle import FigureFile
from tests.conftest import make_record
from tests.helpers import run, scripted_model

TASK = "polar_inspect/privacy"
SET_AGENTS = ("polar/oracle", "polar/leaky", "polar/refuse", "polar/mixed")
#: polar/mixed's label: the options it reads, its defaults included, and its oracle mark
MIXED = "polar/mixed (leak_attacks=S2, leak_policies=P5) [ORACLE]"


@dataclass(frozen=True)
class ReportLogs:
    """Where the session's logs are, and the data files they were built from."""

    eval_set_dir: Path
    extra_logs_dir: Path
    epochs_dir: Path
    grid_file: Path
    other_data_file: Path


def _grid(path: Path, domains: tuple[str, ...]) -> Path:
    records = []
    for domain in domains:
        for policy in POLICY_TYPES:
            for attack in ATTACK_TYPES:
                records.append(
                    make_record(len(records), domain=domain, policy=policy, attack=attack)
                )
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def _copy(log: EvalLog, folder: Path, name: str, **changes: object) -> Path:
    """Write a modified copy of a log through the log API (never by hand)."""
    copy = log.model_copy(deep=True)
    for key, value in changes.items():
        if key.startswith("eval."):
            setattr(copy.eval, key[5:], value)
        else:
            setattr(copy, key, value)
    path = folder / name
    write_eval_log(copy, str(path))
    return path


@pytest.fixture(scope="session")
def report_logs(tmp_path_factory: pytest.TempPathFactory) -> ReportLogs:
    """Build every log the report tests read (about 15 s)."""
    root = tmp_path_factory.mktemp("report_logs")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("POLAR_CACHE_DIR", str(root / "cache"))
        mp.setenv("HF_HOME", str(root / "hf"))
        mp.setenv("HF_HUB_OFFLINE", "1")
        grid = _grid(root / "grid.json", ("medical", "finance"))
        other = _grid(root / "other.json", ("finance",))
        set_dir = root / "eval_set"
        ok, _ = eval_set(
            TASK,
            model=list(SET_AGENTS),
            task_args={"data": str(grid)},
            log_dir=str(set_dir),
            max_tasks=len(SET_AGENTS),
            display="none",
        )
        assert ok
        extras, epochs_dir = root / "extras", root / "epochs"
        (epoch_log,) = inspect_eval(
            TASK,
            model="polar/oracle",
            task_args={"data": str(grid), "attack": "S1"},
            epochs=2,
            log_dir=str(epochs_dir),
            display="none",
        )
        assert epoch_log.status == "success"
        run(
            TASK,
            "polar/mixed",
            extras,
            data=str(grid),
            attack="S5",
            model_roles={"attacker": "polar/replay-attacker"},
        )
        run(TASK, "polar/refuse", extras, data=str(other))
        mixed = next(
            read_eval_log(str(p))
            for p in set_dir.glob("*.eval")
            if read_eval_log(str(p), header_only=True).eval.model == "polar/mixed"
        )
        _copy(
            mixed,
            extras,
            "2020-01-01T00-00-00+00-00_privacy_olderDuplicate.eval",
            **{"eval.created": "2020-01-01T00:00:00+00:00"},
        )
        _copy(
            mixed,
            extras,
            "2020-01-02T00-00-00+00-00_privacy_errored.eval",
            status="error",
            error=EvalError(
                message="RuntimeError: connection lost", traceback="", traceback_ansi=""
            ),
            **{"eval.model": "polar/errored"},
        )
        # Three replies per sample and twelve replies in all: 4 samples score, 6 error.
        (errored,) = inspect_eval(
            TASK,
            model=scripted_model(*["noted"] * 12),
            task_args={"data": str(grid), "attack": "S1"},
            fail_on_error=False,
            max_samples=1,
            log_dir=str(extras),
            display="none",
        )
        assert errored.status == "success"
        other_task = Task(
            dataset=[Sample(input="Say hi", target="hi")], scorer=match(), name="hello"
        )
        inspect_eval(other_task, model=scripted_model("hi"), log_dir=str(extras), display="none")
        (extras / "notes.json").write_text('{"not": "a log"}', encoding="utf-8")
    return ReportLogs(set_dir, extras, epochs_dir, grid, other)


@dataclass(frozen=True)
class BuiltReport:
    """A report written once per session, and what `build_report` returned."""

    out: Path
    result: ReportResult


@pytest.fixture(scope="session")
def set_report(report_logs: ReportLogs, tmp_path_factory: pytest.TempPathFactory) -> BuiltReport:
    """The report of the eval-set directory alone (four models, one group)."""
    out = tmp_path_factory.mktemp("set_report")
    result = build_report([report_logs.eval_set_dir], out)
    return BuiltReport(out, result)


@pytest.fixture(scope="session")
def mixed_report(report_logs: ReportLogs, tmp_path_factory: pytest.TempPathFactory) -> BuiltReport:
    """The report of every log plus a file that is not a log (several groups, skips)."""
    out = tmp_path_factory.mktemp("mixed_report")
    result = build_report(
        [
            report_logs.eval_set_dir,
            report_logs.extra_logs_dir,
            report_logs.extra_logs_dir / "notes.json",
        ],
        out,
    )
    return BuiltReport(out, result)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """Every figure the report's drawing functions save in this process during the test, kept
    open for inspection (its artists, texts and extents) after it was written."""
    figures: list[Figure] = []
    for module in (plots, heatmaps, leakage, defenses):

        def keep(fig: Figure, *args: object, _save=module.save, **kwargs: object) -> FigureFile:
            figures.append(fig)
            return _save(fig, *args, **kwargs)

        monkeypatch.setattr(module, "save", keep)
    return figures
