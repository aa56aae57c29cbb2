"""Inspect's `StoreModel` at the cost of a dictionary access per field read or write: same
store keys and values, one cached validator per field (docs/large-runs.md, "1-B against 1-A").
"""

from __future__ import annotations

from typing import Any, TypeVar

from anyio.lowlevel import EventLoopToken, current_token
from inspect_ai.solver import TaskState
from inspect_ai.util import Store, StoreModel
from pydantic import TypeAdapter, ValidationError

_SCALARS = (str, int, float, bool, bytes, type(None))
#: Per class: each field (but Inspect's `store` and `instance`) -> its validator.
_ADAPTERS: dict[type, dict[str, TypeAdapter[Any]]] = {}
_INSPECT_FIELDS = frozenset({"store", "instance"})
Model = TypeVar("Model", bound=StoreModel)
#: Per class: each field (but `store`) -> its default (`recorded`).
_DEFAULTS: dict[type, dict[str, Any]] = {}


def _adapters(cls: type[StoreModel]) -> dict[str, TypeAdapter[Any]]:
    if (known := _ADAPTERS.get(cls)) is None:
        known = _ADAPTERS[cls] = {
            name: TypeAdapter(field.annotation)
            for name, field in cls.model_fields.items()
            if name not in _INSPECT_FIELDS and field.annotation is not None
        }
    return known


def store_key(cls: type, name: str, instance: str | None = None) -> str:
    """The store key Inspect's StoreModel uses for a field."""
    namespace = f"{instance}:" if instance is not None else ""
    return f"{cls.__name__}:{namespace}{name}"


class FastStoreModel(StoreModel):
    """A `StoreModel` whose field reads and writes cost a dictionary access (see the module)."""

    def model_post_init(self, context: Any) -> None:
        """Bind to the store as Inspect's does (a missing key gets the field's value), but
        leave each stored value to be coerced when first read."""
        if isinstance(context, dict):  # Inspect's validation copy (`_validate_store`)
            super().model_post_init(context)
            return
        cls, values = type(self), object.__getattribute__(self, "__dict__")
        store = values["store"]
        write_held(store)  # user code reading the record before the task's cleanup writes it
        for name in cls.model_fields:  # `instance` too, as Inspect's
            key = store_key(cls, name, values["instance"])
            if name != "store" and key not in store:
                store.set(key, values[name])

    def __getattribute__(self, name: str) -> Any:
        cls = object.__getattribute__(self, "__class__")
        adapter = _adapters(cls).get(name)
        if adapter is None:  # methods, properties, dunders, `store`, `instance`
            return object.__getattribute__(self, name)
        values = object.__getattribute__(self, "__dict__")
        store = values["store"]
        if (key := store_key(cls, name, values["instance"])) not in store:
            return values[name]
        raw = store.get(key)
        if isinstance(raw, _SCALARS) or values.get(name) is raw:
            values[name] = raw
            return raw
        try:
            coerced = adapter.validate_python(raw)
        except ValidationError:  # as Inspect's StoreModel: the raw value, uncoerced
            coerced = raw
        if coerced is not raw:
            store.set(key, coerced)
        values[name] = coerced
        return coerced

    def __setattr__(self, name: str, value: Any) -> None:
        adapter = _adapters(type(self)).get(name)
        if adapter is None:  # Inspect's rules (e.g. `store` cannot be rebound)
            super().__setattr__(name, value)
            return
        self._validate_value(name, value)  # no StoreModel nested in a StoreModel
        value = adapter.validate_python(value)
        values = object.__getattribute__(self, "__dict__")
        values["store"].set(store_key(type(self), name, values["instance"]), value)
        values[name] = value

    def _coerce_value(self, field_name: str, value: Any) -> Any:
        """A value read from the store, as the field's type (the cached validator)."""
        adapter = _adapters(type(self)).get(field_name)
        if adapter is None or isinstance(value, _SCALARS):
            return value
        try:
            return adapter.validate_python(value)
        except ValidationError:
            return value


def recorded(model: StoreModel) -> dict[str, Any]:
    """The model's store keys and values but its fields' defaults, which a reader gets back
    without them: what the sample's store is given of a record (`steps.Dialogue.save`)."""
    cls, data, instance = type(model), model.store, model.instance
    defaults = _DEFAULTS.get(cls)
    if defaults is None:  # compared with, never handed out
        defaults = _DEFAULTS[cls] = {
            name: field.get_default(call_default_factory=True)
            for name, field in cls.model_fields.items()
            if name != "store"
        }
    keys = {store_key(cls, name, instance): default for name, default in defaults.items()}
    return {k: data.get(k) for k, default in keys.items() if k in data and data.get(k) != default}


def read_only(cls: type[Model], source: Store) -> Model:
    """`cls` read from `source` and what `DeferredWrites` holds for it, without writing to it
    (a field neither has reads as its default): a scorer's span then logs no store change."""
    prefix, copy = store_key(cls, ""), Store()  # Store(data) would deep-copy the values
    for key, value in [*source.items(), *_HELD.get(id(source), (source, {}))[1].items()]:
        if key.startswith(prefix):
            copy.set(key, value)
    return cls(store=copy)


class DeferredWrites:
    """Store entries a solver leaves to the task's cleanup (`cleanup`, after the scorers): no span's
    store diff walks them, no `StoreEvent` logs them; `read_only` and `store_as` see them. Held
    only once the cleanup has run in this event loop (`eval` call), else written at once."""

    cleanup_loop: EventLoopToken | None = None

    def save(self, target: Store, entries: dict[str, Any]) -> None:
        """Hold `entries` for `cleanup` if it has run in this loop, else write them."""
        if self.cleanup_loop is not None and self.cleanup_loop == _current_loop():
            _HELD[id(target)] = (target, entries)  # the store kept alive: its id stays its own
            return
        for key, value in entries.items():
            target.set(key, value)

    async def cleanup(self, state: TaskState) -> None:
        """The task's cleanup (`Task(cleanup=...)`): write what is held for the sample's store."""
        self.cleanup_loop = _current_loop()
        write_held(state.store)


_HELD: dict[int, tuple[Store, dict[str, Any]]] = {}


def write_held(target: Store) -> None:
    """Write what is held for `target` into it; nothing is held for it afterwards."""
    for key, value in _HELD.pop(id(target), (target, {}))[1].items():
        target.set(key, value)


def _current_loop() -> EventLoopToken | None:
    try:
        return current_token()
    except RuntimeError:  # no event loop runs: nothing is held
        return None
