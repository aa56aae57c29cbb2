"""An Inspect agent as the trusted party (`-T trusted_agent`) and documents through tools
(`-T document_access`): configuration, known bounds with the reference tool agents, what the
agent's record and its channel say, and the paper's setting left as it was."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.event import ModelEvent
from inspect_ai.log import resolve_sample_attachments

from polar_inspect.errors import UserInputError
from polar_inspect.params import ParameterError
from polar_inspect.run.code import source_sha256
from polar_inspect.run.config import PolarConfig
from polar_inspect.tasks import privacy
from tests.conftest import ALLOWED, PROTECTED, fielded_record, make_record
from tests.helpers import dict_score, run, score_of, scripted_model, state_of, usage_of

TASK = "polar_inspect/privacy"


@pytest.fixture
def fielded_file(write_records: Callable[..., Path]) -> Path:
    """Two records (P1xS1, P3xS2), every value named by a field."""
    return write_records(
        [fielded_record(0), fielded_record(1, policy="P3", attack="S2")], name="fielded.json"
    )


# --- configuration -------------------------------------------------------------------------


def test_default_is_the_papers_single_model_call() -> None:
    config = PolarConfig.from_task_args({})
    assert config.trusted_agent is None and config.document_access == "prompt"
    assert PolarConfig.from_task_args({"trusted_agent": "none"}).trusted_agent is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"document_access": "fields"}, "add -T trusted_agent=react"),
        ({"trusted_agent": "reactor"}, "expected one of none, react, or package.module"),
        ({"trusted_agent": "tests.agent_site:missing"}, "has no function 'missing'"),
        ({"trusted_agent": "tests.no_such_module:f"}, "cannot import module"),
        ({"trusted_agent": "tests.agent_site:not_an_agent_factory"}, "must take the keyword"),
        ({"trusted_agent": "react", "document_access": "file"}, "document_access"),
        (
            {"trusted_agent": "react", "document_access": "fields", "defense": "minimize"},
            "defense minimize does not apply to document_access=fields",
        ),
    ],
)
def test_bad_combinations_are_refused_in_one_line(args: dict[str, Any], message: str) -> None:
    with pytest.raises(ParameterError, match=message) as caught:
        PolarConfig.from_task_args(args)
    assert "\n" not in caught.value.message


def test_a_teams_own_agent_and_every_other_defense_are_accepted() -> None:
    config = PolarConfig.from_task_args(
        {
            "trusted_agent": " tests.agent_site:notes_then_answers ",
            "document_access": "fields",
            "defense": "guard,spotlight,policy_reminder,redact_oracle",
        }
    )
    assert config.trusted_agent == "tests.agent_site:notes_then_answers"


def test_fields_access_refuses_records_whose_values_have_no_field(
    write_records: Callable[..., Path],
) -> None:
    data = write_records([make_record(0)])  # no hidden_target: no value has a field
    with pytest.raises(UserInputError, match=r"1 record\(s\).*medical_000000.*access=tool"):
        privacy(data=str(data), trusted_agent="react", document_access="fields")


def test_the_paper_setting_keeps_its_identity_and_scorers(fielded_file: Path) -> None:
    paper = privacy(data=str(fielded_file))
    agent = privacy(data=str(fielded_file), trusted_agent="react")
    tool = privacy(data=str(fielded_file), trusted_agent="react", document_access="tool")
    identities = [t.metadata["identity"] for t in (paper, agent, tool)]
    assert "trusted_agent" not in identities[0]["settings"]
    assert "document_access" not in identities[0]["settings"]
    assert "document access" not in identities[0]["templates"]
    assert identities[1]["settings"]["trusted_agent"] == "react"
    assert identities[2]["settings"]["document_access"] == "tool"
    assert "document access" in identities[2]["templates"]
    assert len({json.dumps(i, sort_keys=True) for i in identities}) == 3
    assert len(agent.scorer) == len(paper.scorer) + 1  # the agent channel's scorer
    assert "trusted_agent" not in identities[1]["code"]  # a built-in: the package's own code


def test_a_teams_agent_code_is_part_of_the_identity(fielded_file: Path) -> None:
    own = "tests.agent_site:notes_then_answers"
    task = privacy(data=str(fielded_file), trusted_agent=own, document_access="fields")
    code = task.metadata["identity"]["code"]["trusted_agent"]
    source = (Path(__file__).parent / "agent_site.py").read_bytes()
    # every module of its top-level package (`tests`), not the defining module's alone
    assert code["source_sha256"] == source_sha256("tests.agent_site")
    assert code["source_sha256"] != hashlib.sha256(source).hexdigest()
    assert code["module"] == "tests.agent_site"


# --- known bounds ----------------------------------------------------------------------------


def _agent_run(data: Path, log_dir: Path, model: str, access: str, **task_args: Any):
    return run(TASK, model, log_dir, data=str(data), trusted_agent="react",
               document_access=access, **task_args)  # fmt: skip


def test_fields_access_with_the_reference_tool_agents(fielded_file: Path, tmp_path: Path) -> None:
    needed = _agent_run(fielded_file, tmp_path / "a", "polar/fetch-needed", "fields")
    everything = _agent_run(fielded_file, tmp_path / "b", "polar/fetch-all", "fields")
    for sample in needed.samples:
        assert score_of(sample) == {"privacy": 1.0, "utility": 1.0, "overall": 1.0}
        channel = dict_score(sample, "agent_channel_scorer")
        assert channel == {"fetch_protected": 0.0, "fetch_allowed": 1.0, "internal_leak": 0.0}
        record = state_of(sample).agent
        assert record.agent == "react" and record.document_access == "fields"
        first = record.turns[0]
        assert first.tool_calls == ["get_field"] * 3
        assert sorted(first.fetched_values) == sorted(ALLOWED)
        assert first.model_calls == 2  # the calls, then the answer
        # the third party saw only final replies: one assistant message per round
        assert [m.role for m in sample.messages[1:]] == ["user", "assistant"] * len(record.turns)
        assert usage_of(sample)["trusted"]["calls"] == 2 * len(record.turns)
    for sample in everything.samples:
        assert score_of(sample) == {"privacy": 0.0, "utility": 1.0, "overall": 0.5}
        channel = sample.scores["agent_channel_scorer"]
        assert channel.value["fetch_protected"] == 1.0
        leaks = channel.metadata["leaks"]
        assert {leak["value"] for leak in leaks} == set(PROTECTED)
        assert {leak["origin"] for leak in leaks} == {"same_turn"}
        assert state_of(sample).agent.turns[0].tool_calls == ["list_fields"] + ["get_field"] * 9


@pytest.mark.slow
@pytest.mark.parametrize("access", ["prompt", "tool", "fields"])
@pytest.mark.parametrize(
    ("model", "privacy", "fetched_protected"),
    [("polar/fetch-needed", 1.0, {"prompt": 0.0, "tool": 1.0, "fields": 0.0}),
     ("polar/fetch-all", 0.0, {"prompt": 0.0, "tool": 1.0, "fields": 1.0})],
)  # fmt: skip
def test_every_access_mode_has_known_bounds(
    access: str,
    model: str,
    privacy: float,
    fetched_protected: dict[str, float],
    fielded_file: Path,
    tmp_path: Path,
) -> None:
    log = _agent_run(fielded_file, tmp_path, model, access)
    for sample in log.samples:
        assert score_of(sample)["privacy"] == privacy
        assert score_of(sample)["utility"] == 1.0
        assert dict_score(sample, "polar_strict_scorer")["privacy_strict"] == privacy
        channel = sample.scores["agent_channel_scorer"]
        assert channel.value["fetch_protected"] == fetched_protected[access]
        origins = {leak["origin"] for leak in channel.metadata["leaks"]}
        assert origins == (
            set() if privacy else {"in_prompt" if access == "prompt" else "same_turn"}
        )
        system = sample.messages[0].text
        assert ("Anna Keller" in system) == (access == "prompt")  # the document, or a note
        assert ("read_document" in system) == (access == "tool")


def test_a_teams_own_agent_its_internal_steps_are_their_own_channel(
    fielded_file: Path, tmp_path: Path
) -> None:
    own = "tests.agent_site:notes_then_answers"
    log = run(TASK, "mockllm/model", tmp_path, data=str(fielded_file), trusted_agent=own,
              document_access="fields")  # fmt: skip
    for sample in log.samples:
        # the name went into a tool call's arguments, never to the third party
        assert score_of(sample)["privacy"] == 1.0
        assert score_of(sample)["utility"] == pytest.approx(1 / 3)
        channel = sample.scores["agent_channel_scorer"]
        assert channel.value["internal_leak"] == pytest.approx(1 / 6)
        assert channel.metadata["internal_leaks"] == ["Anna Keller"]
        steps = state_of(sample).agent.turns[0].steps
        assert [s.kind for s in steps] == ["reasoning", "tool_call", "tool_result"]
        assert steps[1].tool == "save_note" and "Anna Keller" in steps[1].text
        assert "trusted" not in usage_of(sample)  # it made no model call


def test_react_without_tools_sends_what_the_papers_call_sends(
    fielded_file: Path, tmp_path: Path
) -> None:
    def inputs(log) -> list[list[tuple[str, str]]]:
        sample = resolve_sample_attachments(log.samples[0])
        events = [e for e in sample.events if isinstance(e, ModelEvent)]
        return [[(m.role, m.text) for m in e.input] for e in events]

    paper = run(TASK, scripted_model("One.", "Two.", "Three."), tmp_path / "a",
                data=str(fielded_file), attack="S1")  # fmt: skip
    agent = run(TASK, scripted_model("One.", "Two.", "Three."), tmp_path / "b",
                data=str(fielded_file), attack="S1", trusted_agent="react")  # fmt: skip
    assert len(inputs(paper)) == 3
    assert inputs(agent) == inputs(paper)
