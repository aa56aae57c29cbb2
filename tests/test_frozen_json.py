"""Read-only JSON values (`polar_inspect.frozen_json`): copies share them, every reader sees the
plain value, a write raises; and at the boundary with Inspect, a sample's metadata and the
package's score metadata are shared by Inspect's copies and logged as plain JSON."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import SampleScore, Score
from pydantic import BaseModel

from polar_inspect.data.records import PolarRecord
from polar_inspect.data.samples import SampleInfo, record_to_sample
from polar_inspect.frozen_json import FrozenDict, FrozenList, freeze, freeze_values
from polar_inspect.tasks import privacy
from tests.conftest import fielded_record

PLAIN: dict[str, Any] = {"a": [1, {"b": ["x", None]}, (2, 3)], "c": {"d": {"e": 1.5}}, "f": "g"}


def test_freeze_keeps_every_value_and_makes_each_container_read_only() -> None:
    frozen = freeze(PLAIN)
    assert frozen == json.loads(json.dumps(PLAIN))  # the tuple is a list, as in JSON
    assert json.dumps(frozen) == json.dumps(PLAIN)
    assert isinstance(frozen, FrozenDict) and isinstance(frozen["a"], FrozenList)
    assert isinstance(frozen["a"][1], FrozenDict) and isinstance(frozen["a"][1]["b"], FrozenList)
    assert isinstance(frozen["a"][2], FrozenList) and isinstance(frozen["c"]["d"], FrozenDict)


def test_copies_share_the_value_and_pickling_keeps_it_frozen() -> None:
    frozen = freeze(PLAIN)
    assert copy.deepcopy(frozen) is frozen and copy.deepcopy(frozen["a"]) is frozen["a"]
    for shallow in (copy.copy(frozen), copy.copy(frozen["a"])):
        assert isinstance(shallow, FrozenDict | FrozenList)
    assert copy.copy(frozen) == frozen and copy.copy(frozen["a"]) == frozen["a"]
    again = pickle.loads(pickle.dumps(frozen))
    assert again == frozen and isinstance(again, FrozenDict) and isinstance(again["a"], FrozenList)


@pytest.mark.parametrize(
    "write",
    [
        lambda d: d.__setitem__("f", 1),
        lambda d: d.__delitem__("f"),
        lambda d: d.update(f=1),
        lambda d: d.setdefault("z", 1),
        lambda d: d.pop("f"),
        lambda d: d.popitem(),
        lambda d: d.clear(),
        lambda d: d.__ior__({"z": 1}),
        lambda d: d["a"].append(1),
        lambda d: d["a"].extend([1]),
        lambda d: d["a"].insert(0, 1),
        lambda d: d["a"].remove(1),
        lambda d: d["a"].pop(),
        lambda d: d["a"].clear(),
        lambda d: d["a"].sort(),
        lambda d: d["a"].reverse(),
        lambda d: d["a"].__setitem__(0, 2),
        lambda d: d["a"].__delitem__(0),
        lambda d: d["a"].__iadd__([1]),
        lambda d: d["a"].__imul__(2),
    ],
)
def test_every_write_raises_and_changes_nothing(write: Any) -> None:
    frozen = freeze(PLAIN)
    before = json.dumps(frozen)
    with pytest.raises(TypeError, match="read-only: change a copy"):
        write(frozen)
    assert json.dumps(frozen) == before


def test_freeze_values_leaves_the_top_level_settable_and_copies_change_freely() -> None:
    values = freeze_values(PLAIN)
    assert type(values) is dict and isinstance(values["c"], FrozenDict)
    values["new"] = 1  # Inspect's state.metadata is this dict's copy: solvers may add keys
    mine = dict(values["c"])
    mine["d"] = 2
    listed = list(values["a"]) + [4]
    assert values["c"]["d"] == {"e": 1.5} and len(listed) == 4


def test_pydantic_reads_and_writes_them_as_plain_values() -> None:
    class Holder(BaseModel):
        data: dict[str, Any]
        items: list[Any]

    held = Holder(data=freeze(PLAIN), items=freeze([{"k": [1]}]))
    assert held.model_dump_json() == Holder(data=PLAIN, items=[{"k": [1]}]).model_dump_json()
    assert Holder.model_validate_json(held.model_dump_json()).data == freeze(PLAIN)


def test_inspect_s_copies_of_a_sample_and_its_scores_share_the_frozen_values() -> None:
    sample = record_to_sample(PolarRecord.model_validate(fielded_record(0)))
    metadata = sample.metadata or {}
    assert type(metadata) is dict and isinstance(metadata["texts"], FrozenDict)
    assert copy.deepcopy(sample).metadata["texts"] is metadata["texts"]  # type: ignore[index]
    assert SampleInfo.model_validate(metadata).model_dump() == json.loads(json.dumps(metadata))
    score = Score(value={"x": 1.0}, metadata=freeze_values({"protected": [{"value": "v"}]}))
    scored = SampleScore(score=score, sample_id=sample.id, sample_metadata=metadata)
    copied = copy.deepcopy(scored)  # what each metric pass does, once per metric key
    assert copied.score.metadata["protected"] is score.metadata["protected"]  # type: ignore[index]
    assert copied.sample_metadata["attack_setup"] is metadata["attack_setup"]  # type: ignore[index]


def test_a_logged_run_holds_plain_metadata_equal_to_the_samples(tmp_path: Path) -> None:
    task = privacy(data="bundled", gc_tuning=False)
    [log] = inspect_eval(task, model="polar/mixed", limit=2, display="none", log_dir=str(tmp_path))
    assert log.status == "success" and log.samples and log.results
    planned_by_id = {sample.id: sample.metadata or {} for sample in task.dataset[:2]}
    for logged in log.samples:
        planned = planned_by_id[logged.id]
        assert isinstance(planned["value_fields"], FrozenDict)
        assert logged.metadata == json.loads(json.dumps(planned))
        for score in (logged.scores or {}).values():
            assert json.loads(json.dumps(score.metadata)) == score.metadata
        verdicts = (logged.scores or {})["polar_strict_scorer"].metadata or {}
        assert verdicts["protected"] and isinstance(verdicts["protected"], list)
