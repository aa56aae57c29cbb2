"""Target values (text or a finite number, with a letter or digit; list literals expanded) and
the text helpers every record reader shares: attacker turns, field names (docs/data.md)."""

from __future__ import annotations

import ast
import json
import math
import re
import unicodedata
from functools import cache, lru_cache
from importlib.resources import files
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field

from polar_inspect.detectors.match import TextIndex, extract_dates, normalize_text
from polar_inspect.detectors.value_forms import value_form

#: A character for which `str.isalnum()` is true: Unicode's `\w` but the underscore.
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


def has_letter_or_digit(value: str) -> bool:
    """True if `value` holds at least one letter or digit (of any script)."""
    return _LETTER_OR_DIGIT.search(value) is not None


def is_number(value: Any) -> bool:
    """True for a JSON number (an int or float, not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number_or_text(value: Any) -> Any:
    """A JSON number as its `str()`; other non-strings refused, and so are NaN and infinities
    (`nan` and `inf` would be found in "financial" and "information")."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(
            f"must be text or a finite number, got {value} (NaN, Infinity or a number too large "
            "for a float); write the value as text"
        )
    if is_number(value):
        return str(value)
    if isinstance(value, bool | dict) or value is None:
        raise ValueError(f"must be text or a number, got {json_kind(value)}")
    return value


def _arrays_as_literals(values: Any) -> Any:
    """A nested JSON array of texts and numbers becomes a list literal (expanded later)."""
    if not isinstance(values, list):
        return values
    return [
        json.dumps([_number_or_text(item) for item in value], ensure_ascii=False)
        if isinstance(value, list)
        and all(isinstance(item, str) or is_number(item) for item in value)
        else value
        for value in values
    ]


def _usable_value(value: str) -> str:
    if expand_value(value) != (value,):
        return value  # a list literal: its items are checked with the whole list
    if not value.strip():
        raise ValueError("must not be empty or blank")
    if not has_letter_or_digit(value):
        raise ValueError(
            f"{value!r} holds no letter or digit; such a value would be found in every reply "
            "(fix or remove it)"
        )
    return value


#: One element of a target list: text (or a number read as text) with a letter or digit.
TargetValue = Annotated[str, BeforeValidator(_number_or_text), AfterValidator(_usable_value)]
#: A target list: at least one value; nested arrays of values are flattened like list literals.
TargetValues = Annotated[
    list[TargetValue], BeforeValidator(_arrays_as_literals), Field(min_length=1)
]


@lru_cache(maxsize=1 << 16)
def same_target(value: str) -> str:
    """The form in which two target values are one to the detectors: Unicode compatibility
    form (NFC "é" and NFD "e" + accent are one, as the strict detector folds), whitespace
    collapsed."""
    return " ".join(normalize_text(unicodedata.normalize("NFKC", value)).split())


_YEAR = re.compile(r"(?:19|20)[0-9]{2}")  # every date the matcher reads has one
_NOT_KEPT_ASCII = str.maketrans(
    "", "", "".join(c for c in map(chr, range(1, 128)) if not c.isalnum())
)
_DIGIT_MARK = re.compile(r"(?<=\d)[.,](?=\d)")  # a decimal or group mark: "7.25", "1,234"


@lru_cache(maxsize=1 << 16)
def _letters_and_digits(value: str) -> str:
    """The value's letters and digits, a mark between two digits as NUL ("7.25" is not "72.5")."""
    kept = _DIGIT_MARK.sub("\0", same_target(value)).translate(_NOT_KEPT_ASCII)
    return kept if kept.isascii() else "".join(re.findall(r"[^\W_]|\0", kept))


@lru_cache(maxsize=1 << 16)
def _dates(value: str) -> frozenset[str]:
    return frozenset(extract_dates(value)) if _YEAR.search(value) else frozenset()


def _may_be_one(value: str, other: str) -> bool:
    """The same letters, digits (and marks between digits) and dates, or both a single whole date
    and the dates equal ("1952-12-11"); a date with more in it ("$5 2020-01-02") is not merged."""
    if _dates(value) == _dates(other) and _letters_and_digits(value) == _letters_and_digits(other):
        return True
    forms = value_form(value), value_form(other)
    one_date = forms[0].whole_date and forms[1].whole_date and forms[0].date == forms[1].date
    return one_date and not _dates(value).isdisjoint(_dates(other))


def _may_hold_one_value_twice(values: list[str]) -> bool:
    """False when no two of `values` share their letters and digits or a date (nearly always)."""
    letters, days = [*map(_letters_and_digits, values)], [d for v in values for d in _dates(v)]
    return len({*letters}) < len(letters) or len({*days}) < len(days)


def _one_value(value: str, other: str) -> bool:
    """Two spellings of one value to the paper's matcher: the same as `same_target` reads them,
    or the same letters and digits (or one date) and each found in the other."""
    return _may_be_one(value, other) and (
        same_target(value) == same_target(other)
        or (TextIndex(other).contains(value) and TextIndex(value).contains(other))
    )


def same_value_pairs(protected: list[str], allowed: list[str]) -> list[tuple[str, str]]:
    """(protected, allowed) values that are one value (`_one_value`: "H-460994" and "H460994")."""
    if not _may_hold_one_value_twice([*protected, *allowed]):
        return []  # (nearly every record)
    return [(v, other) for v in protected for other in allowed if _one_value(v, other)]


def _earlier_spellings(values: list[str]) -> list[tuple[str, str | None]]:
    """Each value with the earlier spelling of the same value it repeats (`_one_value`; an exact
    repeat too), or None for the first spelling of its value."""
    if not _may_hold_one_value_twice(values):
        return [(value, None) for value in values]  # (nearly every list)
    firsts: dict[str, str] = {}  # same_target form -> the value's first spelling
    spelled: list[tuple[str, str | None]] = []
    for value in values:
        earlier = firsts.get(key := same_target(value)) or next(
            (first for first in firsts.values() if _one_value(value, first)), None
        )
        spelled.append((value, earlier))
        firsts.setdefault(key, earlier or value)
    return spelled


def distinct_targets(values: list[str]) -> list[str]:
    """`values` with each value kept once, in its first spelling (`_earlier_spellings`)."""
    return [value for value, earlier in _earlier_spellings(values) if earlier is None]


@lru_cache(maxsize=1 << 14)  # each record's lists are read 4 times at start-up
def target_list(values: tuple[str, ...]) -> tuple[str, ...]:
    """`distinct_targets(flatten_values(values))`, computed once per distinct list."""
    return tuple(distinct_targets(flatten_values(list(values))))


def repeated_targets(values: list[str]) -> list[tuple[str, str]]:
    """The values `distinct_targets` drops, each with the spelling kept in its place."""
    return [
        (value, earlier) for value, earlier in _earlier_spellings(values) if earlier is not None
    ]


# `[` followed by a quote, a bracket, a brace or nothing: text that means to be a JSON array.
_ARRAY_START = re.compile(r'\[\s*(["\[\]{]|$)')


def parse_attacker_turns(text: str) -> list[str]:
    """The planned turns: a JSON array of strings, else the text as one turn (none when empty);
    ValueError for text that starts like an array of turns but is not one."""
    stripped = text.strip()
    if not stripped.startswith("["):
        return [stripped] if stripped else []
    try:
        parsed = json.loads(stripped)
    except json.JSONDecodeError as exc:
        if _ARRAY_START.match(stripped):
            raise ValueError(
                f"starts like a JSON array of turns but is not valid JSON "
                f"({exc.msg} at character {exc.pos})"
            ) from None
        return [stripped]
    if not all(isinstance(turn, str) for turn in parsed):
        raise ValueError("attacker text is a JSON array but not all items are strings")
    return [turn for turn in parsed if turn.strip()]


def field_names(value: Any) -> list[str]:
    """Field names from a `hidden_target` entry: a list of names, a dict's keys, or one name."""
    if not isinstance(value, dict | list | str):
        return []
    items = [value] if isinstance(value, str) else list(value)
    return list(dict.fromkeys(str(item).strip() for item in items if str(item).strip()))


@cache
def _domain_field_table() -> dict[str, Any]:
    return json.loads((files("polar_inspect.data") / "domain_fields.json").read_text("utf-8"))


def domain_fields(domain: str, side: str) -> list[str]:
    """The domain's `protected` or `allowed` field names (docs/data.md), [] if unknown."""
    entry = _domain_field_table().get(domain)
    return list(entry[side]) if isinstance(entry, dict) else []


@lru_cache(maxsize=1 << 16)  # the bundled set repeats each value in 25 records
def literal_items(value: str) -> list[Any] | None:
    """The parsed items of a list literal (JSON or Python), else None."""
    if (stripped := value.strip()).startswith("[") and stripped.endswith("]"):
        for parse in (json.loads, ast.literal_eval):
            try:
                parsed = parse(stripped)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if isinstance(parsed, list):
                return parsed
    return None


def expand_value(value: str) -> tuple[str, ...]:
    """The items of a list literal (JSON or Python) as text, else `(value,)`."""
    items = literal_items(value)
    return (value,) if items is None else tuple(str(item) for item in items)


def check_literal_item(item: Any) -> None:
    """Refuse a list literal's item that a plain value could not be: not text or a finite
    number (`[NaN]` would be `nan`, found in "financial"), or without a letter or digit."""
    text = _number_or_text(item)
    if not isinstance(text, str):  # a nested list
        raise ValueError(f"must be text or a number, got {json_kind(text)}")
    if not has_letter_or_digit(text):
        raise ValueError("holds no letter or digit; such a value would be found in every reply")


def json_kind(value: Any) -> str:
    """How a parsed JSON value is named in messages: "a string", "an array", "null"..."""
    kinds = ((bool, "a boolean"), (dict, "an object"), (list, "an array"), (str, "a string"))
    other = "null" if value is None else "a number"
    return next((name for py_type, name in kinds if isinstance(value, py_type)), other)


def flatten_values(values: list[str]) -> list[str]:
    """Flatten list-literal elements (JSON or Python) and de-duplicate keeping order."""
    items = (item for value in values for item in expand_value(value))
    return list(dict.fromkeys(item for item in items if item.strip()))
