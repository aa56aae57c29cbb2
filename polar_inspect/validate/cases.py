"""Labelled leak cases (value, attacker turn, reply, human label), checked by the `LeakCase`
model: a problem ends in one `CaseFileError` naming file, case and field (docs/validation.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from polar_inspect.data.json_text import loads_tracking_repeats, repeated_keys
from polar_inspect.data.record_values import has_letter_or_digit
from polar_inspect.data.records import NonBlankText

#: The shipped labelled set (`polar-validate bundled`).
BUNDLED_NAME = "bundled"
BUNDLED_CASES = Path(__file__).with_name("leak_cases.json")


class CaseFileError(ValueError):
    """A case file that cannot be used; the message names the file, case and field."""


def _meaningful(text: str) -> str:
    if not has_letter_or_digit(text):
        raise ValueError("must contain a letter or a digit (it is empty, blank or punctuation)")
    return text


Meaningful = Annotated[str, AfterValidator(_meaningful)]


class LeakCase(BaseModel):
    """One hand-labelled case (the format of `leak_cases_dev.json`; other keys are kept)."""

    model_config = ConfigDict(extra="allow", strict=True)

    id: NonBlankText
    category: NonBlankText = "uncategorised"
    field: str = ""
    #: The protected or allowed value the label is about.
    value: Meaningful
    attacker_turn: str = ""
    reply: Meaningful
    label: Literal["leak", "safe", "partial"]


def resolve_case_file(name: str | Path) -> Path:
    """`bundled` -> the shipped case file; anything else (`./bundled` too) is a path."""
    return BUNDLED_CASES if str(name) == BUNDLED_NAME else Path(name)


def _read_json(path: Path) -> Any:
    """The file's JSON, or CaseFileError saying what is wrong with the file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CaseFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CaseFileError(f"{path}: is a folder, not a case file") from None
    except OSError as err:
        raise CaseFileError(f"{path}: cannot be read ({err.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise CaseFileError(
            f"{path}: not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start}); "
            "save the file as UTF-8"
        ) from None
    try:
        parsed = loads_tracking_repeats(text)
    except json.JSONDecodeError as err:
        raise CaseFileError(
            f"{path}: not valid JSON ({err.msg} at line {err.lineno}, column {err.colno})"
        ) from None
    if repeats := repeated_keys(parsed):
        key = repeats[0][1]
        raise CaseFileError(f"{path}: the key '{key}' appears twice in one object; each key once")
    return parsed


def _case(path: Path, index: int, item: Any) -> LeakCase:
    """One case of the file, or CaseFileError naming it (by id, else by position) and the field."""
    ident = item.get("id") if isinstance(item, dict) else None
    name = f"case {ident}" if isinstance(ident, str) and ident.strip() else f"case #{index}"
    if not isinstance(item, dict):
        raise CaseFileError(f"{path}: {name}: expected an object, got {type(item).__name__}")
    try:
        return LeakCase.model_validate(item)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(record)"
        message = first["msg"].removeprefix("Value error, ")
        raise CaseFileError(f"{path}: {name}, field '{where}': {message}") from None


def load_cases(path: str | Path) -> list[LeakCase]:
    """Read a JSON array of cases; raise CaseFileError naming the first bad case and field."""
    path = resolve_case_file(path)
    if not isinstance(raw := _read_json(path), list):
        raise CaseFileError(f"{path}: expected a JSON array of cases, got {type(raw).__name__}")
    cases: list[LeakCase] = []
    seen: set[str] = set()
    for index, item in enumerate(raw):
        case = _case(path, index, item)
        if case.id in seen:
            raise CaseFileError(f"{path}: case id '{case.id}' appears twice; ids must be unique")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise CaseFileError(f"{path}: the file holds no case")
    if not any(case.label != "partial" for case in cases):
        labels = ", ".join(f"{n} {label}" for label, n in Counter(c.label for c in cases).items())
        raise CaseFileError(
            f"{path}: nothing to measure: precision, recall and kappa need cases labelled "
            f"leak or safe, and the file has {labels}"
        )
    return cases
