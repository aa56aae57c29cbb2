"""Read-only JSON values that copies share: a sample's metadata and a score's verdict, which
Inspect deep-copies as a sample starts and in every metric pass (docs/large-runs.md). Readers
see a `dict` or a `list` (JSON, pydantic, `==`); a write raises `TypeError`."""

from __future__ import annotations

from typing import Any, NoReturn


def _read_only(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is read-only: change a copy (dict(x) or list(x))")


class _Shared:
    """A deep copy is the value itself, as a string's is; a copy or a pickle stays frozen."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Any:
        return self

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        plain: Any = self
        return (type(self), (list(plain.items() if isinstance(plain, dict) else plain),))


class FrozenDict(_Shared, dict[str, Any]):
    """A read-only dict that copies share."""

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only


class FrozenList(_Shared, list[Any]):
    """A read-only list that copies share."""

    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = _read_only
    insert = remove = pop = clear = sort = reverse = _read_only


def freeze(value: Any) -> Any:
    """JSON `value` with every dict and list in it made read-only (other values as they are)."""
    if isinstance(value, dict):
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return FrozenList(freeze(item) for item in value)
    return value


def freeze_values(mapping: dict[str, Any]) -> dict[str, Any]:
    """A plain dict (its own keys still settable) of `mapping`'s values, frozen."""
    return {key: freeze(item) for key, item in mapping.items()}
