"""Extension points registered by name: built-ins by a class decorator, third parties by an
entry point group.

Defenses (`-T defense=NAME`) and attackers (`-T attacker=NAME`) are both a `PluginRegistry` of
classes: a built-in is registered with the registry's decorator, and an installed package adds
its own in its `pyproject.toml`:

    [project.entry-points."polar_inspect.attackers"]
    my_attacker = "my_package.attackers:MyAttacker"

The entry point's name is the name used on the command line; it must load to a subclass of the
registry's base class, and may not take a built-in's name.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from polar_inspect.errors import UserInputError

T = TypeVar("T")


class PluginError(UserInputError):
    """A name that no plug-in answers to, or an installed plug-in that cannot be used."""


class PluginRegistry(Generic[T]):
    """Classes of one kind by name: built-ins first (sorted by name), then plug-ins."""

    def __init__(
        self,
        kind: str,
        base: type[T],
        group: str,
        builtins_module: str,
        reserved: tuple[str, ...] = (),
        error: type[PluginError] = PluginError,
    ) -> None:
        self.kind = kind  # e.g. "defense", for messages
        self.base = base
        self.group = group
        self.reserved = reserved  # names that no class may take (e.g. "none")
        self.error = error
        self._builtins_module = builtins_module
        self._builtins: dict[str, type[T]] = {}

    def builtin(self, cls: type[T]) -> type[T]:
        """Class decorator: register a built-in under its `name` class attribute."""
        name = getattr(cls, "name", "")
        if not name or name in self._builtins or name in self.reserved:
            raise ValueError(f"{self.kind} name {name!r} is empty or already taken")
        self._builtins[name] = cls
        return cls

    def available(self) -> dict[str, type[T]]:
        """Every registered class by name: built-ins, then entry points, each sorted by name.

        An entry point that takes a built-in's name or does not load to a subclass of the base
        class raises the registry's error naming the entry point to fix.
        """
        import_module(self._builtins_module)  # its imports register the built-ins
        found: dict[str, type[T]] = dict(sorted(self._builtins.items()))
        for point in sorted(entry_points(group=self.group), key=lambda p: p.name):
            where = f"entry point {point.name!r} = {point.value!r} (group {self.group})"
            if point.name in self._builtins or point.name in self.reserved:
                raise self.error(f"{where}: the name is taken by a built-in {self.kind}")
            try:
                loaded = point.load()
            except Exception as err:  # a broken plug-in is named, not a traceback
                raise self.error(f"{where}: cannot be loaded ({err})") from err
            if not (isinstance(loaded, type) and issubclass(loaded, self.base)):
                raise self.error(
                    f"{where}: is not a subclass of polar_inspect's {self.base.__name__}"
                )
            if getattr(loaded, "name", point.name) != point.name:
                raise self.error(
                    f"{where}: the class says its name is {loaded.name!r}; the "
                    "entry point and the class must use the same name"
                )
            found[point.name] = loaded
        return found

    def get(self, name: str) -> type[T]:
        """The class registered as `name`, or the registry's error listing what there is."""
        known = self.available()
        if name not in known:
            listed = ", ".join([*self.reserved, *known])
            raise self.error(
                f"unknown {self.kind} {name!r}; available: {listed} (third-party "
                f"{self.kind}s register in the entry point group {self.group!r})"
            )
        return known[name]

    def names(self) -> list[str]:
        """Every registered name, built-ins first."""
        return list(self.available())
