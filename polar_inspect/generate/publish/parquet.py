"""POLAR-format records as Arrow tables (the rows of Parquet shards), exact both ways: a typed
column where Arrow holds every value exactly, else a JSON column (docs/generator.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from polar_inspect.data.parquet_records import ArrowShapeError, JsonCells, column_decoder

_ABSENT = object()
_ARROW_ERRORS = (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError)


def _json_column(values: Sequence[Any]) -> pa.Array:
    texts = [None if v is _ABSENT else json.dumps(v, ensure_ascii=False) for v in values]
    return pa.ExtensionArray.from_storage(pa.json_(), pa.array(texts, pa.string()))


def _typed_column(values: Sequence[Any], name: str) -> pa.Array | None:
    """`values` as a typed Arrow array, if Arrow holds each exactly (else None)."""
    if any(v is _ABSENT or v is None for v in values):
        return None
    try:
        array = pa.array(values)
        decode = column_decoder(array.type, name, JsonCells())
    except (*_ARROW_ERRORS, ArrowShapeError, TypeError, ValueError):
        return None
    back = array.to_pylist()
    if decode is not None:
        back = [decode(v) for v in back]
    exact = json.dumps(back, ensure_ascii=False) == json.dumps(list(values), ensure_ascii=False)
    return array if exact else None


def records_table(records: Sequence[dict[str, Any]]) -> pa.Table:
    """An Arrow table holding `records` exactly (see the module's description)."""
    names = list(dict.fromkeys(key for record in records for key in record))
    arrays = []
    for name in names:
        values = [record.get(name, _ABSENT) for record in records]
        typed = _typed_column(values, f"column {name!r}")
        arrays.append(typed if typed is not None else _json_column(values))
    return pa.Table.from_arrays(arrays, names=names)
