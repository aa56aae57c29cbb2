"""The sample's facts the reference agents read: set for its dialogue's own task, never written
to its store, which Inspect copies and compares at every span's end (docs/architecture.md)."""

from __future__ import annotations

import asyncio

from inspect_ai.util import store

from polar_inspect.data.records import PolarRecord
from polar_inspect.data.samples import SampleInfo, record_to_sample
from polar_inspect.sample_context import current_facts, drop_sample_facts, write_sample_facts
from tests.conftest import fielded_record


def _info(index: int) -> SampleInfo:
    sample = record_to_sample(PolarRecord.model_validate(fielded_record(index)))
    return SampleInfo.model_validate(sample.metadata)


def test_the_facts_stay_off_the_store_and_inside_their_sample() -> None:
    seen: dict[int, tuple[object, ...]] = {}

    async def dialogue(index: int) -> None:
        before = dict(store().items())
        facts = write_sample_facts(f"sample {index}", _info(index))
        await asyncio.sleep(0)  # the other sample sets its own facts meanwhile
        seen[index] = (current_facts() is facts, dict(store().items()) == before)
        drop_sample_facts()
        seen[index] = (*seen[index], current_facts())

    async def two_samples() -> None:
        await asyncio.gather(dialogue(0), dialogue(1))

    outside = current_facts()
    asyncio.run(two_samples())
    assert seen == {0: (True, True, None), 1: (True, True, None)}
    assert current_facts() is outside  # nothing set inside the samples' tasks leaks out
