"""Every run that reads the scorer's targets is marked ORACLE: an oracle defense, the scripted
guard or minimiser in its role, and the oracle agent as the trusted model."""

from __future__ import annotations

import pytest

from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.oracles import (
    is_oracle,
    mark_oracles,
    marked_name,
    oracle_label,
    oracle_reasons,
)
from polar_inspect.report.usage import RoleUsage


def _run(
    model: str = "openai/gpt-4o",
    roles: dict[str, str] | None = None,
    defense: str = "none",
    defense_oracle: bool = False,
    label: str | None = None,
) -> RunHeader:
    usage = [RoleUsage(role="trusted", model=model, total_tokens=10)]
    usage += [RoleUsage(role=r, model=m, total_tokens=5) for r, m in (roles or {}).items()]
    return RunHeader.model_construct(
        model=model,
        label=label or (model if defense == "none" else f"{model} + {defense}"),
        defense=defense,
        defense_oracle=defense_oracle,
        usage=usage,
    )


@pytest.mark.parametrize(
    ("run", "reason"),
    [
        (_run("polar/oracle"), "trusted role: polar/oracle"),
        (
            _run(roles={"guard": "polar/guard"}, defense="spotlight,guard"),
            "guard role: polar/guard",
        ),
        (
            _run(roles={"minimizer": "polar/minimizer"}, defense="minimize"),
            "minimizer role: polar/minimizer",
        ),
        (_run(defense="redact_oracle", defense_oracle=True), "defense redact_oracle reads"),
    ],
)
def test_oracle_references_are_recognised(run: RunHeader, reason: str) -> None:
    [found] = oracle_reasons(run)
    assert found.startswith(reason)
    assert oracle_label(run) == f"{run.label} [ORACLE]"


@pytest.mark.parametrize(
    "run",
    [
        _run("polar/leaky"),
        _run(roles={"guard": "openai/gpt-4o-mini"}, defense="guard"),  # a real guard model
        _run(roles={"attacker": "polar/oracle"}),  # reads targets, but only attacks
        _run(roles={"guard": "polar/minimizer"}, defense="guard"),  # not an oracle in that role
    ],
)
def test_runs_that_do_not_read_the_targets_are_not_marked(run: RunHeader) -> None:
    assert oracle_reasons(run) == [] and not is_oracle(run)
    assert oracle_label(run) == run.label


def test_a_run_with_several_causes_names_each_and_is_marked_once() -> None:
    run = _run(
        "polar/oracle",
        roles={"guard": "polar/guard"},
        defense="redact_oracle,guard",
        defense_oracle=True,
        label="polar/oracle + redact_oracle,guard [ORACLE]",  # as inventory labels oracles
    )
    assert len(oracle_reasons(run)) == 3
    [marked] = mark_oracles([run])
    assert marked.label == "polar/oracle + redact_oracle,guard [ORACLE]"
    assert mark_oracles(mark_oracles([_run("polar/oracle")]))[0].label == "polar/oracle [ORACLE]"


def test_every_agent_marked_oracle_is_a_reference_agent() -> None:
    from polar_inspect.agents import AGENTS, ORACLE_AGENTS
    from polar_inspect.tool_agents import TOOL_AGENT_NAMES

    known = {f"polar/{name}" for name in [*AGENTS, *TOOL_AGENT_NAMES]}
    marked = {name for by_role in ORACLE_AGENTS.values() for name in by_role}
    assert marked and marked <= known, marked - known


def test_a_shorter_name_of_a_marked_run_carries_the_mark_once() -> None:
    [oracle] = mark_oracles(
        [_run("polar/fetch-needed", label="polar/fetch-needed via react (fields)")]
    )
    assert marked_name(oracle, "polar/fetch-needed") == "polar/fetch-needed [ORACLE]"
    assert marked_name(oracle, "x [ORACLE]") == "x [ORACLE]"
    [plain] = mark_oracles([_run("polar/fetch-all", label="polar/fetch-all via react (fields)")])
    assert marked_name(plain, "polar/fetch-all") == "polar/fetch-all"
