"""One row per scored sample: everything every section of the report reads about a sample
(its id, epoch, axes, scores, error, leakage curve and strict attribution), from the sample
summaries or, in the parity test, the full samples (docs/report/README.md#what-the-report-reads).
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

import pandas as pd
from inspect_ai.log import read_eval_log_sample_summaries
from inspect_ai.scorer import Score

from polar_inspect.report.read_cache import log_member
from polar_inspect.scorers.parity import SCORE_KEYS

#: Sample metadata the report breaks scores down by.
AXES = ("domain", "policy", "attack", "cell")
#: The strict scorer's name in a log's scores.
STRICT_SCORER = "polar_strict_scorer"
#: A `.eval` log's member holding every sample's summary.
SUMMARIES = "summaries.json"
#: JSON's whitespace.
_SPACE = re.compile(r"[ \t\r\n]*")
#: The strict attribution's columns, as a sample without the strict scorer has them.
NO_STRICT = {"strict": False, "first_leak_turn": math.nan, "leaked_count": 0, "echoed_count": 0,
             "reasoning_leak": 0.0, "parity_privacy_echo": 0.0}  # fmt: skip
#: Per-sample columns beside the scores: the leakage curve and the strict attribution.
DETAIL_COLUMNS = ["curve", *NO_STRICT]
#: What the sample was played under (the parity score's `identity`: each live model's name,
#: arguments, resolved base URL and settings), as JSON; "" in logs older than it.
ROW_COLUMNS = ["id", "epoch", *AXES, *SCORE_KEYS, "error", *DETAIL_COLUMNS, "played_under"]


def fractions(metadata: Mapping[str, Any] | None) -> list[float] | None:
    """Leaked share by turn from a score's metadata, or None when it carries no curve."""
    meta = metadata or {}
    by_turn, total = meta.get("leaked_by_turn"), meta.get("protected_count")
    if isinstance(by_turn, list) and isinstance(total, int) and total > 0:
        return [float(count) / total for count in by_turn]
    return None


def _score_values(scores: Mapping[str, Score]) -> dict[str, float | None]:
    """The polar scorer's privacy / utility / overall (the first score whose dict has them)."""
    dicts = [score.value for score in scores.values() if isinstance(score.value, dict)]
    return {key: next((float(d[key]) for d in dicts if key in d), None) for key in SCORE_KEYS}


def _curve(scores: Mapping[str, Score]) -> list[float] | None:
    curves = (fractions(score.metadata) for score in scores.values())
    return next((curve for curve in curves if curve is not None), None)


def _strict(scores: Mapping[str, Score]) -> dict[str, Any]:
    """The strict scorer's attribution (`strict` False when the sample has none)."""
    score = scores.get(STRICT_SCORER)
    if score is None or not score.metadata:
        return NO_STRICT
    meta, value = score.metadata, score.value
    turn = meta.get("first_leak_turn")
    leak = value.get("reasoning_leak", 0.0) if isinstance(value, dict) else 0.0
    return {
        "strict": True,
        "first_leak_turn": math.nan if turn is None else float(turn),
        "leaked_count": meta.get("leaked_count", 0),
        "echoed_count": meta.get("echoed_count", 0),
        "reasoning_leak": float(leak),
        # the part of the parity privacy loss that is unfetched echoes (docs/scoring.md)
        "parity_privacy_echo": float(meta.get("parity_privacy_echo", 0.0)),
    }


def _frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(list(rows), columns=ROW_COLUMNS)
    for key in SCORE_KEYS:
        frame[key] = pd.to_numeric(frame[key], errors="coerce").astype(float)
    floats = ("first_leak_turn", "reasoning_leak", "parity_privacy_echo")
    return frame.astype({**dict.fromkeys(floats, float), "strict": bool})


def _row(
    sample_id: object,
    epoch: int,
    metadata: Mapping[str, Any] | None,
    error: str,
    scores: Mapping[str, Score],
) -> dict[str, Any]:
    """A sample's row: id, epoch, axes, error, the three scores, curve and strict attribution."""
    meta = metadata or {}
    axes = {axis: None if meta.get(axis) is None else str(meta[axis]) for axis in AXES}
    parity = scores.get("polar_scorer")
    played = (parity.metadata or {}).get("identity") if parity is not None else None
    return {"id": str(sample_id), "epoch": int(epoch), **axes, "error": error,
            **_score_values(scores), "curve": _curve(scores), **_strict(scores),
            "played_under": json.dumps(played, sort_keys=True) if played else ""}  # fmt: skip


def _streamed_row(item: dict[str, Any]) -> dict[str, Any]:
    scores = {
        name: Score.model_validate(score) for name, score in (item.get("scores") or {}).items()
    }
    return _row(item["id"], item["epoch"], item.get("metadata"), item.get("error") or "", scores)


class _Chunks:
    """A text stream read chunk by chunk, with a position in what is buffered."""

    def __init__(self, text: IO[str], chunk: int) -> None:
        self.text, self.chunk, self.data, self.pos, self.ended = text, chunk, "", 0, False
        self.decoder = json.JSONDecoder()

    def more(self) -> None:
        """Read on: at least a chunk, and as much as is buffered (an item that outgrows the
        buffer doubles it, so a large item is decoded a logarithmic number of times)."""
        got = self.text.read(max(self.chunk, len(self.data) - self.pos))
        self.data, self.pos, self.ended = self.data[self.pos :] + got, 0, not got

    def take(self, *, keep: bool = False) -> str:
        """The next character after whitespace ('' at the end), consumed unless `keep`."""
        while True:
            match = _SPACE.match(self.data, self.pos)
            self.pos = match.end() if match else self.pos
            if self.pos < len(self.data) or self.ended:
                found = self.data[self.pos : self.pos + 1]
                self.pos += 0 if keep else len(found)
                return found
            self.more()

    def decode(self) -> Any:
        """The JSON value after any whitespace (a number may go on in the next chunk)."""
        self.take(keep=True)  # raw_decode does not skip whitespace
        while True:
            try:
                item, end = self.decoder.raw_decode(self.data, self.pos)
                if end < len(self.data) or self.ended:
                    self.pos = end
                    return item
            except json.JSONDecodeError:
                if self.ended:
                    raise
            self.more()


def json_items(stream: IO[bytes], chunk: int = 1 << 20) -> Iterator[Any]:
    """The items of the one JSON array in `stream`, decoded one at a time (NaN allowed, as
    Inspect writes it); ValueError where the stream is anything else, as `json.loads` would."""
    chunks = _Chunks(io.TextIOWrapper(stream, encoding="utf-8-sig"), chunk)
    if chunks.take() != "[":
        raise ValueError("not a JSON array")
    after = chunks.take() if chunks.take(keep=True) == "]" else ","
    while after == ",":
        yield chunks.decode()
        after = chunks.take()
    if after != "]":
        raise ValueError(f"expected ',' or ']' after an item of the array, not {after!r}")
    if chunks.take():
        raise ValueError("data after the JSON array")


def summary_rows(path: str) -> pd.DataFrame:
    """One row per sample and epoch from the log's sample summaries, each reduced to its row
    as it is read (a `.eval` log's `summaries.json`; Inspect's reader for any other log)."""
    with log_member(path, SUMMARIES) as stream:
        found: Iterable[dict[str, Any]]
        if stream is not None:
            found = map(_streamed_row, json_items(stream))
        else:
            summaries = read_eval_log_sample_summaries(path)
            found = (
                _row(s.id, s.epoch, s.metadata, s.error or "", s.scores or {}) for s in summaries
            )
        rows = {(row["id"], row["epoch"]): row for row in found}  # a sample's last summary wins
    return _frame(rows.values())
