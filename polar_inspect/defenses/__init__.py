"""Defenses around the trusted model's turn (`-T defense=NAME[,NAME...]`): a registry, the
built-ins and the per-sample stack (docs/defenses.md)."""

from polar_inspect.defenses.base import Defense, DefenseContext, DefenseKind
from polar_inspect.defenses.registry import (
    ENTRY_POINT_GROUP,
    NO_DEFENSE,
    DefenseSpec,
    DefenseSpecError,
    available_defenses,
    parse_defense,
)
from polar_inspect.defenses.stack import DefenseRecord, DefenseStack, SampleDefenses

__all__ = ["ENTRY_POINT_GROUP", "NO_DEFENSE", "Defense", "DefenseContext", "DefenseKind",
           "DefenseRecord", "DefenseSpec", "DefenseSpecError", "DefenseStack", "SampleDefenses",
           "available_defenses", "parse_defense"]  # fmt: skip
