"""How attacker turns are produced: one registered attacker per `-T attacker=` value
(`paper`, `scripted`, `adaptive`, or a plug-in's entry point); see docs/attackers.md."""

from polar_inspect.attackers.base import (
    ATTACKER_DEFAULTS,
    ATTACKER_ROLE,
    STOP_TOKEN,
    Attacker,
    AttackerOptionsError,
    AttackerTurn,
    NonAttack,
    NonAttackKind,
    NoOptions,
    PlanEntry,
    SampleAttacker,
    StopReason,
    TurnSource,
    attacker_config,
    generate_as_attacker,
)
from polar_inspect.attackers.registry import (
    ATTACKERS,
    DEFAULT_ATTACKER,
    ENTRY_POINT_GROUP,
    AttackerNameError,
    available_attackers,
)

__all__ = ["ATTACKERS", "ATTACKER_DEFAULTS", "ATTACKER_ROLE", "DEFAULT_ATTACKER",
           "ENTRY_POINT_GROUP", "STOP_TOKEN", "Attacker", "AttackerNameError",
           "AttackerOptionsError", "AttackerTurn", "NoOptions", "NonAttack", "NonAttackKind",
           "PlanEntry", "SampleAttacker", "StopReason", "TurnSource", "attacker_config",
           "available_attackers", "generate_as_attacker"]  # fmt: skip
