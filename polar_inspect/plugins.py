"""Extension points registered by name: built-ins by a class decorator, third parties by an
entry point group (docs/attackers.md, docs/defenses.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, TypeVar

from polar_inspect.errors import UserInputError

T = TypeVar("T")


class PluginError(UserInputError):
    """A name that no plug-in answers to, or an installed plug-in that cannot be used."""


def one_line(err: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0]}" if text else type(err).__name__


def short_repr(value: object) -> str:
    """A value as an error message shows it: its type and its repr, cut at 60 characters."""
    text = repr(value)
    return f"{type(value).__name__} {text[:60]}{'...' if len(text) > 60 else ''}"


def _distribution_of(point: EntryPoint) -> tuple[str, str | None]:
    if (dist := point.dist) is None:
        return ("(unknown distribution)", None)
    return (dist.metadata["Name"] or dist.name, dist.version)


def _origin(point: EntryPoint) -> str:
    name, version = _distribution_of(point)
    return f"{name} {version}" if version else name


@dataclass(eq=False)
class PluginRegistry(Generic[T]):
    """Classes of one kind by name: built-ins first (sorted by name), then plug-ins."""

    kind: str  # e.g. "defense", for messages
    base: type[T]
    group: str
    builtins_module: str  # its imports register the built-ins
    reserved: tuple[str, ...] = ()  # names that no class may take (e.g. "none")
    error: type[UserInputError] = PluginError
    _builtins: dict[str, type[T]] = field(default_factory=dict, init=False)
    #: entry point name -> (distribution, version) it was loaded from
    origins: dict[str, tuple[str, str | None]] = field(default_factory=dict, init=False)

    def builtin(self, cls: type[T]) -> type[T]:
        """Class decorator: register a built-in under its `name` class attribute."""
        name = getattr(cls, "name", "")
        if not name or name in self._builtins or name in self.reserved:
            raise ValueError(f"{self.kind} name {name!r} is empty or already taken")
        self._builtins[name] = cls
        return cls

    def available(self) -> dict[str, type[T]]:
        """Every registered class by name: built-ins, then entry points (each checked by
        `_load`; a name two distributions register is the registry's error), sorted by name."""
        import_module(self.builtins_module)
        found: dict[str, type[T]] = dict(sorted(self._builtins.items()))
        by_name: dict[str, list[EntryPoint]] = {}
        for point in entry_points(group=self.group):
            by_name.setdefault(point.name, []).append(point)
        for name, points in sorted(by_name.items()):
            if len(points) > 1:
                raise self.error(
                    f"{self.kind} {name!r} is registered by {len(points)} installed "
                    f"distributions: {' and '.join(_origin(p) for p in points)} (entry point "
                    f"group {self.group}); uninstall one, or rename its entry point"
                )
            found[name] = self._load(points[0])
        return found

    def _load(self, point: EntryPoint) -> type[T]:
        """One entry point's class, checked (see `available`)."""
        where = f"entry point {point.name!r} = {point.value!r} of {_origin(point)}"
        if point.name in self._builtins or point.name in self.reserved:
            raise self.error(f"{where}: the name is taken by a built-in {self.kind}")
        try:
            loaded = point.load()
        except BaseException as err:  # noqa: BLE001 - a broken plug-in (even sys.exit) is named
            if isinstance(err, KeyboardInterrupt):
                raise
            raise self.error(f"{where}: cannot be loaded ({one_line(err)})") from None
        if not (isinstance(loaded, type) and issubclass(loaded, self.base)):
            raise self.error(f"{where}: is not a subclass of polar_inspect's {self.base.__name__}")
        if (said := getattr(loaded, "name", point.name)) != point.name:
            raise self.error(
                f"{where}: the class says its name is {said!r}; the "
                "entry point and the class must use the same name"
            )
        self.origins[point.name] = _distribution_of(point)
        return loaded

    def get(self, name: str) -> type[T]:
        """The class registered as `name`, or the registry's error listing what there is."""
        if name not in (known := self.available()):
            listed = ", ".join([*self.reserved, *known])
            raise self.error(
                f"unknown {self.kind} {name!r}; available: {listed} (third-party "
                f"{self.kind}s register in the entry point group {self.group!r})"
            )
        return known[name]

    def names(self) -> list[str]:
        """Every registered name, built-ins first."""
        return list(self.available())
