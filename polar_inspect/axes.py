"""The benchmark's fixed vocabulary: domains, policy levels and attack strategies (`axes.json`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from polar_inspect.errors import UserInputError

_AXES = json.loads(Path(__file__).with_name("axes.json").read_text(encoding="utf-8"))
DOMAINS: tuple[str, ...] = tuple(_AXES["domains"])
#: Policy level code -> release `privacy_type`, and its label.
POLICY_TYPES: dict[str, str] = _AXES["policy_types"]
POLICY_LABELS: dict[str, str] = _AXES["policy_labels"]
#: Attack strength code -> release `attack_type`, and its label.
ATTACK_TYPES: dict[str, str] = _AXES["attack_types"]
ATTACK_LABELS: dict[str, str] = _AXES["attack_labels"]
#: Planned attacker turns per strategy (min, max), as in the paper.
ATTACK_TURN_RANGES: dict[str, tuple[int, int]] = {
    code: (low, high) for code, (low, high) in _AXES["attack_turn_ranges"].items()
}

#: The paper's `max_rounds`: the turn budget when a sample has no `attack_spec.turns`.
DEFAULT_TURN_BUDGET = 6

#: The only strategy with a live (model-driven) attacker.
LIVE_ATTACK = "S5"


class SelectionError(UserInputError):
    """A task parameter named a value outside the benchmark's vocabulary."""


def _code_from(value: object, prefix: str, names: Mapping[str, str]) -> str | None:
    text = str(value).strip()
    if (upper := text.upper()) in names:
        return upper
    if text.isdigit() and f"{prefix}{int(text)}" in names:
        return f"{prefix}{int(text)}"
    return next((code for code, name in names.items() if text.lower() == name), None)


def policy_code(value: object) -> str | None:
    """Return `P1`..`P5` for a level code, a bare number or a `privacy_type` name, else None."""
    return _code_from(value, "P", POLICY_TYPES)


def attack_code(value: object) -> str | None:
    """Return `S1`..`S5` for a strength code, a bare number or an `attack_type` name, else None."""
    return _code_from(value, "S", ATTACK_TYPES)


def parse_domains(
    value: str | Iterable[str] | None, available: Iterable[str] | None = None
) -> list[str]:
    """Parse a domain selection (a name, a comma-separated list or a list; None: the ten, then
    the data's own domains in `available`, sorted), matched case-insensitively (docs/data.md)."""
    extra = sorted(set(available or ()) - set(DOMAINS))
    known = {name.lower(): name for name in (*DOMAINS, *extra)}
    parts = value.split(",") if isinstance(value, str) else [str(v) for v in value or ()]
    if not (items := [item.strip() for item in parts if item.strip()]):
        return [*DOMAINS, *extra]
    if unknown := [item for item in items if item.lower() not in known]:
        also = f" Also in the data: {', '.join(extra)}." if extra else ""
        raise SelectionError(
            f"Unknown domain {', '.join(map(repr, unknown))}. Valid domains: "
            f"{', '.join(DOMAINS)}.{also}"
        )
    return list(dict.fromkeys(known[item.lower()] for item in items))
