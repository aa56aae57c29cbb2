"""POLAR-Bench tasks: `privacy`, and `privacy_mini` (one sample per domain x policy x attack).

`privacy`'s signature and docstring are the one list of task parameters; every task's body is
`build_task` (docs/architecture.md, "Adding a task parameter").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.log import HeadlineMetric
from inspect_ai.scorer import Scorer

from polar_inspect import __version__
from polar_inspect.agents import ORACLE_MARK, oracle_agent_reasons
from polar_inspect.data.records import PolarRecord
from polar_inspect.data.samples import records_to_dataset
from polar_inspect.data.short_values import (
    ShortValueSummary,
    short_values,
    summarize_short_values,
)
from polar_inspect.dialogue.solver import polar_dialogue
from polar_inspect.process_tuning import collector_paused, leave_sample
from polar_inspect.redaction import redact
from polar_inspect.register import register_entry
from polar_inspect.run.assemble import (
    TRUSTED_MODEL_CONFIG,
    EmptySelectionError,
    Selection,
    plugin_code,
    run_metadata,
    select_data,
    settings_of,
)
from polar_inspect.run.config import PolarConfig
from polar_inspect.run.identity import DETECTOR_VERSIONS, TaskIdentity
from polar_inspect.run.metadata import RunMetadata
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

#: What `inspect view` and Inspect's summaries show first for a run.
HEADLINE = HeadlineMetric(scorer="polar_scorer", score="overall", metric="mean")
__all__ = ["TRUSTED_MODEL_CONFIG", "EmptySelectionError", "build_task", "privacy", "privacy_mini"]


def _identity(
    config: PolarConfig, setup: RunSetup, data: Selection, subset_name: str, version: str
) -> TaskIdentity:
    """The run's task identity (`run.identity.TaskIdentity`)."""
    return TaskIdentity(
        package_version=__version__,
        task_version=version,
        detectors=dict(DETECTOR_VERSIONS),
        data_sha256=data.source.sha256,
        subset=subset_name,
        selection={
            "domains": data.domains,
            "policies": list(config.policy),
            "attacks": list(config.attack),
            "samples": len(data.selected),
        },
        settings=settings_of(config),
        templates={name: t.sha256 for name, t in sorted(setup.templates().items())},
        code=plugin_code(config, setup),
    )


def _scorers(config: PolarConfig, short: ShortValueSummary) -> list[Scorer]:
    return [
        polar_scorer(weight=config.weight),
        polar_strict_scorer(),
        reply_flags(),
        *([polar_judge_scorer()] if config.judge else []),
        *([agent_channel_scorer()] if config.trusted_agent is not None else []),
        *([short_value_check()] if short.values else []),
    ]


#: The parts of the run metadata a user's own strings reach (parameters, paths, options); the
#: rest is the data's and the package's (a record's field may well be named `password`).
USER_PARTS = ("config", "attacker", "data_source", "defense")


def _redacted(metadata: RunMetadata) -> dict[str, Any]:
    """The run metadata as the log gets it, with no secret in what the user wrote."""
    dumped = metadata.model_dump(mode="json")
    return {key: redact(value) if key in USER_PARTS else value for key, value in dumped.items()}


class PolarTask(Task):
    """A Task whose display name ends in `[ORACLE]` for an oracle run (`oracle_reasons`)."""

    def __init__(self, *args: Any, oracle: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.oracle = oracle

    @property
    def display_name(self) -> str:
        """The task's name, marked `[ORACLE]` for an oracle run."""
        name = super().display_name
        return f"{name} {ORACLE_MARK}" if self.oracle else name


def oracle_reasons(setup: RunSetup) -> list[str]:
    """Why the run being built reads the scorer's targets, as `report.oracles` (models known
    when Inspect's loader builds the task: `run.setup.models_in_use`)."""
    reasons = [f"defense {setup.defenses.label} reads the scorer's targets"]
    return (reasons if setup.defenses.oracle else []) + oracle_agent_reasons(models_in_use(setup))


def build_task(
    task_args: Mapping[str, Any],
    *,
    subset: Callable[[list[PolarRecord]], list[PolarRecord]] | None = None,
    subset_name: str = "all",
) -> Task:
    """A POLAR-Bench Task from every parameter of `privacy` by name (a variant's fixed values
    among them) plus any unknown names it was given (refused by name)."""
    config = PolarConfig.from_task_args(task_args)
    with collector_paused(config.gc_tuning):  # docs/large-runs.md: the records make no cycles
        return _build(config, subset, subset_name)


def _build(
    config: PolarConfig,
    subset: Callable[[list[PolarRecord]], list[PolarRecord]] | None,
    subset_name: str,
) -> Task:
    setup = RunSetup.prepare(config)  # every template and option checked before data is read
    check_roles_bound(setup)  # under `inspect eval`: a role the run needs and nobody bound
    data = select_data(config, subset)
    entry = register_entry()
    identity = _identity(config, setup, data, subset_name, entry.version)
    setup = setup.model_copy(update={"identity": identity})
    short = summarize_short_values(short_values(data.selected))
    metadata = run_metadata(setup, data, subset_name, short, __version__)
    reasons = oracle_reasons(setup)
    mark = " (ORACLE)" if reasons else ""  # no brackets: Inspect shows this line escaped
    dataset: MemoryDataset = records_to_dataset(
        data.selected,
        name=f"polar-{data.source.kind}{mark}",  # shown in `inspect eval`'s summary
        location=data.source.path,
        source=data.source,
        fields=data.fields,
    )
    return PolarTask(
        oracle=bool(reasons),
        dataset=dataset,
        solver=polar_dialogue(setup),
        scorer=_scorers(config, short),
        cleanup=leave_sample,
        config=TRUSTED_MODEL_CONFIG,
        version=entry.comparability_version,
        metadata=_redacted(metadata),
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
    user's privacy policy protects, against an adversarial third party?

    Args:
        data: `official` (the authors' release from Hugging Face, pinned and checksummed),
            `bundled` (the project's offline dataset), or a path to a JSON array / JSONL file
            in the release's record format.
        domain: One domain or a comma-separated list (default: all ten).
        policy: Policy levels `P1`..`P5` or privacy_type names, comma-separated (default: all).
        attack: Attack strategies `S1`..`S5` or attack_type names, comma-separated (default: all).
        max_turns: Turn budget for every sample, replacing the sample's own
            (`attack_setup.attack_spec.turns`, else 6 as in the paper); scripted rounds stay
            bounded by the number of planned turns.
        weight: lambda in overall = lambda * privacy + (1 - lambda) * utility (default 0.5).
        system_prompt: Template file for the trusted model's system message, with the
            placeholders `{document}`, `{policy}`, `{task}` (optional `{domain}`).
        truncated: `score` (default, the paper's behaviour): a sample whose trusted replies hit
            the output-token limit or came back empty is scored as it is, and counted; `fail`:
            such a sample is an error, left out of the scores.
        defense: `none` (default), or defenses around the trusted model's turn, comma-separated
            to stack them in order (`policy_reminder`, `ci_reasoning`, `hardened_prompt`,
            `spotlight`, `minimize`, `guard`, `redact_oracle` (an oracle), or any registered in
            the `polar_inspect.defenses` entry point group); `name@file.txt` replaces that
            defense's prompt template.
        attacker: How attacker turns are produced: `paper` (default: S1-S4 scripted, S5 live
            on the `attacker` role, replayed when none is bound), `scripted` (every strategy
            plays its planned turns), `adaptive` (every strategy live, with a private plan), or
            any attacker registered in the `polar_inspect.attackers` entry point group.
        attacker_system_prompt: `paper` only: template file for the live S5 attacker's system
            message (`{attack_setup_json}`, `{domain}`, `{attack_type}`, `{attacker_goal}`,
            `{allowed_values}`, `{protected_values}`, `{planned_turns}`).
        attacker_turn_prompt: `paper` only: template file for the live attacker's per-round
            instruction (`{round}`, `{total_rounds}`, `{planned_message}` and the above).
        attacker_free_turn_prompt: `paper` only: template file for a live round with no planned
            message (same placeholders as `attacker_turn_prompt`).
        attacker_opening_prompt: `paper` only: template file for the first user message the
            live attacker sees with `attacker_messages=merged` (empty file: none).
        attacker_messages: `paper` only: `separate` (default, the authors' layout: the trusted
            reply and the round's instruction as two user messages) or `merged` (one user
            message per round and an opening message, for providers that need alternating roles).
        attacker_empty_reply: `paper` only: `send` (default, as the authors: an empty attacker
            message is sent as a turn) or `stop` (the dialogue ends there).
        attacker_knowledge: `adaptive` only: `fields` (default: the attacker knows the names of
            the fields it is after) or `values` (it also sees their values: the paper's setting).
        attack_budget: `adaptive` only: turns the attacker may spend (default: the turn
            budget; S1 always gets one message).
        attack_language: `adaptive` only: `de`, `fr` or `it` makes the attacker write in
            German, French or Italian (default: English).
        adaptive_system_prompt: `adaptive` only: template file for the attacker's system message
            (`{domain}`, `{turn_budget}`, `{targets}`, `{allowed}`, `{strategy}`,
            `{strategy_rules}`, `{language}`).
        adaptive_turn_prompt: `adaptive` only: template file for its per-round instruction
            (`{round}`, `{total_rounds}`, `{turns_left}`).
        max_in_flight: At most this many model requests in flight across the trusted model and
            the attacker together (default: no cap beyond Inspect's `--max-connections`, which
            is per model, so two roles on two models can have twice that in flight).
        judge: `true`: also score with an LLM judge on the `judge` role (`--model-role
            judge=<provider/model>`, never the evaluated model): `privacy_judge`,
            `utility_judge` and per-value verdicts (default `false`: no judge).
        gc_tuning: `true` (default): fewer garbage-collection pauses while the run goes (raised
            thresholds, objects alive at task start frozen; put back when the run ends; not
            when the process set its own); `false`: the process's settings as they are.
        trusted_agent: `none` (default: the paper's single model call per trusted turn),
            `react` (Inspect's react agent on the trusted model), or `package.module:function`
            returning an Inspect Agent: it plays each trusted turn with tools; only its final
            reply reaches the third party (docs/agents.md).
        document_access: `prompt` (default, the paper's: the document in the system
            message), `tool` (a `read_document` tool instead) or `fields` (`list_fields` /
            `get_field` over the record's typed fields); `tool` and `fields` need
            `trusted_agent`.
        **unknown: Any other name is refused with a message (a mistyped parameter is an error).
    """
    arguments = dict(locals())
    return build_task({**arguments.pop("unknown"), **arguments})


_FILTERS = ("domain", "policy", "attack")


@task
@parameters_of(privacy, drop=_FILTERS, defaults={"data": "bundled"})
def privacy_mini(**task_args: Any) -> Task:
    """POLAR-Bench on a stratified subset: one sample per domain x policy x attack cell (250).

    The parameters are `privacy`'s without the filters; `data` defaults to `bundled` here so
    that the quick run needs no download (pass `-T data=official` for the authors' release).
    """
    from polar_inspect.data.mini import select_mini

    return build_task(
        {**task_args, **dict.fromkeys(_FILTERS)},
        subset=select_mini,
        subset_name="mini: one sample per domain x policy x attack cell",
    )
