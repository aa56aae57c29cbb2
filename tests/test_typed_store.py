"""FastStoreModel keeps Inspect's StoreModel contract: same store keys and values, same checks."""

from __future__ import annotations

import pytest
from inspect_ai.util import Store, StoreModel
from pydantic import BaseModel, Field, ValidationError
from pydantic_core import to_jsonable_python

from polar_inspect.typed_store import FastStoreModel


class Limits(BaseModel):
    rounds: list[int] = Field(default_factory=list)


class Totals(BaseModel):
    calls: int = 0


class SlowState(StoreModel):
    name: str = ""
    count: int = 0
    mode: str | None = None
    limits: Limits = Field(default_factory=Limits)
    by_role: dict[str, Totals] = Field(default_factory=dict)
    ids: dict[str, str] = Field(default_factory=dict)


class FastState(FastStoreModel):
    name: str = ""
    count: int = 0
    mode: str | None = None
    limits: Limits = Field(default_factory=Limits)
    by_role: dict[str, Totals] = Field(default_factory=dict)
    ids: dict[str, str] = Field(default_factory=dict)


def _play(model: type[StoreModel], instance: str | None = None) -> dict[str, object]:
    """The same writes and reads as a dialogue does; the store as the log would hold it."""
    store = Store()
    state = model(store=store, instance=instance)
    state.name = "paper"
    state.count = 2
    state.ids = {"data": "abc"}
    limits = state.limits
    limits.rounds.append(1)
    state.limits = limits
    state.by_role = {"trusted": Totals(calls=1)}
    assert state.by_role["trusted"].calls == 1
    assert state.limits.rounds == [1]
    assert state.ids == {"data": "abc"}
    assert state.mode is None
    return {key.replace("Slow", "X").replace("Fast", "X"): value
            for key, value in to_jsonable_python(dict(store.items())).items()}  # fmt: skip


@pytest.mark.parametrize("instance", [None, "second"])
def test_same_store_as_inspects_store_model(instance: str | None) -> None:
    assert _play(FastState, instance) == _play(SlowState, instance)


def test_a_value_put_in_the_store_raw_is_read_typed_and_kept_typed() -> None:
    store = Store({"FastState:limits": {"rounds": [3]}, "FastState:by_role": {"a": {"calls": 2}}})
    state = FastState(store=store)
    assert isinstance(state.limits, Limits) and state.limits.rounds == [3]
    assert state.by_role["a"] == Totals(calls=2)
    assert isinstance(store.get("FastState:limits"), Limits)
    store.set("FastState:limits", {"rounds": [4, 5]})  # written behind the model's back
    assert state.limits.rounds == [4, 5]


def test_a_wrong_value_is_refused_and_the_store_is_unchanged() -> None:
    store = Store()
    state = FastState(store=store)
    state.count = 1
    with pytest.raises(ValidationError):
        state.count = "many"  # type: ignore[assignment]
    with pytest.raises(ValidationError):
        state.by_role = {"trusted": {"calls": "x"}}  # type: ignore[dict-item]
    assert store.get("FastState:count") == 1 and state.count == 1


def test_inspects_rules_hold() -> None:
    state = FastState(store=Store())
    with pytest.raises(AttributeError):
        state.store = Store()  # type: ignore[misc]
    with pytest.raises(TypeError):
        state.mode = FastState(store=Store())  # type: ignore[assignment]
