"""`-T max_in_flight=N`: one cap on requests in flight across the trusted model and attacker."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from polar_inspect.dialogue.request_cap import PriorityLimiter
from polar_inspect.params import ParameterError
from polar_inspect.tasks import privacy
from tests.conftest import make_record


class _InFlight:
    now = 0
    peak = 0


class SlowCountingAPI(ModelAPI):
    """Answers after a short sleep and counts the requests in flight across all its models."""

    def __init__(self, model_name: str, base_url: str | None = None, **kwargs: Any) -> None:
        super().__init__(model_name, base_url, None, [], GenerateConfig())

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        _InFlight.now += 1
        _InFlight.peak = max(_InFlight.peak, _InFlight.now)
        try:
            await asyncio.sleep(0.05)
        finally:
            _InFlight.now -= 1
        output = ModelOutput.from_content(self.model_name, "Could you tell me more?")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


@modelapi(name="polar-test-slow")
def slow_counting() -> type[ModelAPI]:
    """The counting provider, for these tests only."""
    return SlowCountingAPI


def _peak_in_flight(data: Path, log_dir: Path, **task_args: Any) -> int:
    _InFlight.now = _InFlight.peak = 0
    [log] = inspect_eval(
        "polar_inspect/privacy",
        model="polar-test-slow/trusted",
        model_roles={"attacker": "polar-test-slow/attacker"},
        task_args={"data": str(data), **task_args},
        max_connections=10,
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    return _InFlight.peak


def test_cap_holds_across_both_roles(write_records: Callable[..., Path], tmp_path: Path) -> None:
    data = write_records([make_record(i, attack="S5") for i in range(8)])
    # Each role has its own pool of 10: eight live dialogues put more than 3 requests in flight.
    assert _peak_in_flight(data, tmp_path / "uncapped") > 3
    assert _peak_in_flight(data, tmp_path / "capped", max_in_flight=3) == 3


@pytest.mark.parametrize("value", [0, 2.5, True, "many"])
def test_max_in_flight_must_be_a_whole_number(
    write_records: Callable[..., Path], value: object
) -> None:
    data = str(write_records([make_record(0)]))
    with pytest.raises(ParameterError, match=r"max_in_flight=.*expected a whole number >= 1"):
        privacy(data=data, max_in_flight=value)  # type: ignore[arg-type]


def test_a_freed_slot_goes_to_the_dialogue_with_most_calls_left() -> None:
    order: list[int] = []

    async def main() -> None:
        limiter = PriorityLimiter(1)
        await limiter.acquire(1)  # the slot is taken: everyone below waits

        async def call(remaining: int) -> None:
            await limiter.acquire(remaining)
            order.append(remaining)
            limiter.release()

        async with anyio.create_task_group() as group:
            for remaining in (1, 5, 3, 5):
                group.start_soon(call, remaining)
                await anyio.sleep(0.01)
            limiter.release()
        assert limiter.held == 0

    anyio.run(main)
    assert order == [5, 5, 3, 1]


def test_a_cancelled_waiter_gives_up_its_place_and_no_slot_leaks() -> None:
    async def main() -> None:
        limiter = PriorityLimiter(1)
        await limiter.acquire(1)
        with anyio.move_on_after(0.01):
            await limiter.acquire(9)  # cancelled while waiting
        limiter.release()
        assert limiter.held == 0
        await limiter.acquire(1)  # the slot is free again, at once
        assert limiter.held == 1

    anyio.run(main)
