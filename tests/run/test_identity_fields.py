"""The run identity is derived from Inspect's whole configuration, not from a list: every field
of `GenerateConfig` and `EvalConfig` is either declared operational (with a reason) or is part
of the identity, and a field Inspect adds fails this test until it is classified."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai.log import EvalConfig
from inspect_ai.model import GenerateConfig

from polar_inspect.run.identity import (
    EVAL_FIELDS,
    EVAL_OPERATIONAL_FIELDS,
    GENERATION_FIELDS,
    OPERATIONAL_FIELDS,
    ModelIdentity,
    eval_config_identity,
    generation_identity,
    role_config,
)


def test_every_generate_config_field_is_classified() -> None:
    fields = set(GenerateConfig.model_fields)
    unclassified = fields - set(OPERATIONAL_FIELDS) - set(GENERATION_FIELDS)
    assert not unclassified, f"classify in run/identity.py: {sorted(unclassified)}"
    assert not set(OPERATIONAL_FIELDS) & set(GENERATION_FIELDS)
    assert not (set(OPERATIONAL_FIELDS) | set(GENERATION_FIELDS)) - fields  # no stale names
    assert all(reason.strip() for reason in OPERATIONAL_FIELDS.values())


def test_every_eval_config_field_is_classified() -> None:
    fields = set(EvalConfig.model_fields)
    unclassified = fields - set(EVAL_OPERATIONAL_FIELDS) - set(EVAL_FIELDS)
    assert not unclassified, f"classify in run/identity.py: {sorted(unclassified)}"
    assert not set(EVAL_OPERATIONAL_FIELDS) & set(EVAL_FIELDS)
    assert not (set(EVAL_OPERATIONAL_FIELDS) | set(EVAL_FIELDS)) - fields


@pytest.mark.parametrize(
    "setting",
    [
        {"max_tool_output": 200},
        {"logit_bias": {42: 10.0}},
        {"extra_body": {"min_p": 0.1}},
        {"parallel_tool_calls": False},
        {"reasoning_history": "none"},
        {"effort": "low"},
        {"verbosity": "low"},
        {"temperature": 0.7},
        {"fail_on_refusal": True},
    ],
)
def test_a_setting_that_can_change_a_number_changes_the_identity(setting: dict[str, Any]) -> None:
    plain = ModelIdentity(model="m", generation=generation_identity(GenerateConfig()))
    changed = ModelIdentity(model="m", generation=generation_identity(GenerateConfig(**setting)))
    assert plain.digest() != changed.digest()


@pytest.mark.parametrize(
    "setting",
    [{"max_connections": 3}, {"max_retries": 1}, {"timeout": 5}, {"cache_prompt": False}],
)
def test_an_operational_setting_leaves_the_identity_alone(setting: dict[str, Any]) -> None:
    assert generation_identity(GenerateConfig(**setting)) == {}


def test_a_field_inspect_adds_is_in_the_identity_until_declared_operational() -> None:
    class Newer(GenerateConfig):
        brand_new_knob: int | None = None

    assert generation_identity(Newer(brand_new_knob=3)) == {"brand_new_knob": 3}


@pytest.mark.parametrize(
    "limit", [{"message_limit": 10}, {"token_limit": 500}, {"time_limit": 30},
              {"working_limit": 30}, {"turn_limit": 2}, {"cost_limit": 1.0}],
)  # fmt: skip
def test_every_limit_of_the_run_is_in_its_identity(limit: dict[str, Any]) -> None:
    assert eval_config_identity(EvalConfig(**limit)) == limit
    assert eval_config_identity(EvalConfig(max_samples=3, log_buffer=2)) == {}


def test_a_secret_header_changes_the_identity_but_never_shows() -> None:
    first = generation_identity(GenerateConfig(extra_headers={"api-key": "sk-one"}))
    second = generation_identity(GenerateConfig(extra_headers={"api-key": "sk-two"}))
    assert first != second
    shown = ModelIdentity(model="m", generation=first).describe()
    assert "sk-one" not in str(first) and "sk-one" not in shown and "[redacted]" in shown


def test_a_role_inherits_fail_on_refusal_only_when_it_sets_none() -> None:
    run = GenerateConfig(fail_on_refusal=True, temperature=0.3)
    assert role_config(None, run).fail_on_refusal is True
    assert role_config(None, run).temperature is None  # the role's own sampling
    assert role_config(GenerateConfig(fail_on_refusal=False), run).fail_on_refusal is False
