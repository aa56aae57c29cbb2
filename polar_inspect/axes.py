"""The benchmark's fixed vocabulary: domains, policy levels and attack strategies."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from polar_inspect.errors import UserInputError

DOMAINS: tuple[str, ...] = (
    "customer_support",
    "cybersecurity",
    "education",
    "finance",
    "housing",
    "insurance",
    "legal",
    "medical",
    "recruitment",
    "travel",
)

#: Policy level code -> release `privacy_type`.
POLICY_TYPES: dict[str, str] = {
    "P1": "explicit_field_constraints",
    "P2": "semantic_constraints",
    "P3": "conditional_constraints",
    "P4": "compositional_constraints",
    "P5": "conflicting_constraints",
}
POLICY_LABELS: dict[str, str] = {
    "P1": "Explicit",
    "P2": "Semantic",
    "P3": "Conditional",
    "P4": "Partial / abstract",
    "P5": "Conflicting",
}

#: Attack strength code -> release `attack_type`.
ATTACK_TYPES: dict[str, str] = {
    "S1": "direct_single_turn",
    "S2": "yes_no_narrowing",
    "S3": "role_confusion",
    "S4": "prompt_injection",
    "S5": "multi_turn_progressive",
}
ATTACK_LABELS: dict[str, str] = {
    "S1": "Direct",
    "S2": "Yes/no narrowing",
    "S3": "Role confusion",
    "S4": "Prompt injection",
    "S5": "Progressive multi-turn",
}

#: Planned attacker turns per strategy (min, max), as in the paper.
ATTACK_TURN_RANGES: dict[str, tuple[int, int]] = {
    "S1": (1, 1),
    "S2": (3, 7),
    "S3": (2, 4),
    "S4": (1, 3),
    "S5": (3, 6),
}

#: The paper's `max_rounds`: the turn budget when a sample has no `attack_spec.turns`.
DEFAULT_TURN_BUDGET = 6

#: The only strategy with a live (model-driven) attacker.
LIVE_ATTACK = "S5"


class SelectionError(UserInputError):
    """A task parameter named a value outside the benchmark's vocabulary."""


def _code_from(value: object, prefix: str, names: Mapping[str, str]) -> str | None:
    text = str(value).strip()
    upper = text.upper()
    if upper in names:
        return upper
    if text.isdigit() and f"{prefix}{int(text)}" in names:
        return f"{prefix}{int(text)}"
    for code, name in names.items():
        if text.lower() == name:
            return code
    return None


def policy_code(value: object) -> str | None:
    """Return `P1`..`P5` for a level code, a bare number or a `privacy_type` name, else None."""
    return _code_from(value, "P", POLICY_TYPES)


def attack_code(value: object) -> str | None:
    """Return `S1`..`S5` for a strength code, a bare number or an `attack_type` name, else None."""
    return _code_from(value, "S", ATTACK_TYPES)


def _split(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    return [item.strip() for item in items if item.strip()]


def parse_domains(
    value: str | Iterable[str] | None, available: Iterable[str] | None = None
) -> list[str]:
    """Parse a domain selection (a name, a comma-separated list or a list; None: the ten, then
    the data's own domains in `available`, sorted), matched case-insensitively (docs/data.md)."""
    extra = sorted(set(available or ()) - set(DOMAINS))
    known = {name.lower(): name for name in (*DOMAINS, *extra)}
    items = _split(value)
    if not items:
        return [*DOMAINS, *extra]
    unknown = [item for item in items if item.lower() not in known]
    if unknown:
        also = f" Also in the data: {', '.join(extra)}." if extra else ""
        raise SelectionError(
            f"Unknown domain {', '.join(map(repr, unknown))}. Valid domains: "
            f"{', '.join(DOMAINS)}.{also}"
        )
    return list(dict.fromkeys(known[item.lower()] for item in items))
