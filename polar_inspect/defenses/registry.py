"""Defenses by name: the built-ins, plus any package's entry points in `polar_inspect.defenses`
(docs/defenses.md#your-own-defense)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from polar_inspect.defenses.base import Defense, DefenseSpecError
from polar_inspect.plugins import PluginRegistry

ENTRY_POINT_GROUP = "polar_inspect.defenses"
NO_DEFENSE = "none"
#: Separates a defense's name from the path of its replacement prompt template.
PROMPT_SEPARATOR = "@"

DEFENSES: PluginRegistry[Defense] = PluginRegistry(
    kind="defense",
    base=Defense,
    group=ENTRY_POINT_GROUP,
    builtins_module="polar_inspect.defenses.builtins",
    reserved=(NO_DEFENSE,),
    error=DefenseSpecError,
)
#: Class decorator registering a built-in defense under its `name`.
builtin = DEFENSES.builtin


class DefenseSpec(BaseModel):
    """One entry of a defense stack: a registered name and an optional prompt template."""

    model_config = ConfigDict(frozen=True)

    name: str
    prompt: str | None = None

    def label(self) -> str:
        """How the entry is written on the command line."""
        return self.name if self.prompt is None else f"{self.name}{PROMPT_SEPARATOR}{self.prompt}"


def available_defenses() -> dict[str, type[Defense]]:
    """Every registered defense by name: built-ins first, then entry points (sorted)."""
    return DEFENSES.available()


def _parse_entry(entry: str, known: Sequence[str], spec: object) -> DefenseSpec:
    """One `name[@prompt.txt]` entry, checked against the registered names."""
    name, _, prompt = entry.partition(PROMPT_SEPARATOR)
    name = name.strip()
    if not name:
        raise DefenseSpecError(
            f"defense: {entry!r} names no defense before '{PROMPT_SEPARATOR}'; write "
            f"'guard{PROMPT_SEPARATOR}path/to/template.txt' (a defense name, then the file)"
        )
    if name == NO_DEFENSE:
        raise DefenseSpecError(
            f"defense: {NO_DEFENSE!r} means no defense and cannot be stacked with others "
            f"({spec!r}); write -T defense={NO_DEFENSE} alone, or leave it out of the list"
        )
    if name not in known:
        raise DefenseSpecError(
            f"defense: unknown defense {name!r} in {entry!r}; available: "
            f"{', '.join([NO_DEFENSE, *known])} (third-party defenses register in the "
            f"entry point group {ENTRY_POINT_GROUP!r})"
        )
    if PROMPT_SEPARATOR in entry and not prompt.strip():
        raise DefenseSpecError(
            f"defense: {entry!r} names no prompt file after '{PROMPT_SEPARATOR}'; write "
            f"'{name}@path/to/template.txt' or '{name}' alone"
        )
    return DefenseSpec(name=name, prompt=prompt.strip() or None)


def parse_defense(spec: str | Sequence[str] | None) -> list[DefenseSpec]:
    """`none`, or a comma-separated list (or list) of `name[@prompt.txt]` entries, in order."""
    if spec is None:
        return []
    specs = [spec] if isinstance(spec, str) else spec
    if not isinstance(specs, Sequence) or not all(isinstance(s, str) for s in specs):
        raise DefenseSpecError(f"defense must be a string or a list of strings, got {spec!r}")
    entries = [item.strip() for s in specs for item in s.split(",") if item.strip()]
    if entries == [NO_DEFENSE] or not entries:
        return []
    known = list(available_defenses())
    parsed = [_parse_entry(entry, known, spec) for entry in entries]
    if len(set(names := [p.name for p in parsed])) != len(names):
        raise DefenseSpecError(f"defense: a defense is listed twice in {spec!r}")
    return parsed
