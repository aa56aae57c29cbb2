"""The judge scorer through `inspect eval` (`-T judge=true`) with the offline scripted judge."""

from __future__ import annotations

import json
import re
from pathlib import Path

from inspect_ai.log import EvalLog
from inspect_ai.model import Model

from polar_inspect.scorers.judge import JUDGE_KEYS
from tests.conftest import make_record
from tests.helpers import by_id, dict_score, metric_values, run
from tests.scorers.test_strict import _with_fields

TASK = "polar_inspect/privacy"


def judge_of(sample) -> dict[str, float]:  # noqa: ANN001
    return dict_score(sample, "polar_judge_scorer")


def run_judged(data: Path, log_dir: Path) -> EvalLog:
    """`polar/leaky` on `data` with `-T judge=true` and the offline scripted judge."""
    roles: dict[str, str | Model] = {"judge": "polar/scripted-judge"}
    return run(TASK, "polar/leaky", log_dir, model_roles=roles, data=str(data), judge=True)


def test_scripted_judge_verdicts_are_recorded_and_cached(small_file: Path, tmp_path: Path) -> None:
    first = run_judged(small_file, tmp_path / "a")
    asked = 0
    for sample in by_id(first).values():
        verdict = judge_of(sample)
        assert set(verdict) == set(JUDGE_KEYS)  # every declared metric key, every sample
        assert (verdict["privacy_judge"], verdict["utility_judge"]) == (0.0, 1.0)
        meta = sample.scores["polar_judge_scorer"].metadata
        assert {j["judge_model"] for j in meta["judge"]} == {"polar/scripted-judge"}
        usage = meta["judge_usage"]
        # a prompt another sample already asked is answered from Inspect's cache, unpaid
        assert usage["calls"] + usage["cached_calls"] >= 1
        assert (usage["total_tokens"] > 0) == (usage["calls"] > 0)
        asked += usage["calls"]
    assert asked >= 1
    again = run_judged(small_file, tmp_path / "b")
    for sample in by_id(again).values():
        usage = sample.scores["polar_judge_scorer"].metadata["judge_usage"]
        assert usage["calls"] == 0 and usage["cached_calls"] >= 1
    # the judge's tokens are kept apart from the trusted model's
    leaky = {name: u.total_tokens for name, u in first.stats.model_usage.items()}
    assert leaky["polar/leaky"] == again.stats.model_usage["polar/leaky"].total_tokens
    assert "polar/scripted-judge" in leaky
    assert "polar/scripted-judge" not in again.stats.model_usage  # all answers were cached


def test_a_sample_with_an_unusable_judge_answer_has_no_judge_score(
    write_records,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    data = write_records([make_record(0)], "one.json")
    judge = get_model("polar/scripted-judge", garbled="true")
    [log] = inspect_eval(
        TASK,
        model="polar/leaky",
        model_roles={"judge": judge},
        task_args={"data": str(data), "judge": True},
        log_dir=str(tmp_path / "logs"),
        display="none",
        fail_on_error=False,
    )
    [sample] = log.samples or []
    # never privacy_judge 1.0 for verdicts that could not be read: the sample is an error
    assert sample.error is not None and "unusable answer" in sample.error.message
    assert "polar_judge_scorer" not in (sample.scores or {})
    assert log.results is None or log.results.completed_samples == 0  # out of every mean


def test_judge_may_not_be_the_evaluated_model(write_records, tmp_path: Path) -> None:  # noqa: ANN001
    from inspect_ai import eval as inspect_eval

    data = write_records([make_record(0)], "one.json")
    [log] = inspect_eval(
        TASK,
        model="polar/oracle",
        model_roles={"judge": "polar/oracle"},
        task_args={"data": str(data), "judge": True},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "error"
    assert "judge role is bound to the evaluated model" in (log.error.message if log.error else "")


def _judge_cases(sample) -> list[dict[str, str]]:  # noqa: ANN001
    """value -> field of each case the judge was sent, read from the log's model events."""
    from inspect_ai.event import ModelEvent
    from inspect_ai.log import resolve_sample_attachments

    prompts = [
        event.input[-1].text
        for event in resolve_sample_attachments(sample).events
        if isinstance(event, ModelEvent) and event.model == "polar/scripted-judge"
    ]
    cases = [json.loads(re.findall(r"<case>(.*)</case>", p, re.DOTALL)[0]) for p in prompts]
    return [{item["value"]: item["field"] for item in case["values"]} for case in cases]


def test_field_names_reach_the_judge_the_metadata_and_the_explanation(
    write_records,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    data = write_records([_with_fields(make_record(0))], "named.json")
    log = run_judged(data, tmp_path / "logs")
    sample = next(iter(by_id(log).values()))
    [first, *_] = _judge_cases(sample)
    assert first["Anna Keller"] == "name"
    assert first["morning appointments"] == "preferred_time"
    assert first["Migros"] == "protected value"  # hidden_target does not name it
    score = sample.scores["polar_judge_scorer"]
    judged = {j["value"]: j["field"] for j in score.metadata["judge"]}
    assert judged["H-482913"] == "hospital_id" and judged["Migros"] == "protected value"
    explanation = score.explanation or ""
    assert explanation.startswith("judge polar/scripted-judge: privacy_judge 0.000")
    assert "- stated turn 1: exact_dob = 1987-03-14" in explanation
    assert "- stated turn 1: Migros" in explanation  # no field name to show


def test_without_hidden_target_the_judge_gets_generic_labels(
    write_records,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    data = write_records([make_record(0)], "unnamed.json")
    log = run_judged(data, tmp_path / "logs")
    sample = next(iter(by_id(log).values()))
    [first, *_] = _judge_cases(sample)
    assert first["Anna Keller"] == "protected value"
    assert first["three weeks"] == "allowed value"
    meta = sample.scores["polar_judge_scorer"].metadata
    assert {j["field"] for j in meta["judge"]} == {"protected value", "allowed value"}
    assert "name = " not in (sample.scores["polar_judge_scorer"].explanation or "")


def test_judge_metrics_are_logged_only_with_the_judge(small_file: Path, tmp_path: Path) -> None:
    log = run_judged(small_file, tmp_path / "a")
    assert metric_values(log, "privacy_judge")["mean"] == 0.0
    assert metric_values(log, "utility_judge")["mean"] == 1.0
    plain = run(TASK, "polar/leaky", tmp_path / "b", data=str(small_file))
    assert [s.name for s in plain.results.scores if "judge" in s.name] == []


def test_judge_true_without_a_judge_model_fails_saying_what_to_bind(
    write_records,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    """A task built in Python before `eval(...)` (roles unknown at build): the solver's check.
    (Built by `inspect eval`, the task build refuses it: tests/hostile/test_parameters.py.)"""
    from inspect_ai import eval as inspect_eval

    from polar_inspect.tasks import privacy

    data = write_records([make_record(0)], "one.json")
    [log] = inspect_eval(
        privacy(data=str(data), judge=True),
        model="polar/oracle",
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "error"
    message = log.error.message if log.error else ""
    assert "-T judge=true needs a model on the 'judge' role: add --model-role judge=" in message
    assert "polar/oracle" not in log.stats.model_usage  # failed before the first model call


def test_judge_true_with_a_judge_announces_no_unused_role(small_file: Path, tmp_path: Path) -> None:
    log = run_judged(small_file, tmp_path / "a")
    for sample in by_id(log).values():
        notes = [str(e.data) for e in sample.events if e.event == "info"]
        assert not any("unused model roles" in note for note in notes)


def test_a_judge_on_a_llama_cpp_like_server_records_its_answer_format(
    small_file: Path, tmp_path: Path
) -> None:
    from tests.scorers.test_llm_judge import LLAMA_CPP_FORMATS, stub_judge, verdict_reply
    from tests.stub_servers import StubServer

    with StubServer(respond=verdict_reply, response_formats=LLAMA_CPP_FORMATS) as server:
        roles: dict[str, str | Model] = {"judge": stub_judge(server)}
        log = run(
            TASK, "polar/leaky", tmp_path, model_roles=roles, data=str(small_file), judge=True
        )
    for sample in by_id(log).values():
        score = sample.scores["polar_judge_scorer"]
        usage = score.metadata["judge_usage"]
        assert set(usage["formats"]) == {"json_object"} and usage["unparsed_calls"] == 0
        assert {j["response_format"] for j in score.metadata["judge"]} == {"json_object"}
        assert "\nanswer format json_object (" in (score.explanation or "")
        assert judge_of(sample)["privacy_judge"] == 0.0  # the leaky model's values are found


def test_a_judge_that_keeps_answering_garbage_fails_the_run_saying_so(
    small_file: Path, tmp_path: Path
) -> None:
    from inspect_ai import eval as inspect_eval

    from tests.scorers.test_llm_judge import LLAMA_CPP_FORMATS, garbage_reply, stub_judge
    from tests.stub_servers import StubServer

    with StubServer(respond=garbage_reply, response_formats=LLAMA_CPP_FORMATS) as server:
        [log] = inspect_eval(
            TASK,
            model="polar/leaky",
            model_roles={"judge": stub_judge(server)},
            task_args={"data": str(small_file), "judge": True},
            log_dir=str(tmp_path),
            display="none",
        )
    assert log.status == "error"
    message = log.error.message if log.error else ""
    assert "unusable answer" in message and "judge" in message
