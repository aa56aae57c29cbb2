"""How attacker turns are produced: one registered attacker per `-T attacker=` value.

- `paper` (default): S1-S4 scripted, S5 live on the `attacker` role (replayed when unbound).
- `scripted`: every strategy plays its planned turns verbatim; no model is called.
- `adaptive`: every strategy live on the `attacker` role, with a private plan and a budget.

Each is a subclass of `Attacker` registered by name (`registry.builtin`, or a package's entry
point in the group `polar_inspect.attackers`), built once per task from its own options, and
starts one `SampleAttacker` per sample, which the dialogue loop asks for the next message.
"""

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
    bound_attacker,
    generate_as_attacker,
)
from polar_inspect.attackers.registry import (
    ATTACKERS,
    DEFAULT_ATTACKER,
    ENTRY_POINT_GROUP,
    AttackerNameError,
    available_attackers,
    builtin,
)

__all__ = [
    "ATTACKERS",
    "ATTACKER_DEFAULTS",
    "ATTACKER_ROLE",
    "DEFAULT_ATTACKER",
    "ENTRY_POINT_GROUP",
    "STOP_TOKEN",
    "Attacker",
    "AttackerNameError",
    "AttackerOptionsError",
    "AttackerTurn",
    "NoOptions",
    "NonAttack",
    "NonAttackKind",
    "PlanEntry",
    "SampleAttacker",
    "StopReason",
    "TurnSource",
    "attacker_config",
    "available_attackers",
    "bound_attacker",
    "builtin",
    "generate_as_attacker",
]
