"""One written-out task per domain, `privacy_<domain>` (docs/architecture.md, "task files")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task

from polar_inspect.task_parameters import parameters_of
from polar_inspect.tasks import build_task, privacy

_DOMAIN = ["domain"]


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_customer_support(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the customer support domain."""
    return build_task({**task_args, "domain": "customer_support"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_cybersecurity(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the cybersecurity domain."""
    return build_task({**task_args, "domain": "cybersecurity"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_education(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the education domain."""
    return build_task({**task_args, "domain": "education"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_finance(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the finance domain."""
    return build_task({**task_args, "domain": "finance"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_housing(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the housing domain."""
    return build_task({**task_args, "domain": "housing"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_insurance(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the insurance domain."""
    return build_task({**task_args, "domain": "insurance"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_legal(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the legal domain."""
    return build_task({**task_args, "domain": "legal"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_medical(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the medical domain."""
    return build_task({**task_args, "domain": "medical"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_recruitment(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the recruitment domain."""
    return build_task({**task_args, "domain": "recruitment"})


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_travel(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the travel domain."""
    return build_task({**task_args, "domain": "travel"})


#: The per-domain tasks by domain (tests check that it covers `axes.DOMAINS`).
DOMAIN_TASKS: dict[str, Callable[..., Task]] = {
    name.removeprefix("privacy_"): function
    for name, function in sorted(globals().items())
    if name.startswith("privacy_") and callable(function)
}
