"""Per-sample rows of the used logs (`sample_rows`), never from the samples' messages or events.

Single-epoch logs without errors take their scores from the header's reductions; the sample
summaries (slower: seconds per thousand samples) are read once per data source for the
samples' axes (shared by all logs of that data file and polar_inspect version), and for every
log with several epochs, errored samples or no reductions. Reads are cached (`read_cache`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pandas as pd

from polar_inspect.report.inventory import RunHeader, SkippedLog, read_header
from polar_inspect.report.read_cache import cached
from polar_inspect.report.sample_rows import AXES, ROW_COLUMNS, reduction_rows, summary_rows

__all__ = ["AXES", "FRAME_COLUMNS", "collect_samples", "read_run_samples", "scan_log"]

FRAME_COLUMNS = ["run", *ROW_COLUMNS]


class SampleReadError(RuntimeError):
    """A log's samples could not be read."""


def scan_log(path: str) -> tuple[RunHeader | SkippedLog, pd.DataFrame | None]:
    """Read and classify one log's header; for a usable run, also its reduced scores (cached
    by the log's identity: the header of a full run is tens of MB of reductions)."""
    return cached(path, "header", _scan)


def _scan(path: str) -> tuple[RunHeader | SkippedLog, pd.DataFrame | None]:
    result, header = read_header(path)
    if isinstance(result, RunHeader) and header is not None:
        return result, reduction_rows(header)
    return result, None


#: Reads one log's rows by path (replaced by the full-sample reader in the parity test).
ROW_READER: Callable[[str], pd.DataFrame] = summary_rows


def read_run_samples(run: RunHeader) -> pd.DataFrame:
    """One log's rows from its sample summaries (cached by the log's identity)."""
    try:
        return cached(run.path, "rows", ROW_READER)
    except Exception as err:
        raise SampleReadError(f"{run.path}: cannot read samples: {err}") from err


def try_read_run_samples(run: RunHeader) -> pd.DataFrame | str:
    """`read_run_samples`, with a failure returned as its message (for worker processes)."""
    try:
        return read_run_samples(run)
    except SampleReadError as err:
        return str(err)


def needs_summaries(run: RunHeader, reduced: pd.DataFrame | None) -> bool:
    """True when the header alone cannot give this run's samples."""
    return reduced is None or run.epochs > 1 or run.unfinished_samples > 0


#: Reads the summaries of the runs at the given positions: a frame, or an error message each.
SummaryReader = Callable[[list[int]], list[pd.DataFrame | str]]


def collect_samples(
    runs: Sequence[RunHeader],
    reduced: Mapping[str, pd.DataFrame | None],
    read: SummaryReader,
    advance: Callable[[], None] | None = None,
) -> tuple[pd.DataFrame, dict[int, str]]:
    """All runs' samples in one frame (column `run` = position in `runs`) and read failures.

    Summaries are read in two batches: first every run that needs them plus one run per data
    source not yet covered (these give the id -> axes tables), then any run whose sample ids
    those tables still miss. Every other run joins its reduced scores to its source's table.
    The runs read depend only on `runs` (not on timing), so a second report hits the cache.
    `read` reports progress for the runs it reads; `advance` for the others.
    """
    state = _Collected(runs)
    first = state.first_batch(reduced)
    for index, result in zip(first, read(first), strict=True):
        state.keep(index, result)
    second = state.join_known(reduced, advance)
    for index, result in zip(second, read(second), strict=True):
        state.keep(index, result)
    return _combine(state.frames), state.failures


class _Collected:
    """What `collect_samples` has so far: frames and failures by run, and per data source the
    id -> axes table learnt from the summaries read."""

    def __init__(self, runs: Sequence[RunHeader]) -> None:
        self.runs = runs
        self.axes_by_source: dict[str, pd.DataFrame] = {}
        self.frames: dict[int, pd.DataFrame] = {}
        self.failures: dict[int, str] = {}

    def learn(self, key: str, frame: pd.DataFrame) -> None:
        """Add a frame's ids and axes to its data source's table."""
        known = frame[["id", *AXES]].drop_duplicates("id").set_index("id")
        previous = self.axes_by_source.get(key)
        if previous is not None:
            known = pd.concat([previous, known[~known.index.isin(previous.index)]])
        self.axes_by_source[key] = known

    def keep(self, index: int, result: pd.DataFrame | str) -> None:
        """A run's read result: its frame (learnt from), or why it failed."""
        if isinstance(result, str):
            self.failures[index] = result
        else:
            self.frames[index] = result
            self.learn(self.runs[index].source_key, result)

    def pending(self, index: int) -> bool:
        """The run has neither a frame nor a failure yet."""
        return index not in self.frames and index not in self.failures

    def first_batch(self, reduced: Mapping[str, pd.DataFrame | None]) -> list[int]:
        """Runs that need their summaries, plus one run per data source not yet covered."""
        first = [
            i
            for i, run in enumerate(self.runs)
            if self.pending(i) and needs_summaries(run, reduced.get(run.path))
        ]
        sources = set(self.axes_by_source) | {self.runs[i].source_key for i in first}
        for index, run in enumerate(self.runs):
            if self.pending(index) and index not in first and run.source_key not in sources:
                first.append(index)
                sources.add(run.source_key)
        return first

    def join_known(
        self, reduced: Mapping[str, pd.DataFrame | None], advance: Callable[[], None] | None
    ) -> list[int]:
        """Join each pending run's reduced scores to its source's axes; return the runs whose
        ids the table still misses (to be read)."""
        second = []
        for index, run in enumerate(self.runs):
            if not self.pending(index):
                continue
            scores, axes = reduced.get(run.path), self.axes_by_source.get(run.source_key)
            if scores is None or axes is None or not scores["id"].isin(axes.index).all():
                second.append(index)
                continue
            frame = scores.join(axes, on="id")
            frame["epoch"], frame["error"] = 1, ""
            self.frames[index] = frame[FRAME_COLUMNS[1:]]
            if advance is not None:
                advance()
        return second


def _combine(frames: dict[int, pd.DataFrame]) -> pd.DataFrame:
    parts = []
    for index in sorted(frames):
        frame = frames[index].copy()
        frame.insert(0, "run", index)
        parts.append(frame)
    if not parts:
        return pd.DataFrame(columns=FRAME_COLUMNS)
    combined = pd.concat(parts, ignore_index=True)
    for axis in AXES:
        combined[axis] = combined[axis].astype("category")
    return combined
