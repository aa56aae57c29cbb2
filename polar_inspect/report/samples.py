"""Per-sample rows of the used logs (`sample_rows`), from their sample summaries, never from the
samples' messages or events; each log's header and rows are cached by its identity
(`read_cache`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pandas as pd

from polar_inspect.report.inventory import RunHeader, SkippedLog, read_header
from polar_inspect.report.read_cache import cached
from polar_inspect.report.sample_rows import AXES, ROW_COLUMNS, summary_rows

__all__ = ["AXES", "FRAME_COLUMNS", "combine", "read_run_samples", "scan_log"]

FRAME_COLUMNS = ["run", *ROW_COLUMNS]


class SampleReadError(RuntimeError):
    """A log's samples could not be read."""


def scan_log(path: str) -> RunHeader | SkippedLog:
    """Read and classify one log's header (cached by the log's identity)."""
    return cached(path, "header", read_header)


#: Reads one log's rows by path (replaced by the full-sample reader in the parity test).
ROW_READER: Callable[[str], pd.DataFrame] = summary_rows


def read_run_samples(run: RunHeader) -> pd.DataFrame:
    """One log's rows from its sample summaries (cached by the log's identity)."""
    try:
        return cached(run.path, "rows", ROW_READER)
    except Exception as err:
        raise SampleReadError(f"cannot read samples: {err}") from err  # the path is the log's


def combine(frames: Mapping[int, pd.DataFrame]) -> pd.DataFrame:
    """The runs' rows in one frame, column `run` = the key (a run's position in the report)."""
    parts = [frames[index].assign(run=index) for index in sorted(frames)]
    if not parts:
        return pd.DataFrame(columns=FRAME_COLUMNS)
    combined = pd.concat(parts, ignore_index=True)[FRAME_COLUMNS]
    for axis in AXES:
        combined[axis] = combined[axis].astype("category")
    return combined
