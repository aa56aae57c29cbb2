"""From paths to the runs a report uses and their per-sample rows (`sample_rows`), from their
sample summaries, never from the samples' messages or events; each log's header and rows are
cached by its identity (`read_cache`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

import pandas as pd

from polar_inspect.report.inventory import Inventory, KeepPolicy, RunHeader, SkippedLog, read_header
from polar_inspect.report.markdown import TEXTS
from polar_inspect.report.parallel import run_jobs
from polar_inspect.report.read_cache import cached
from polar_inspect.report.run_labels import resolve_duplicates
from polar_inspect.report.sample_rows import AXES, ROW_COLUMNS, summary_rows
from polar_inspect.report.stats import per_sample

FRAME_COLUMNS = ["run", *ROW_COLUMNS]
SAME_MEAN = 1e-9  # a header mean further than this from its samples' is another number
#: Makes a progress callback for a step: (description, total) -> advance().
Stepper = Callable[[str, int], Callable[[], None] | None]
#: Reads one log's rows by path (replaced by the full-sample reader in the parity test).
ROW_READER: Callable[[str], pd.DataFrame] = summary_rows


def scan_log(path: str) -> RunHeader | SkippedLog:
    """Read and classify one log's header (cached by the log's identity)."""
    return cached(path, "header", read_header)


def load_runs(
    paths: Sequence[str], *, keep: KeepPolicy, step: Stepper
) -> tuple[Inventory, pd.DataFrame]:
    """The inventory of `paths` (runs used, logs skipped and why) and one frame of their samples,
    column `run` = the run's position; read in this process: a worker pool costs more than it
    saves (docs/large-runs.md#polar-report-on-full-runs)."""
    scanned = run_jobs(None, scan_log, paths, step("reading log headers", len(paths)))
    skipped = [result for result in scanned if isinstance(result, SkippedLog)]
    runs = [result for result in scanned if isinstance(result, RunHeader)]
    rows: dict[str, pd.DataFrame] = {}  # by path; read before duplicates are told apart
    advance = step("reading samples", len(runs))
    for position, run in enumerate(runs):
        try:
            rows[run.path] = cached(run.path, "rows", ROW_READER)
            runs[position] = played_under(run, rows[run.path])
            why, detail = "scores disagree with header", header_disagreement(run, rows[run.path])
        except Exception as err:  # noqa: BLE001 - a log whose samples cannot be read is skipped
            why, detail = "unreadable samples", f"cannot read samples: {err}"[:200]
        if detail:
            skipped.append(SkippedLog(path=run.path, reason=why, detail=detail, model=run.label,
                                      task=run.task))  # fmt: skip
        if advance is not None:
            advance()
    bad = {log.path for log in skipped}
    found = Inventory(runs=[r for r in runs if r.path not in bad], skipped=skipped,
                      files_seen=len(paths))  # fmt: skip
    inventory = resolve_duplicates(found, keep, lambda run: _digest(rows[run.path]))
    return inventory, combine({index: rows[run.path] for index, run in enumerate(inventory.runs)})


def played_under(run: RunHeader, rows: pd.DataFrame) -> RunHeader:
    """`run` with what its samples were played under in its digest (a base URL given by an
    environment variable is in no header: two servers are two runs, never duplicates)."""
    played = sorted(set(rows["played_under"]) - {""})
    mixed = hashlib.sha256("\n".join([run.run_digest, *played]).encode()).hexdigest()
    return run.model_copy(update={"run_digest": mixed}) if played else run


def _digest(rows: pd.DataFrame) -> str:  # of every value (cells may be lists): for tied copies
    ordered = rows.sort_values(["id", "epoch"], kind="stable")  # a .json log lists them by id
    return hashlib.sha256(ordered.to_csv(index=False).encode()).hexdigest()


def header_disagreement(run: RunHeader, rows: pd.DataFrame) -> str:
    """How the header's privacy or utility mean differs from its samples' (epochs averaged)."""
    means = per_sample(rows.assign(run=0))[["privacy", "utility"]].mean()  # as the tables read
    for key in ("privacy", "utility"):
        logged, found = run.metrics.get(key, {}).get("mean"), float(means[key])
        if logged is not None and found == found and abs(found - logged) > SAME_MEAN:
            return TEXTS["header_disagrees"].format(key=key, logged=logged, found=found)
    return ""


def combine(frames: Mapping[int, pd.DataFrame]) -> pd.DataFrame:
    """The runs' rows in one frame, column `run` = the key (a run's position in the report)."""
    if not (parts := [frames[index].assign(run=index) for index in sorted(frames)]):
        return pd.DataFrame(columns=FRAME_COLUMNS)
    combined = pd.concat(parts, ignore_index=True)[FRAME_COLUMNS]
    for axis in AXES:
        combined[axis] = combined[axis].astype("category")
    return combined
