"""Model roles: which are bound, and the check, at each sample's start before any model call,
that those the run needs are (docs/attackers.md); one bound but unused is noted in the transcript.
"""

from __future__ import annotations

import logging

from inspect_ai.log import transcript
from inspect_ai.model import Model, get_model, model_roles
from pydantic import JsonValue

from polar_inspect.attackers import ATTACKER_ROLE
from polar_inspect.errors import UserInputError
from polar_inspect.run.setup import JUDGE_ROLE, RunSetup, check_role_names, missing_role_message

logger = logging.getLogger(__name__)


class RoleNotBoundError(UserInputError):
    """The run needs a model on a role (the attacker, the judge) and none is bound."""


def bound_role(role: str) -> Model | None:
    """The model bound to `role`, or None (a role bound to a list: its first model)."""
    bound = model_roles().get(role)
    if isinstance(bound, list):
        return bound[0] if bound else None
    return bound


def check_roles(setup: RunSetup) -> dict[str, Model]:
    """The bound roles; RoleNotBoundError when one the run needs is missing or misbound."""
    check_role_names(model_roles(), setup)  # per sample: no registry scan for known names
    found = {role: bound_role(role) for role in model_roles()}
    bound = {role: model for role, model in found.items() if model is not None}
    for role, why in setup.required_roles().items():
        if role not in bound:
            raise RoleNotBoundError(missing_role_message(role, why))
    judge = bound.get(JUDGE_ROLE)
    needs_judge = JUDGE_ROLE in setup.required_roles()
    if needs_judge and judge is not None and str(judge) == str(get_model()):
        raise RoleNotBoundError(
            f"the judge role is bound to the evaluated model ({judge}); bind another model "
            "with --model-role judge=<provider/model>"
        )
    _announce_unused(setup, bound)
    return bound


def _announce_unused(setup: RunSetup, bound: dict[str, Model]) -> None:
    unused: list[JsonValue] = []
    if ATTACKER_ROLE in bound and not setup.attacker.calls_model:
        unused.append(f"attacker (-T attacker={setup.config.attacker} calls no model)")
    if JUDGE_ROLE in bound and not setup.config.judge:
        unused.append("judge (add -T judge=true to score with it)")
    if unused:
        transcript().info(
            {"unused model roles": unused}, source="polar_inspect: bound but not used"
        )
