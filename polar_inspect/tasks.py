"""POLAR-Bench tasks `privacy` and `privacy_mini`: `privacy`'s signature and docstring are the one
list of task parameters, every task's body is `build_task` (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.log import HeadlineMetric

from polar_inspect import __version__
from polar_inspect.agents import ORACLE_MARK, oracle_agent_reasons
from polar_inspect.data.records import PolarRecord
from polar_inspect.data.samples import records_to_dataset
from polar_inspect.data.short_values import short_values, summarize_short_values
from polar_inspect.dialogue.solver import polar_dialogue
from polar_inspect.process_tuning import BUILT_TASKS, task_build
from polar_inspect.redaction import redact
from polar_inspect.register import register_entry
from polar_inspect.run.assemble import TRUSTED_MODEL_CONFIG, run_metadata, select_data
from polar_inspect.run.config import PolarConfig
from polar_inspect.run.setup import RunSetup, check_roles_bound, models_in_use
from polar_inspect.scorers import (
    agent_channel_scorer,
    polar_judge_scorer,
    polar_scorer,
    polar_strict_scorer,
    reply_flags,
)
from polar_inspect.scorers.short_values import short_value_check
from polar_inspect.task_parameters import parameters_of
from polar_inspect.typed_store import DeferredWrites

#: What `inspect view` and Inspect's summaries show first for a run.
HEADLINE = HeadlineMetric(scorer="polar_scorer", score="overall", metric="mean")
__all__ = ["TRUSTED_MODEL_CONFIG", "build_task", "privacy", "privacy_mini"]


#: The parts of the run metadata a user's own strings reach (parameters, paths, options); the
#: rest is the data's and the package's (a record's field may well be named `password`).
USER_PARTS = ("config", "attacker", "data_source", "defense")


class PolarTask(Task):
    """A Task whose display name ends in `[ORACLE]` for an oracle run (`oracle_reasons`)."""

    def __init__(self, *args: Any, oracle: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.oracle = oracle
        BUILT_TASKS.add(self)  # its name and metadata: does a run of it ask for gc tuning?

    @property
    def display_name(self) -> str:
        """The task's name, marked `[ORACLE]` for an oracle run."""
        name = super().display_name
        return f"{name} {ORACLE_MARK}" if self.oracle else name


def oracle_reasons(setup: RunSetup) -> list[str]:
    """Why the run reads the scorer's targets, as `report.oracles` (`run.setup.models_in_use`)."""
    reasons = [f"defense {setup.defenses.label} reads the scorer's targets"]
    return (reasons if setup.defenses.oracle else []) + oracle_agent_reasons(models_in_use(setup))


def build_task(
    task_args: Mapping[str, Any],
    *,
    subset: Callable[[list[PolarRecord]], list[PolarRecord]] | None = None,
    subset_name: str = "all",
) -> Task:
    """A POLAR-Bench Task from `privacy`'s parameters by name (an unknown name is refused)."""
    config = PolarConfig.from_task_args(task_args)
    with task_build(config.gc_tuning):  # docs/large-runs.md: the records make no cycles
        setup = RunSetup.prepare(config)  # every template and option checked before data is read
        check_roles_bound(setup)  # under `inspect eval`: a role the run needs and nobody bound
        data = select_data(config, subset)
        short = summarize_short_values(short_values(data.selected))
        metadata = run_metadata(setup, data, subset_name, short, __version__)
        setup = setup.model_copy(update={"identity": metadata.identity})
        reasons, deferred = oracle_reasons(setup), DeferredWrites()
        mark = " (ORACLE)" if reasons else ""  # no brackets: Inspect shows this line escaped
        dataset = records_to_dataset(
            data.selected,
            name=f"polar-{data.source.kind}{mark}",  # shown in `inspect eval`'s summary
            location=data.source.path,
            source=data.source,
            fields=data.fields,
        )
        return PolarTask(
            oracle=bool(reasons),
            dataset=dataset,
            solver=polar_dialogue(setup, deferred),
            scorer=[
                polar_scorer(weight=config.weight),
                polar_strict_scorer(),
                reply_flags(),
                *([polar_judge_scorer()] if config.judge else []),
                *([agent_channel_scorer()] if config.trusted_agent is not None else []),
                *([short_value_check()] if short.values else []),
            ],
            cleanup=deferred.cleanup,
            config=TRUSTED_MODEL_CONFIG,
            version=register_entry().comparability_version,
            metadata={  # no secret in what the user wrote
                key: redact(value) if key in USER_PARTS else value
                for key, value in metadata.model_dump(mode="json").items()
            },
            headline_metric=HEADLINE,
        )


@task
def privacy(
    data: str = "official",
    domain: str | list[str] | None = None,
    policy: str | list[str] | None = None,
    attack: str | list[str] | None = None,
    max_turns: int | None = None,
    weight: float = 0.5,
    system_prompt: str | None = None,
    truncated: Literal["score", "fail"] = "score",
    defense: str | list[str] = "none",
    attacker: str = "paper",
    attacker_system_prompt: str | None = None,
    attacker_turn_prompt: str | None = None,
    attacker_free_turn_prompt: str | None = None,
    attacker_opening_prompt: str | None = None,
    attacker_messages: Literal["separate", "merged"] | None = None,
    attacker_empty_reply: Literal["send", "stop"] | None = None,
    attacker_knowledge: Literal["fields", "values"] | None = None,
    attack_budget: int | None = None,
    attack_language: Literal["de", "fr", "it"] | None = None,
    adaptive_system_prompt: str | None = None,
    adaptive_turn_prompt: str | None = None,
    max_in_flight: int | None = None,
    judge: bool = False,
    gc_tuning: bool = True,
    trusted_agent: str | None = None,
    document_access: Literal["prompt", "tool", "fields"] = "prompt",
    **unknown: Any,
) -> Task:
    """POLAR-Bench: does the trusted model share what the task needs and withhold what the
    user's privacy policy protects, against an adversarial third party? (README, "Options").

    Args:
        data: `official` (the authors' release), `bundled`, or a data file or folder.
        domain: One domain or a comma-separated list (default: all ten).
        policy: Policy levels `P1`..`P5` or privacy_type names, comma-separated (default: all).
        attack: Attack strategies `S1`..`S5` or attack_type names, comma-separated (default: all).
        max_turns: Turn budget for every sample, replacing the sample's own (default: 6).
        weight: lambda in overall = lambda * privacy + (1 - lambda) * utility (default 0.5).
        system_prompt: Template file for the trusted model's system message.
        truncated: `score` (default): a truncated or empty reply is scored; `fail`: an error.
        defense: `none` (default) or defenses around the trusted turn, comma-separated to stack.
        attacker: `paper` (default), `scripted`, `adaptive` or a registered attacker.
        attacker_system_prompt: `paper` only: template file for the live S5 attacker's system.
        attacker_turn_prompt: `paper` only: template file for the live attacker's instruction.
        attacker_free_turn_prompt: `paper` only: template file for a round with no planned turn.
        attacker_opening_prompt: `paper` only: template file for the merged layout's opening.
        attacker_messages: `paper` only: `separate` (default) or `merged` (alternating roles).
        attacker_empty_reply: `paper` only: `send` (default) or `stop` on an empty message.
        attacker_knowledge: `adaptive` only: `fields` (default) or `values` (the paper's).
        attack_budget: `adaptive` only: turns the attacker may spend (default: the budget).
        attack_language: `adaptive` only: `de`, `fr` or `it` (default: English).
        adaptive_system_prompt: `adaptive` only: template file for the attacker's system.
        adaptive_turn_prompt: `adaptive` only: template file for its per-round instruction.
        max_in_flight: At most this many model requests in flight across all roles.
        judge: `true`: also score with an LLM judge on the `judge` role (default `false`).
        gc_tuning: `true` (default): fewer garbage-collection pauses while the task runs.
        trusted_agent: `none` (default), `react`, or `package.module:function` (an Agent).
        document_access: `prompt` (default), `tool` or `fields` (these need `trusted_agent`).
        **unknown: Any other name is refused with a message (a mistyped parameter is an error).
    """
    arguments = dict(locals())
    return build_task({**arguments.pop("unknown"), **arguments})


@task
@parameters_of(privacy, drop=["domain", "policy", "attack"], defaults={"data": "bundled"})
def privacy_mini(**task_args: Any) -> Task:
    """POLAR-Bench on one sample per domain x policy x attack cell (250; `data`: `bundled`)."""
    from polar_inspect.data.mini import select_mini

    return build_task(
        task_args,
        subset=select_mini,
        subset_name="mini: one sample per domain x policy x attack cell",
    )
