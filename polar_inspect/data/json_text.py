"""JSON text as the record loader reads it: repeated keys tracked, one-object files named, the
strict parser's complaints (`loading.py` reports them per record)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import jiter

#: Keys of which a record has at least one; an object with none of them is not a record.
RECORD_KEYS = ("sample_id", "domain", "metadata", "generated_texts", "scoring_targets")
EXPECTED_SHAPE = "expected a JSON array of record objects, or one JSON object per line"


class RepeatedKeys(dict[str, Any]):
    """A parsed JSON object whose keys repeat (`repeats`: key -> count), each last value kept."""

    repeats: dict[str, int]


def _object_tracking_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    parsed = dict(pairs)
    if len(parsed) == len(pairs):
        return parsed
    tracked = RepeatedKeys(parsed)
    tracked.repeats = {key: n for key, n in Counter(key for key, _ in pairs).items() if n > 1}
    return tracked


def loads_tracking_repeats(text: str | bytes) -> Any:
    """`json.loads`, with each object whose keys repeat returned as a `RepeatedKeys`."""
    return json.loads(text, object_pairs_hook=_object_tracking_repeats)


def repeated_keys(value: Any, path: str = "") -> list[tuple[str, str, int]]:
    """(field path of the object, key, count) for every repeated key in a parsed value."""
    found: list[tuple[str, str, int]] = []
    if isinstance(value, RepeatedKeys):
        found += [(_join(path, key), key, n) for key, n in value.repeats.items()]
    if isinstance(value, dict):
        for key, item in value.items():
            found += repeated_keys(item, _join(path, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += repeated_keys(item, f"{path}[{index}]")
    return found


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def one_object(text: bytes) -> dict[str, Any] | None:
    """The parsed object if `text` is exactly one JSON object, else None."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def looks_like_record(item: dict[str, Any]) -> bool:
    """True if `item` holds at least one of the keys every record has."""
    return any(key in item for key in RECORD_KEYS)


def single_object_message(whole: dict[str, Any]) -> str:
    """Why a file that is one JSON object is not a records file, naming what it holds."""
    if looks_like_record(whole):
        return f"the file holds a single JSON object; {EXPECTED_SHAPE}"
    if not (keys := list(whole)):
        return f"the file is an empty object; {EXPECTED_SHAPE}"
    array = next((key for key in keys if isinstance(whole[key], list)), None)
    shown = ", ".join(repr(key) for key in keys[:5]) + (" ..." if len(keys) > 5 else "")
    message = f"the file is an object, expected an array (found key{'s' * (len(keys) > 1)} {shown})"
    if array is not None:
        message += (
            f"; if the records are the {len(whole[array])} item(s) under {array!r}, save that "
            "array itself as the file"
        )
    return message


def strict_json_error(data: bytes) -> str | None:
    """What the strict parser says about `data` (a lone surrogate escape...), or None."""
    try:
        jiter.from_json(data)
    except ValueError as exc:
        error = str(exc)
        if "escape" in error and "surrogate" not in error:
            error += "; a \\u escape in the range \\ud800-\\udfff must be half of a surrogate pair"
        return error
    return None
