"""The dialogue solver, the per-sample state it writes and its hooks (docs/architecture.md)."""

from polar_inspect.dialogue.solver import polar_dialogue

__all__ = ["polar_dialogue"]
