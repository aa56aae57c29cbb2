"""A report is built in a staging folder and swapped into `--out` at the end: a report that
fails, is interrupted or is killed never leaves files the next report would mix with."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from polar_inspect.report import build, build_report
from polar_inspect.report import outdir as outdir_module
from polar_inspect.report.cli import _terminate_as_exit
from polar_inspect.report.outdir import (
    MANIFEST,
    STAGING_INFIX,
    STAGING_MARK,
    TERMINATED,
    prepare_out_dir,
    remove_stale_staging,
    staged_report,
)
from tests.report.conftest import ReportLogs


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _write(root: Path, names: list[str]) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"content of {name}", encoding="utf-8")


def _staging_folders(out: Path) -> list[Path]:
    return [p for p in out.parent.iterdir() if STAGING_INFIX in p.name] + [
        p for p in out.iterdir() if STAGING_INFIX in p.name
    ]


def _report(out: Path, names: list[str]) -> None:
    with staged_report(out) as staged:
        _write(staged.path, names)
        staged.commit(names)


def test_a_committed_report_replaces_the_previous_one(tmp_path: Path) -> None:
    out = prepare_out_dir(tmp_path / "out")
    (out / "mine.txt").write_text("the user's", encoding="utf-8")
    _report(out, ["index.html", "figures/a.png", "figures/b.png"])
    _report(out, ["index.html", "figures/c.png"])
    assert sorted(_snapshot(out)) == [MANIFEST, "figures/c.png", "index.html", "mine.txt"]
    recorded = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert recorded == ["figures/c.png", "index.html"]
    assert _staging_folders(out) == []


def test_a_failed_or_interrupted_report_leaves_out_as_it_was(tmp_path: Path) -> None:
    out = prepare_out_dir(tmp_path / "out")
    _report(out, ["index.html", "figures/a.png"])
    before = _snapshot(out)
    for interruption in (KeyboardInterrupt, SystemExit, RuntimeError):
        with pytest.raises(interruption), staged_report(out) as staged:
            _write(staged.path, ["index.html", "figures/new.png"])
            raise interruption()
        assert _snapshot(out) == before
        assert _staging_folders(out) == []


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # that is the point
def test_a_sigterm_swallowed_by_a_finalizer_still_keeps_the_report_out(tmp_path: Path) -> None:
    """A signal's SystemExit raised inside a finalizer is ignored by Python: the report goes on,
    and must still not swap into --out."""
    out = prepare_out_dir(tmp_path / "out")
    _report(out, ["index.html", "figures/a.png"])
    before = _snapshot(out)

    class Finalized:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here; its exit is ignored

    with _terminate_as_exit():
        with pytest.raises(SystemExit) as stopped, staged_report(out) as staged:
            _write(staged.path, ["index.html", "figures/new.png"])
            Finalized()  # dropped at once: __del__ runs, the SystemExit in it is swallowed
            staged.commit(["index.html", "figures/new.png"])
        assert stopped.value.code == 143
    assert _snapshot(out) == before
    assert _staging_folders(out) == []
    assert not TERMINATED.is_set()  # cleared with the handler


def test_a_report_killed_during_its_swap_is_cleaned_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = prepare_out_dir(tmp_path / "out")
    (out / "mine.txt").write_text("the user's", encoding="utf-8")
    _report(out, ["index.html", "figures/old1.png", "figures/old2.png"])
    moves: list[str] = []
    real_replace = os.replace

    def dies_after_one_figure(source: str | Path, target: str | Path) -> None:
        if str(target).endswith(".png"):
            if moves:
                raise KeyboardInterrupt  # the process dies with one new figure moved in
            moves.append(str(target))
        real_replace(source, target)

    monkeypatch.setattr(outdir_module.os, "replace", dies_after_one_figure)
    with pytest.raises(KeyboardInterrupt):
        _report(out, ["figures/new1.png", "figures/new2.png", "index.html"])
    monkeypatch.setattr(outdir_module.os, "replace", real_replace)
    recorded = set(json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"])
    on_disk = set(_snapshot(out)) - {MANIFEST, "mine.txt"}
    assert {"figures/new1.png", "index.html"} <= on_disk  # a mixed folder: one new figure in,
    assert on_disk <= recorded  # but every report file in it is listed for the next report
    _report(out, ["index.html", "figures/last.png"])
    assert sorted(_snapshot(out)) == [MANIFEST, "figures/last.png", "index.html", "mine.txt"]


def test_staging_folders_of_killed_reports_are_removed(tmp_path: Path) -> None:
    out = prepare_out_dir(tmp_path / "out")
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead = int(done.stdout)  # a process that has ended
    stale = tmp_path / f".out{STAGING_INFIX}{dead}-abc"
    running = tmp_path / f".out{STAGING_INFIX}{os.getppid()}-def"  # a live process's build
    unmarked = tmp_path / f".out{STAGING_INFIX}{dead}-ghi"  # not made by a report
    for folder in (stale, running, unmarked):
        _write(folder, ["figures/x.png"])
    (stale / STAGING_MARK).write_text(str(out), encoding="utf-8")
    (running / STAGING_MARK).write_text(str(out), encoding="utf-8")
    assert remove_stale_staging(out) == [stale]
    assert not stale.exists() and running.exists() and unmarked.exists()


@pytest.mark.slow
def test_build_report_interrupted_mid_way_changes_nothing(
    report_logs: ReportLogs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    build_report([report_logs.eval_set_dir], out, jobs=1, figures=False)
    before = _snapshot(out)

    def killed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C after the tables were written, before the page

    monkeypatch.setattr(build, "write_page", killed)
    with pytest.raises(KeyboardInterrupt):
        build_report([report_logs.epochs_dir], out, jobs=1, figures=False)
    assert _snapshot(out) == before
    assert _staging_folders(out) == []


KILL_SCRIPT = """
import os, signal, sys
from polar_inspect.report import build
from polar_inspect.report.cli import main

def terminated(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGTERM)  # as `kill PID` would, while the report is built
    raise AssertionError("SIGTERM did not stop the report")

build.write_page = terminated
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_a_terminated_polar_report_removes_its_staging_folder(
    report_logs: ReportLogs, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    build_report([report_logs.epochs_dir], out, jobs=1, figures=False)
    before = _snapshot(out)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            KILL_SCRIPT,
            str(report_logs.eval_set_dir),
            "--out",
            str(out),
            "--quiet",
            "--jobs",
            "1",
            "--tables-only",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 128 + 15, done.stderr
    assert _snapshot(out) == before
    assert _staging_folders(out) == []
