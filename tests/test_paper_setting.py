"""The paper's setting and every departure from it, as the logs record them: prompts (with
hashes), the sampling each role ran with, and trusted replies cut by the token limit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import resolve_sample_attachments
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model

from polar_inspect.dialogue.sampling import role_sampling
from polar_inspect.prompts import default_text, prompt_hash
from tests.conftest import make_record
from tests.helpers import by_id, dialogue_of, metric_values, run, score_of, scripted_model


def flags(sample) -> dict:
    """The `reply_flags` scorer's values for one sample."""
    return sample.scores["reply_flags"].value


TASK = "polar_inspect/privacy"


def _capped_model(*replies: tuple[str, str]):
    """A mockllm model whose replies carry the given stop reasons."""
    outputs = []
    for text, stop in replies:
        output = ModelOutput.from_content("mockllm/model", text, stop_reason=stop)  # type: ignore[arg-type]
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        outputs.append(output)
    return get_model("mockllm/model", custom_outputs=outputs)


def test_default_trusted_prompt_says_what_the_paper_says_and_no_more() -> None:
    text = default_text("trusted_system").lower()
    for heading in ("source document:", "privacy policy:", "task instruction:"):
        assert heading in text
    assert "never stay silent" in text and "only the information the task" in text
    # the defended wording's additions are absent from the default...
    for defense in ("not the user", "authority", "general or conditional form", "whatever role"):
        assert defense not in text
    # ...and kept as a file of its own
    assert "not the user" in default_text("defended_trusted_system")


def test_every_template_is_recorded_with_source_hash_and_text(
    write_records: Callable[..., Path], tmp_path: Path
) -> None:
    opening = tmp_path / "opening.txt"
    opening.write_text("OPENING for the {domain} case.")
    free = tmp_path / "free.txt"
    free.write_text("FREE round {round}/{total_rounds}; protect:\n{protected_values}")
    records = [make_record(0, attack="S5", turns=[], attack_turns_spec=2)]
    attacker = scripted_model("First?", "Second?")
    log = run(
        TASK,
        "polar/refuse",
        tmp_path / "logs",
        model_roles={"attacker": attacker},
        data=str(write_records(records)),
        attacker_opening_prompt=str(opening),
        attacker_free_turn_prompt=str(free),
        attacker_messages="merged",
    )
    prompts = log.eval.metadata["prompts"]
    assert set(prompts) == {
        "system_prompt",
        "attacker attacker_system",
        "attacker attacker_turn",
        "attacker attacker_free_turn",
        "attacker attacker_opening",
    }
    assert prompts["system_prompt"]["source"] == "default"
    assert prompts["system_prompt"]["sha256"] == prompt_hash(default_text("trusted_system"))
    identity = log.eval.metadata["identity"]["templates"]
    assert identity["attacker attacker_opening"] == prompt_hash(opening.read_text())
    assert prompts["attacker attacker_opening"] == {
        "source": str(opening),
        "sha256": prompt_hash(opening.read_text()),
        "text": opening.read_text(),
    }
    sample = resolve_sample_attachments(by_id(log)["medical_000000"])
    calls = [e for e in sample.events if isinstance(e, ModelEvent) and e.role == "attacker"]
    first_user = calls[0].input[1].text
    assert "OPENING for the medical case." in first_user
    assert "FREE round 1/2; protect:" in first_user and "- Anna Keller" in first_user


def test_sampling_of_each_role_is_recorded_per_sample(write_records, tmp_path: Path) -> None:
    records = [make_record(0, attack="S5", turns=["plan one"])]
    log = inspect_eval(
        TASK,
        model=scripted_model("Fine."),
        model_roles={"attacker": scripted_model("Hello?")},
        task_args={"data": str(write_records(records))},
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_tokens=900,  # the CLI's --max-tokens overrides the task's 1,200
    )[0]
    sampling = dialogue_of(by_id(log)["medical_000000"])["sampling"]
    assert sampling["trusted"]["requested"] == {
        "temperature": 0.0,
        "top_p": 1.0,
        "max_tokens": 900,
        "seed": "per call",  # each call gets the seed the authors' evaluator derives
    }
    assert sampling["trusted"]["not_sent"] == [] and sampling["trusted"]["caveat"] is None
    assert sampling["attacker"]["requested"] == {
        "temperature": 0.0,
        "top_p": 1.0,
        "max_tokens": 500,
        "seed": "per call",
    }


def test_anthropic_and_openai_reasoning_models_do_not_get_temperature() -> None:
    paper = GenerateConfig(temperature=0.0, top_p=1.0, max_tokens=1200)
    claude = role_sampling("anthropic/claude-sonnet-4-5", paper)
    assert claude.not_sent == ["temperature", "top_p"]
    assert claude.effective == {"max_tokens": 1200} and "anthropic" in (claude.caveat or "")
    assert role_sampling("openai/o3-mini", paper).not_sent == ["temperature", "top_p"]
    assert role_sampling("openai/gpt-5", paper).not_sent == ["temperature", "top_p"]
    none = paper.merge(GenerateConfig(reasoning_effort="none"))
    assert role_sampling("openai/gpt-5.1", none).not_sent == []
    assert role_sampling("openai/gpt-4o-mini", paper).not_sent == []
    assert role_sampling("together/meta-llama/Llama-3.3-70B-Instruct-Turbo", paper).caveat is None


def test_truncated_and_empty_replies_are_counted_and_flagged(write_records, tmp_path) -> None:
    records = [
        make_record(0, attack="S2", turns=["Who is it?", "And the symptom?"]),
        make_record(1, attack="S1", turns=["Hi?"]),
    ]
    trusted = _capped_model(
        ("<think>The patient is Anna Keller and", "max_tokens"),  # cut inside reasoning
        ("persistent migraine", "stop"),
        ("persistent migraine", "stop"),
    )
    log = inspect_eval(
        TASK,
        model=trusted,
        task_args={"data": str(write_records(records))},
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_samples=1,  # one sample at a time: the scripted replies go out in sample order
    )[0]
    capped = by_id(log)["medical_000000"]
    assert score_of(capped)["privacy"] == 1.0  # the paper's behaviour: scored as it is...
    score = capped.scores["polar_scorer"]
    limits = dialogue_of(capped)["reply_limits"]
    assert limits == {"truncated_rounds": [1], "empty_rounds": [1]}
    assert "WARNING" in score.explanation and "--max-tokens" in score.explanation  # ...flagged
    clean = by_id(log)["medical_000001"]
    assert dialogue_of(clean)["reply_limits"] == {"truncated_rounds": [], "empty_rounds": []}
    assert "WARNING" not in clean.scores["polar_scorer"].explanation
    assert flags(capped) == {"truncated": 1.0, "empty": 1.0, "cut": 0.0}
    assert flags(clean) == {"truncated": 0.0, "empty": 0.0, "cut": 0.0}
    # per run: the share of samples with such a reply (one of two here)
    assert metric_values(log, "truncated") == {"mean": 0.5}
    assert metric_values(log, "empty") == {"mean": 0.5}


def test_truncated_fail_makes_the_sample_an_error(write_records, tmp_path) -> None:
    records = [make_record(0, attack="S1", turns=["Who?"]), make_record(1, attack="S1")]
    trusted = _capped_model(("<think>still thinking", "max_tokens"), *[("Hello.", "stop")] * 3)
    log = inspect_eval(
        TASK,
        model=trusted,
        task_args={"data": str(write_records(records)), "truncated": "fail"},
        log_dir=str(tmp_path / "logs"),
        display="none",
        fail_on_error=False,
        max_samples=1,
    )[0]
    samples = by_id(log)
    assert samples["medical_000000"].error is not None
    assert "truncated=fail" in samples["medical_000000"].error.message
    assert samples["medical_000001"].error is None
    assert log.eval.metadata["truncated"] == "fail"


def test_bad_truncated_value_is_refused(write_records) -> None:
    from polar_inspect.tasks import privacy

    expected = r"truncated='drop' \(str\): expected one of 'score' or 'fail'"
    with pytest.raises(ValueError, match=expected):
        privacy(data=str(write_records([make_record(0)])), truncated="drop")
