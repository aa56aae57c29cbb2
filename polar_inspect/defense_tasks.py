"""One task per built-in defense, to compare them in one `inspect eval-set` (docs/defenses.md)."""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task

from polar_inspect.task_parameters import parameters_of
from polar_inspect.tasks import privacy


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_none(**task_args: Any) -> Task:
    """`privacy` without defense (the baseline every defense is compared with)."""
    return privacy(**task_args, defense="none")


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_policy_reminder(**task_args: Any) -> Task:
    """`privacy` with `defense=policy_reminder`."""
    return privacy(**task_args, defense="policy_reminder")


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_ci_reasoning(**task_args: Any) -> Task:
    """`privacy` with `defense=ci_reasoning`."""
    return privacy(**task_args, defense="ci_reasoning")


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_hardened_prompt(**task_args: Any) -> Task:
    """`privacy` with `defense=hardened_prompt`."""
    return privacy(**task_args, defense="hardened_prompt")


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_spotlight(**task_args: Any) -> Task:
    """`privacy` with `defense=spotlight`."""
    return privacy(**task_args, defense="spotlight")


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_minimize(**task_args: Any) -> Task:
    """`privacy` with `defense=minimize` (role `minimizer`, default the trusted model)."""
    return privacy(**task_args, defense="minimize")


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_guard(**task_args: Any) -> Task:
    """`privacy` with `defense=guard` (role `guard`, default the trusted model)."""
    return privacy(**task_args, defense="guard")


@task
@parameters_of(privacy, drop=["defense"])
def privacy_defense_redact_oracle(**task_args: Any) -> Task:
    """`privacy` with `defense=redact_oracle`: an ORACLE upper bound, not a real defense."""
    return privacy(**task_args, defense="redact_oracle")
