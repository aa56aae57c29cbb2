"""Attackers by name: the built-ins, plus any package's entry points in `polar_inspect.attackers`.

A third-party package registers an attacker in its own `pyproject.toml`:

    [project.entry-points."polar_inspect.attackers"]
    my_attacker = "my_package.attackers:MyAttacker"

where `MyAttacker` subclasses `polar_inspect.attackers.Attacker` and says `name = "my_attacker"`.
The entry point's name is the name used in `-T attacker=my_attacker`.
"""

from __future__ import annotations

from polar_inspect.attackers.base import Attacker
from polar_inspect.plugins import PluginError, PluginRegistry

ENTRY_POINT_GROUP = "polar_inspect.attackers"
DEFAULT_ATTACKER = "paper"


class AttackerNameError(PluginError):
    """`-T attacker=` names no registered attacker, or an installed one cannot be used."""


ATTACKERS: PluginRegistry[Attacker] = PluginRegistry(
    kind="attacker",
    base=Attacker,
    group=ENTRY_POINT_GROUP,
    builtins_module="polar_inspect.attackers.builtins",
    error=AttackerNameError,
)
#: Class decorator registering a built-in attacker under its `name`.
builtin = ATTACKERS.builtin


def available_attackers() -> dict[str, type[Attacker]]:
    """Every registered attacker by name: built-ins first, then entry points (sorted)."""
    return ATTACKERS.available()
