"""POLAR-format records read exactly from Arrow tables (Parquet shards, as
`generate/publish/parquet.py` writes them); a type without an exact JSON form is refused."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

import jiter
import pyarrow as pa

from polar_inspect.data.json_text import loads_tracking_repeats

Decoder = Callable[[Any], Any]


class ArrowShapeError(ValueError):
    """A table has a column or value that has no exact POLAR-format (JSON) reading."""


class JsonCells:
    """Parses JSON cells; remembers those that repeat a key or do not parse."""

    def __init__(self) -> None:
        self.repeats = False
        self.bad: list[str] = []
        #: The table row being read, named in a complaint (None: not reading a table).
        self.row: int | None = None

    def parse(self, text: str, where: str) -> Any:
        if self.row is not None:
            where = f"row {self.row}, {where}"
        with suppress(ValueError):
            return jiter.from_json(text.encode("utf-8"), catch_duplicate_keys=True)
        try:
            value = loads_tracking_repeats(text)
        except ValueError as exc:
            self.bad.append(f"{where}: not valid JSON text ({exc})")
            return None
        self.repeats = True
        return value


#: Arrow types whose values are JSON values as Arrow gives them (numbers, texts), and lists.
_SCALARS = (pa.types.is_null, pa.types.is_boolean, pa.types.is_integer, pa.types.is_float64)
_TEXTS = (pa.types.is_string, pa.types.is_large_string, pa.types.is_string_view)
_LISTS = (pa.types.is_list, pa.types.is_large_list, pa.types.is_fixed_size_list)


def column_decoder(arrow_type: pa.DataType, where: str, cells: JsonCells) -> Decoder | None:
    """How one value of `arrow_type` becomes its JSON value (None: as Arrow gives it)."""
    if getattr(arrow_type, "extension_name", None) == "arrow.json":
        return lambda text: None if text is None else cells.parse(text, where)
    if pa.types.is_struct(arrow_type):
        return _struct_decoder(arrow_type, where, cells)
    if any(is_list(arrow_type) for is_list in _LISTS):
        return _list_decoder(arrow_type, where, cells)
    if any(is_scalar(arrow_type) for is_scalar in (*_SCALARS, *_TEXTS)):
        return None
    raise ArrowShapeError(
        f"{where}: Arrow type {arrow_type} has no exact JSON form; store such values as text "
        "(or as 64-bit floats, whole numbers, booleans, lists or structs of those)"
    )


def _list_decoder(arrow_type: pa.DataType, where: str, cells: JsonCells) -> Decoder | None:
    """A list's decoder: each item decoded (None: items as Arrow gives them)."""
    if (item_decoder := column_decoder(arrow_type.value_type, f"{where}[]", cells)) is None:
        return None
    return lambda items: None if items is None else [item_decoder(x) for x in items]


def _struct_decoder(arrow_type: pa.DataType, where: str, cells: JsonCells) -> Decoder:
    """A struct's decoder: each field decoded, a null field read as absent."""
    if arrow_type.num_fields == 0:
        raise ArrowShapeError(f"{where}: a struct without fields")
    fields = [
        (field.name, column_decoder(field.type, f"{where}.{field.name}", cells))
        for field in arrow_type
    ]

    def struct(value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is None:
            return None
        return {
            name: item if decode is None else decode(item)
            for name, decode in fields
            if (item := value[name]) is not None
        }

    return struct


def _read_column(
    table: pa.Table, field: pa.Field, rows: list[dict[str, Any]], cells: JsonCells
) -> None:
    """Put one column's values into `rows` (a null: the record has no such field)."""
    decode = column_decoder(field.type, f"column {field.name!r}", cells)
    for row, value in enumerate(table.column(field.name).to_pylist()):  # JSON: its texts
        if value is not None:
            cells.row = row
            rows[row][field.name] = value if decode is None else decode(value)


def table_records(table: pa.Table, origin: str) -> tuple[list[dict[str, Any]], bool]:
    """The records of `table` as JSON objects, and whether any repeats a key; ArrowShapeError."""
    cells = JsonCells()
    rows: list[dict[str, Any]] = [{} for _ in range(table.num_rows)]
    for field in table.schema:
        _read_column(table, field, rows, cells)
    if cells.bad:
        more = f" (and {len(cells.bad) - 5} more)" if len(cells.bad) > 5 else ""
        raise ArrowShapeError(f"{origin}: {'; '.join(cells.bad[:5])}{more}")
    return rows, cells.repeats
