"""A run's pieces, built and checked once before any sample runs (docs/architecture.md)."""

from __future__ import annotations

import contextvars
import inspect
import traceback
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from inspect_ai.model import get_model, model_roles
from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from polar_inspect.attackers import ATTACKER_ROLE, Attacker
from polar_inspect.attackers.registry import checked_attacker
from polar_inspect.defenses import DefenseStack
from polar_inspect.defenses.registry import DEFENSES
from polar_inspect.errors import UserInputError, did_you_mean
from polar_inspect.prompts import LoadedTemplate, load_template
from polar_inspect.redaction import redact
from polar_inspect.run.config import PolarConfig
from polar_inspect.run.identity import TaskIdentity
from polar_inspect.trusted_agents import AgentFactory, agent_factory

if TYPE_CHECKING:
    from polar_inspect.data.samples import SampleInfo

JUDGE_ROLE = "judge"
#: The modules of Inspect that build tasks for an eval (the caller `check_roles_bound` looks for).
#: (Not `inspect_ai._eval.registry`: the `@task` wrapper every direct call passes through.)
INSPECT_EVAL_MODULES = ("inspect_ai._eval.loader", "inspect_ai._eval.eval")
#: The offline stand-in a missing role's message suggests.
OFFLINE_STAND_INS = {ATTACKER_ROLE: "adaptive-attacker", JUDGE_ROLE: "scripted-judge"}


class RunSetup(BaseModel):
    """The built pieces of one run (only `config` and `identity` go into the log's plan)."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    config: PolarConfig
    trusted_template: LoadedTemplate = Field(exclude=True)
    judge_template: LoadedTemplate | None = Field(default=None, exclude=True)
    #: What stands for the document in the system message when tools give it (None: prompt).
    document_note: LoadedTemplate | None = Field(default=None, exclude=True)
    defenses: DefenseStack = Field(exclude=True)
    attacker: Attacker = Field(exclude=True)
    #: With `-T trusted_agent`: builds the sample's agent from its document tools.
    trusted_agent: AgentFactory | None = Field(default=None, exclude=True)
    #: Set by the task once the data is loaded (the task identity needs the data's sha256).
    identity: TaskIdentity | None = None

    @model_serializer(mode="wrap")
    def _no_secret(self, handler: SerializerFunctionWrapHandler) -> Any:
        """As the log's plan shows the solver's `setup`: a plug-in's key option redacted."""
        return redact(handler(self))

    def system_prompt(self, info: SampleInfo, document: str) -> str:
        """The trusted model's system message before the defenses' addenda: the template with
        the sample's texts, the document (or, behind tools, the note standing for it)."""
        shown = document if self.document_note is None else self.document_note.render().strip()
        policy, task = info.texts.privacy_policy, info.texts.task_instruction
        return self.trusted_template.render(
            document=shown, policy=policy, task=task, domain=info.domain
        )

    @classmethod
    def prepare(cls, config: PolarConfig) -> RunSetup:
        """Build every piece; a bad template or option fails here, naming the file or option."""
        attacker_cls = config.attacker_class()
        return cls(
            config=config,
            trusted_template=load_template("trusted_system", config.system_prompt),
            judge_template=load_template("judge") if config.judge else None,
            document_note=(
                load_template(f"agent_document_{config.document_access}")
                if config.document_access != "prompt"
                else None
            ),
            defenses=DefenseStack(list(config.defense)),
            attacker=checked_attacker(attacker_cls.from_options(config.attacker_options)),
            trusted_agent=(
                agent_factory(config.trusted_agent) if config.trusted_agent is not None else None
            ),
        )

    def templates(self) -> dict[str, LoadedTemplate]:
        """Every template the run sends, by a name that says where it is used."""
        found: dict[str, LoadedTemplate] = {"system_prompt": self.trusted_template}
        found |= {f"attacker {template.kind}": template for template in self.attacker.templates()}
        for spec, defense in zip(self.defenses.specs, self.defenses.defenses, strict=True):
            for template in defense.templates():
                found[f"defense {spec.name} {template.kind}"] = template
        if self.judge_template is not None:
            found["judge"] = self.judge_template
        if self.document_note is not None:
            found["document access"] = self.document_note
        return found

    def required_roles(self) -> dict[str, str]:
        """Roles the run cannot do without, each with the task parameter that needs it."""
        needed: dict[str, str] = {}
        if self.attacker.requires_model:
            needed[ATTACKER_ROLE] = f"-T attacker={self.config.attacker}"
        if self.config.judge:
            needed[JUDGE_ROLE] = "-T judge=true"
        return needed


class MissingRoleError(UserInputError):
    """A model role the run needs and nobody bound, or a bound one no part of the run reads."""


def missing_role_message(role: str, why: str) -> str:
    """What to do when the run needs `role` (because of `why`, e.g. `-T judge=true`)."""
    stand_in = OFFLINE_STAND_INS.get(role, role)
    return (
        f"{why} needs a model on the {role!r} role: add --model-role {role}=<provider/model> "
        f"(offline: polar/{stand_in}), or leave out {why}"
    )


def known_roles() -> list[str]:
    """Every model role the package calls: the attacker's, the judge's, each defense's."""
    defense_roles = (role for defense in DEFENSES.available().values() for role in defense.roles)
    return sorted({ATTACKER_ROLE, JUDGE_ROLE, *defense_roles})


def check_role_names(names: Iterable[str], setup: RunSetup | None = None) -> None:
    """Refuse a `--model-role` name that no part of the run reads (a typo would be ignored)."""
    own = {ATTACKER_ROLE, JUDGE_ROLE}
    if setup is not None:
        own |= set(setup.defenses.roles)
    rest = sorted(set(names) - own)
    known = known_roles() if rest else []
    for name in rest:
        if name not in known:
            raise MissingRoleError(
                f"--model-role {name}: no such role{did_you_mean(name, known)}; "
                f"the roles are {', '.join(known)}"
            )


def _roles_known() -> bool:
    """Whether Inspect has bound this eval's model roles already: `inspect eval` (and
    `inspect_ai.eval` given a task by name) binds them, then its loader builds the task. A task
    built in Python before `eval(...)` sees no roles yet (then the solver checks them); so does
    one built after an `eval_set`, which leaves its roles set in the caller's context: the
    roles count only while Inspect's own loader is the caller."""
    unbound = contextvars.Context().run(model_roles)  # the value outside any eval
    callers = traceback.walk_stack(inspect.currentframe())
    return model_roles() is not unbound and any(
        frame.f_globals.get("__name__") in INSPECT_EVAL_MODULES for frame, _ in callers
    )


def check_roles_bound(setup: RunSetup) -> None:
    """Refuse, when the task is built inside an eval, a role the run needs and nobody bound."""
    if not _roles_known():
        return
    bound = model_roles()
    check_role_names(bound, setup)
    for role, why in setup.required_roles().items():
        if not bound.get(role):
            raise MissingRoleError(missing_role_message(role, why))


def models_in_use(setup: RunSetup) -> list[tuple[str, str]]:
    """`(role, model)` for the model under test (`trusted`) and each bound role the run needs
    or its defenses call, when Inspect's loader builds the task (else none: not known yet)."""
    if not _roles_known():
        return []
    used = {*setup.required_roles(), *setup.defenses.roles}
    found = [("trusted", str(get_model()))]
    for role, bound in sorted(model_roles().items()):
        if role in used:
            found += [(role, str(m)) for m in (bound if isinstance(bound, list) else [bound])]
    return found
