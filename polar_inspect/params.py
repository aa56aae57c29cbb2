"""The value types of task parameters, and `ParameterError` (docs/hostile-checks.md)."""

from __future__ import annotations

import math
import numbers
from typing import Annotated, Any

from pydantic import BeforeValidator, Strict, ValidationError

from polar_inspect.errors import UserInputError


class ParameterError(UserInputError):
    """A task parameter has the wrong type, an out-of-range value, or an unknown name."""

    @classmethod
    def from_validation(cls, err: ValidationError, context: str = "") -> ParameterError:
        """One message for every problem pydantic found (each names its parameter)."""
        problems = [_problem(error) for error in err.errors()]
        prefix = f"{context}: " if context else ""
        return cls(prefix + "; ".join(problems))


def shown(value: object) -> str:
    """A parameter value as messages quote it: repr, cut at 80 characters, with its type."""
    if value is None:
        return "(empty)"
    text = repr(value)
    text = text if len(text) <= 80 else text[:77] + "..."
    return f"{text} ({type(value).__name__})"


def _problem(error: Any) -> str:
    if not error["loc"]:  # a rule across parameters: its message names them
        return str(error["msg"]).removeprefix("Value error, ")
    name = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        return f"unknown task parameter {name}"
    if error["type"] == "missing":
        return f"task parameter {name} is required"
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "literal_error":
        message = f"expected one of {error.get('ctx', {}).get('expected', '')}"
    elif error["type"] in ("bool_type", "bool_parsing"):
        message = "expected true or false"
    elif error["type"].startswith("int") or error["type"] == "greater_than_equal":
        limit = error.get("ctx", {}).get("ge")
        message = "expected a whole number" + (f" >= {limit}" if limit is not None else "")
    return f"Task parameter {name}={shown(error.get('input'))}: {message}"


def is_whole(value: object) -> bool:
    """A whole number that is not a bool (YAML reads `true` as a bool, never as 1)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _whole(value: object) -> object:
    if value is None:
        return value
    if not is_whole(value) or int(value) < 1:  # type: ignore[call-overload]
        raise ValueError("expected a whole number >= 1, or leave it out")
    return int(value)  # type: ignore[call-overload]


def _fraction(value: object) -> float:
    number = value if isinstance(value, numbers.Real) and not isinstance(value, bool) else None
    if number is None or not math.isfinite(float(number)) or not 0.0 <= float(number) <= 1.0:
        raise ValueError("expected a number within [0, 1], e.g. 0.5")
    return float(number)


def _template_path(value: object) -> object:
    if value is None or (isinstance(value, str) and value.strip()):
        return value
    hint = ""
    if isinstance(value, list):
        hint = " (a comma inside a -T value splits it into a list: quote the whole value)"
    raise ValueError(f"expected the path of a template file, or leave it out{hint}")


def split_names(value: object) -> tuple[str, ...] | None:
    """None (everything), one name, a comma-separated string or a list of names."""
    if value is None:
        return None
    if is_whole(value):  # `-T policy=1` arrives as the number 1
        value = str(value)
    expected = "a name, a comma-separated list or a list of names"
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(
        isinstance(item, str) or is_whole(item) for item in items
    ):
        raise ValueError(f"expected {expected}")
    names = [str(item).strip() for item in items]
    if not names or not all(names):
        raise ValueError(f"expected {expected}, with no empty item (leave it out for all)")
    return tuple(names)


#: A whole number >= 1, or None (not a bool, not 2.5, not "3").
PositiveWhole = Annotated[int | None, BeforeValidator(_whole)]
#: true or false (YAML's booleans), never 1, 0 or "yes" (`_problem` says so).
Flag = Annotated[bool, Strict()]
#: A number within [0, 1] (not a bool).
Fraction = Annotated[float, BeforeValidator(_fraction)]
#: The path of a template file, or None (the packaged default).
TemplatePath = Annotated[str | None, BeforeValidator(_template_path)]
#: A selection of names (None: everything); a comma-separated string is split.
Names = Annotated[tuple[str, ...] | None, BeforeValidator(split_names)]
