"""The report's output folder: checked before any log is read, built in a staging folder and
swapped in by manifest at the end (docs/report/README.md#a-report-that-is-interrupted)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import psutil  # type: ignore[import-untyped]

from polar_inspect.report.inventory import REPORT_MANIFEST, ReportInputError

MANIFEST = REPORT_MANIFEST
#: Set on SIGTERM (report.cli): a report told to stop never swaps into `--out`, even when its
#: SystemExit was swallowed (raised inside a finalizer, whose errors Python ignores).
TERMINATED = threading.Event()
#: Files every report writes; removed from a reused folder even without a manifest.
FIXED_FILES = (
    "leaderboard.md",
    "leaderboard.csv",
    "breakdown.csv",
    "logs.csv",
    "report.md",
    "surfaces.md",
    "epochs.csv",
    "index.html",
)
STAGING_INFIX = ".polar-report-build-"
#: A file inside every staging folder: only folders holding it are ever deleted as stale.
STAGING_MARK = ".polar-report-staging"


def prepare_out_dir(out_dir: str | Path) -> Path:
    """Create `out_dir` if needed and check it can be written (before any log is read).
    Raises ReportInputError (exit status 2) naming the folder and the reason."""
    out = Path(out_dir).expanduser()
    if out.exists() and not out.is_dir():
        raise ReportInputError(f"--out {out_dir}: is a file, not a folder; give a folder")
    blocking = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise ReportInputError(f"--out {out_dir}: {blocking} is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(dir=out, prefix=".probe-")
        os.close(handle)
        os.unlink(probe)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise ReportInputError(f"--out {out_dir}: cannot write there ({reason})") from err
    return out


def _staging_places(out: Path) -> list[tuple[Path, str]]:
    """(folder, name prefix) where staging folders for `out` are made: next to it, else in it."""
    resolved = out.resolve()  # `--out .` has a name and a parent only once resolved
    return [(resolved.parent, f".{resolved.name}{STAGING_INFIX}"), (resolved, STAGING_INFIX)]


def _is_stale(path: Path, prefix: str) -> bool:
    """A marked staging folder whose report process is gone (or is this process)."""
    pid_text = path.name[len(prefix) :].split("-", 1)[0]
    if not pid_text.isdigit() or not (path / STAGING_MARK).is_file():
        return False
    return int(pid_text) == os.getpid() or not psutil.pid_exists(int(pid_text))


def remove_stale_staging(out: Path) -> list[Path]:
    """Delete staging folders of `out` left by reports whose process is gone (killed);
    return them. Only folders with the staging mark are touched."""
    removed = []
    for folder, prefix in _staging_places(out):
        try:
            candidates = [p for p in folder.iterdir() if p.name.startswith(prefix)]
        except OSError:
            continue
        for path in (p for p in candidates if _is_stale(p, prefix)):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _make_staging(out: Path) -> Path:
    last: OSError | None = None
    for folder, prefix in _staging_places(out):
        try:
            path = Path(tempfile.mkdtemp(dir=folder, prefix=f"{prefix}{os.getpid()}-"))
        except OSError as err:
            last = err
            continue
        (path / STAGING_MARK).write_text(str(out.resolve()), encoding="utf-8")
        return path
    reason = (last.strerror if last else None) or "no writable place"
    raise ReportInputError(f"--out {out}: cannot make a build folder next to or in it ({reason})")


@dataclass(frozen=True)
class StagedReport:
    """A report being built in `path`; `commit` moves its files into `out`."""

    out: Path
    path: Path

    def commit(self, files: Iterable[str]) -> None:
        """Swap the built `files` (paths relative to `path`) into `out`: see the module doc."""
        if TERMINATED.is_set():
            raise SystemExit(143)  # 128 + SIGTERM
        swap_into(self.out, self.path, list(dict.fromkeys(files)))


@contextmanager
def staged_report(out: Path) -> Iterator[StagedReport]:
    """A staging folder for a report into `out` (from `prepare_out_dir`), removed on exit
    whether the report was committed, failed or was interrupted."""
    remove_stale_staging(out)
    staging = _make_staging(out)
    try:
        yield StagedReport(out, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _previous_files(out: Path) -> list[str]:
    listed: list[str] = []
    with suppress(OSError, ValueError, AttributeError):
        recorded = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        listed = [name for name in recorded.get("files", []) if isinstance(name, str)]
    return [*FIXED_FILES, *listed]


def _inside(root: Path, name: str) -> Path | None:
    """`root/name` when it stays inside `root` (a manifest entry never leads out of it)."""
    path = (root / name).resolve()
    return path if root.resolve() in path.parents else None


def record_written(out: Path, files: Iterable[str]) -> None:
    """Write the manifest of the report files in `out` (paths relative to it), atomically."""
    names = sorted(dict.fromkeys(files))
    temporary = out / f"{MANIFEST}.{os.getpid()}.tmp"
    temporary.write_text(json.dumps({"files": names}, indent=1), encoding="utf-8")
    os.replace(temporary, out / MANIFEST)


def swap_into(out: Path, staging: Path, files: list[str]) -> None:
    """Replace the previous report in `out` by `files` from `staging`, the manifest listing
    both reports' files while they move (docs/report/README.md#a-report-that-is-interrupted)."""
    previous = [name for name in _previous_files(out) if _inside(out, name) is not None]
    existing = [name for name in previous if (out / name).is_file()]
    record_written(out, [*existing, *files])
    keep = set(files)
    for name in existing:
        if name not in keep:
            (out / name).unlink(missing_ok=True)
    for name in files:
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / name, target)
    if (figures := out / "figures").is_dir() and not any(figures.iterdir()):
        figures.rmdir()
    record_written(out, files)
