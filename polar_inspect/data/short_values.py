"""Target values too short to match reliably: counted and listed, never refused
(docs/scoring.md#short-values)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from polar_inspect.data.records import PolarRecord, Side
from polar_inspect.detectors.match import normalize_text

#: A value with fewer matchable characters than this is too short to match reliably: the
#: looser checks find one or two letters or digits in most replies ("AT" in "that").
MIN_MATCHABLE_LENGTH = 3
#: How many short values a `ShortValueSummary` lists (the rest are counted).
LISTED_SHORT_VALUES = 20


class ShortValue(BaseModel):
    """One target value of one record that is too short to match reliably."""

    model_config = ConfigDict(frozen=True)

    sample_id: str
    side: Side
    value: str
    #: Letters and digits left after the matcher's normalisation.
    matchable_length: int


class ShortValueSummary(BaseModel):
    """How many target values are too short to match reliably, for the log's metadata."""

    #: Values with fewer matchable characters than this are counted.
    min_matchable_length: int = MIN_MATCHABLE_LENGTH
    #: Records holding at least one short value.
    records: int = 0
    protected_values: int = 0
    allowed_values: int = 0
    #: The first LISTED_SHORT_VALUES short values, in record order.
    listed: list[ShortValue] = []

    @property
    def values(self) -> int:
        """Short values on both sides."""
        return self.protected_values + self.allowed_values


@lru_cache(maxsize=1 << 16)  # the bundled set repeats each record's values
def matchable_length(value: str) -> int:
    """Letters and digits of `value` after the matcher's normalisation (`normalize_text`)."""
    return sum(map(str.isalnum, normalize_text(value)))


def is_short_value(value: str) -> bool:
    """True if `value` is too short for the matcher to find it reliably."""
    return matchable_length(value) < MIN_MATCHABLE_LENGTH


def short_values(records: Sequence[PolarRecord]) -> list[ShortValue]:
    """Every short target value of `records`, in record order (protected before allowed)."""
    return [
        ShortValue(sample_id=record.sample_id, side=side, value=value, matchable_length=length)
        for record in records
        for side, _, values in record.sides()
        for value in values
        if (length := matchable_length(value)) < MIN_MATCHABLE_LENGTH
    ]


def summarize_short_values(found: Sequence[ShortValue]) -> ShortValueSummary:
    """Counts of `short_values(...)`, with the first LISTED_SHORT_VALUES listed."""
    return ShortValueSummary(
        records=len({value.sample_id for value in found}),
        protected_values=sum(value.side == "protected" for value in found),
        allowed_values=sum(value.side == "allowed" for value in found),
        listed=list(found[:LISTED_SHORT_VALUES]),
    )
