"""Rules on single fields of a release record, declared on the models of `records.py`."""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES, attack_code, policy_code
from polar_inspect.data.record_values import is_number, json_kind

_BENCHMARK_DOMAINS = {name.lower(): name for name in DOMAINS}


def domain_spelling(value: str) -> str:
    """A domain without spaces around it; one of the ten only in the benchmark's spelling."""
    if value != value.strip():
        raise ValueError(f"{value!r} has spaces around it; write {value.strip()!r}")
    known = _BENCHMARK_DOMAINS.get(unicodedata.normalize("NFKC", value).casefold())
    if known is not None and known != value:
        raise ValueError(
            f"{value!r} differs from the benchmark's domain {known!r} only by case (or by "
            f"compatibility characters such as ligatures); write {known!r}"
        )
    return value


#: A domain name: any non-empty name, but the benchmark's ten only in their own spelling.
DomainName = Annotated[str, Field(min_length=1), AfterValidator(domain_spelling)]


def turn_count(value: Any) -> Any:
    """`attack_spec.turns`: a JSON integer > 0 (a whole float such as 3.0 is read as 3)."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"must be a positive whole number of turns, got {json_kind(value)}")
    if value < 1:
        raise ValueError(f"must be a positive whole number of turns, got {value}")
    return value


def goal_text(value: Any) -> Any:
    """`attacker_goal` as one text: a list of field names is joined with ", "."""
    if isinstance(value, list):
        if not all(isinstance(item, str) or is_number(item) for item in value):
            raise ValueError("a list attacker_goal must hold field names (strings)")
        return ", ".join(str(item) for item in value if str(item).strip())
    return value


#: Per axis: the code parser, the code -> name table, and what the axis is called.
_AXES = {
    "P": (policy_code, POLICY_TYPES, "privacy level"),
    "S": (attack_code, ATTACK_TYPES, "attack strategy"),
}


@cache
def _code(axis: str, value: str | int) -> str | None:
    """`policy_code` / `attack_code` of a value, remembered (a file repeats a few values)."""
    return _AXES[axis][0](value)


def axis_problem(name: Any, code_field: str, code_value: Any, axis: str) -> str | None:
    """Why `name` (a name, code or number) is not `code_value`'s level / strategy, else None."""
    if name is None or code_value is None:
        return None
    _, names, what = _AXES[axis]
    named = (
        _code(axis, name) if isinstance(name, str | int) and not isinstance(name, bool) else None
    )
    expected = _code(axis, code_value)
    if named is None:
        return f"unknown {what} {name!r} (expected one of {', '.join(names.values())})"
    if named != expected:
        return (
            f"{name!r} is {named}, but {code_field} {code_value!r} is {expected}: the record "
            f"would be scored in the {expected} cell; make the two agree"
        )
    return None
