"""Imports every built-in attacker module, which registers it (in alphabetical order)."""

from polar_inspect.attackers import adaptive, paper, scripted  # noqa: F401
