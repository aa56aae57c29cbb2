"""Run polar_inspect tasks in-process, offline, and read back what the log says."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from inspect_ai import eval as inspect_eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model
from pytest import MonkeyPatch

from polar_inspect.dialogue.state import SampleRecord, read_sample_record
from polar_inspect.process_tuning import CollectorTuning

if TYPE_CHECKING:
    from tests.stub_servers import StubServer


def point_providers(monkeypatch: MonkeyPatch, server: StubServer, *, openai: bool = True) -> None:
    """Point Inspect's Anthropic provider (and OpenAI's, unless `openai=False`) at a stub
    through their documented environment variables; eval subprocesses inherit them."""
    if openai:
        monkeypatch.setenv("OPENAI_API_KEY", "local")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "local")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.anthropic_base_url)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)


def run(
    task: str,
    model: str | Model,
    log_dir: Path,
    model_roles: dict[str, str | Model] | None = None,
    **task_args: Any,
) -> EvalLog:
    """Evaluate one registered task (e.g. `polar_inspect/privacy`) and return its log."""
    logs = inspect_eval(
        task,
        model=model,
        model_roles=model_roles,
        task_args=task_args,
        log_dir=str(log_dir),
        display="none",
    )
    assert len(logs) == 1
    log = logs[0]
    assert log.status == "success", log.error.message if log.error else log.status
    return log


def scripted_model(*replies: str) -> Model:
    """An offline mockllm model that answers with `replies` in order (usage set: no tokenizer)."""
    outputs = []
    for reply in replies:
        output = ModelOutput.from_content("mockllm/model", reply)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        outputs.append(output)
    return get_model("mockllm/model", custom_outputs=outputs)


def by_id(log: EvalLog) -> dict[str, EvalSample]:
    """The log's samples keyed by sample id."""
    assert log.samples is not None
    return {str(s.id): s for s in log.samples}


def score_of(sample: EvalSample) -> dict[str, float]:
    """The polar scorer's value for a sample."""
    assert sample.scores is not None
    value = sample.scores["polar_scorer"].value
    assert isinstance(value, dict)
    return {k: float(v) for k, v in value.items()}


def dict_score(sample: Any, scorer: str) -> dict[str, float]:
    """One scorer's dict-valued score of a sample, as floats."""
    value = sample.scores[scorer].value
    assert isinstance(value, dict)
    return {k: float(v) for k, v in value.items()}


def metric_values(log: EvalLog, score_name: str) -> dict[str, float]:
    """All metrics of one score (privacy, utility, overall) by metric name."""
    assert log.results is not None
    for score in log.results.scores:
        if score.name == score_name:
            return {name: m.value for name, m in score.metrics.items()}
    raise AssertionError(f"no score {score_name} in {[s.name for s in log.results.scores]}")


def state_of(sample: EvalSample) -> SampleRecord:
    """A logged sample's typed state (dialogue, defense, agent), read as polar-report reads it."""
    return read_sample_record(sample.store, sample.metadata)


def dialogue_of(sample: EvalSample) -> dict[str, Any]:
    """The sample's `DialogueState` as a dict."""
    return state_of(sample).dialogue.model_dump(mode="json")


def defense_of(sample: EvalSample) -> dict[str, Any]:
    """The sample's defense record as a dict (empty without a record)."""
    record = state_of(sample).defense.record
    return record.model_dump(mode="json") if record is not None else {}


def usage_of(sample: EvalSample) -> dict[str, dict[str, int]]:
    """The sample's model calls and tokens per role, from Inspect's own record: its model
    events (a call with no role is the trusted model's), checked against `role_usage`."""
    by_role: dict[str, dict[str, int]] = {}
    for event in sample.events:
        if not isinstance(event, ModelEvent):
            continue
        role = by_role.setdefault(event.role or "trusted", dict.fromkeys(_USAGE_KEYS, 0))
        role["calls"] += 1
        usage = event.output.usage
        for key in _USAGE_KEYS[1:]:
            role[key] += getattr(usage, key) if usage is not None else 0
    for name, usage in sample.role_usage.items():
        assert usage.total_tokens == by_role[name]["total_tokens"], name
    return by_role


_USAGE_KEYS = ("calls", "input_tokens", "output_tokens", "total_tokens")


#: The metadata of a polar_inspect task built with `gc_tuning` on, as the collector hook reads it.
ASKS_FOR_TUNING = {"polar_inspect_version": "x", "config": {"gc_tuning": True}}


def task_started(eval_id: str, metadata: dict[str, Any] | None = None) -> None:
    """Inspect reports that a task (with `metadata`, else `ASKS_FOR_TUNING`) starts."""
    start = SimpleNamespace(
        eval_id=eval_id, spec=SimpleNamespace(metadata=metadata or ASKS_FOR_TUNING)
    )
    asyncio.run(CollectorTuning().on_task_start(start))  # type: ignore[arg-type]


def task_ended(eval_id: str) -> None:
    """Inspect reports that the task `eval_id` ends."""
    asyncio.run(CollectorTuning().on_task_end(SimpleNamespace(eval_id=eval_id)))  # type: ignore[arg-type]
