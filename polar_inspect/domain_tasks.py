"""One task per domain, `privacy_<domain>`: `privacy` restricted to that domain, written out as
`@task` functions for Inspect's file-based discovery (docs/architecture.md, "task files").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task

from polar_inspect.task_parameters import parameters_of
from polar_inspect.tasks import build_task, privacy


def _one_domain(domain_name: str, task_args: dict[str, Any]) -> Task:
    """`privacy` restricted to one domain (the body of every `privacy_<domain>` task)."""
    return build_task({**task_args, "domain": domain_name})


_DOMAIN = ["domain"]


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_customer_support(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the customer support domain."""
    return _one_domain("customer_support", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_cybersecurity(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the cybersecurity domain."""
    return _one_domain("cybersecurity", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_education(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the education domain."""
    return _one_domain("education", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_finance(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the finance domain."""
    return _one_domain("finance", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_housing(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the housing domain."""
    return _one_domain("housing", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_insurance(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the insurance domain."""
    return _one_domain("insurance", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_legal(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the legal domain."""
    return _one_domain("legal", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_medical(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the medical domain."""
    return _one_domain("medical", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_recruitment(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the recruitment domain."""
    return _one_domain("recruitment", task_args)


@task
@parameters_of(privacy, drop=_DOMAIN)
def privacy_travel(**task_args: Any) -> Task:
    """POLAR-Bench restricted to the travel domain."""
    return _one_domain("travel", task_args)


#: The per-domain tasks by domain (tests check that it covers `axes.DOMAINS`).
DOMAIN_TASKS: dict[str, Callable[..., Task]] = {
    name.removeprefix("privacy_"): function
    for name, function in sorted(globals().items())
    if name.startswith("privacy_") and callable(function)
}
