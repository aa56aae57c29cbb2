"""The dialogue: the solver that plays the trusted model against the attacker, the per-sample
state it writes (`state.py`), and what it needs around each turn (roles, defense hooks, the
shared request cap, the trusted replies' limits, each role's sampling)."""

from polar_inspect.dialogue.solver import polar_dialogue

__all__ = ["polar_dialogue"]
