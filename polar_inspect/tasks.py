"""POLAR-Bench tasks: `privacy`, and `privacy_mini` (one sample per domain x policy x attack).

`privacy`'s signature and docstring are the one list of task parameters; the other tasks
derive theirs from it (`task_parameters.parameters_of`). Every task's body is `build_task`:
the parameters become one validated configuration (`run.config.PolarConfig`), the
configuration builds the run's setup once (`run.setup.RunSetup`: templates, defenses,
attacker), the data is loaded and selected, and the Task gets the setup, the typed run metadata
(`run.metadata.RunMetadata`) and the run's task identity. Building a Task changes nothing in the
process: run-time tuning starts with the first sample (`process_tuning`), and errors the user
must fix are `UserInputError`s (one line, exit status 1, no traceback).

To add a parameter, add it to `privacy` (default, type and an `Args:` line) and to
`PolarConfig` (or to an attacker's `Options`): `tests/test_tasks.py` checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.log import HeadlineMetric
from inspect_ai.model import GenerateConfig

from polar_inspect import __version__
from polar_inspect.axes import SelectionError, parse_domains
from polar_inspect.data.loading import RecordError
from polar_inspect.data.records import PolarRecord
from polar_inspect.data.samples import records_to_dataset
from polar_inspect.data.short_values import short_values, summarize_short_values
from polar_inspect.data.sources import DataSource, load_source, resolve_source
from polar_inspect.data.target_checks import summarize_targets
from polar_inspect.data.value_fields import ValueFields, field_coverage, value_fields
from polar_inspect.dialogue.solver import polar_dialogue
from polar_inspect.errors import UserInputError
from polar_inspect.process_tuning import leave_sample
from polar_inspect.register import register_entry
from polar_inspect.run.config import PolarConfig
from polar_inspect.run.identity import DETECTOR_VERSIONS, TaskIdentity
from polar_inspect.run.metadata import (
    AttackerNote,
    DefenseNote,
    RunMetadata,
    TemplateNote,
)
from polar_inspect.run.setup import RunSetup
from polar_inspect.scorers import (
    agent_channel_scorer,
    polar_judge_scorer,
    polar_scorer,
    polar_strict_scorer,
    reply_flags,
)
from polar_inspect.scorers.short_values import short_value_check
from polar_inspect.task_parameters import parameters_of
from polar_inspect.trusted_agents import agent_source_sha256

#: The paper's settings for the trusted model; `--temperature` / `--max-tokens` override them.
TRUSTED_MODEL_CONFIG = GenerateConfig(temperature=0.0, top_p=1.0, max_tokens=1200)
#: What `inspect view` and Inspect's summaries show first for a run.
HEADLINE = HeadlineMetric(scorer="polar_scorer", score="overall", metric="mean")


class EmptySelectionError(UserInputError):
    """The filters left no sample to run."""


def _select(
    records: Sequence[PolarRecord], domains: list[str], config: PolarConfig
) -> list[PolarRecord]:
    wanted_domains, policies, attacks = set(domains), set(config.policy), set(config.attack)
    return [
        r
        for r in records
        if r.domain in wanted_domains and r.policy in policies and r.attack in attacks
    ]


def _load(source_name: str) -> tuple[DataSource, list[PolarRecord]]:
    try:
        source = resolve_source(source_name)
        return source, load_source(source)
    except RecordError as err:
        raise UserInputError(str(err)) from None


def _settings(config: PolarConfig, setup: RunSetup) -> dict[str, Any]:
    """The parameters that change what is sent or scored (not paths: their files' hashes are
    in the identity's templates; not max_in_flight or gc_tuning: they change no number)."""
    options = {
        name: value
        for name, value in config.attacker_options.items()
        if not name.endswith("_prompt")
    }
    settings: dict[str, Any] = {
        "max_turns": config.max_turns,
        "weight": config.weight,
        "truncated": config.truncated,
        "defense": [spec.name for spec in config.defense],
        "attacker": config.attacker,
        "attacker_options": options,
        "judge": config.judge,
        "trusted_model_config": TRUSTED_MODEL_CONFIG.model_dump(exclude_none=True),
    }
    # Only when set: the paper's setting keeps the identity its earlier logs have.
    if config.trusted_agent is not None:
        settings["trusted_agent"] = config.trusted_agent
        source = agent_source_sha256(config.trusted_agent)
        if source is not None:
            settings["trusted_agent_source_sha256"] = source
    if config.document_access != "prompt":
        settings["document_access"] = config.document_access
    return settings


def _check_named_fields(
    records: Sequence[PolarRecord], fields: Sequence[ValueFields], path: str
) -> None:
    """With `fields` access every target value must sit in a named field: a value no field
    holds could never be fetched, and would score as withheld."""
    unnamed = [
        (record.sample_id, [v for v in record.protected_values() + record.allowed_values()
                            if v not in found.fields])
        for record, found in zip(records, fields, strict=True)
    ]  # fmt: skip
    unnamed = [(sample_id, values) for sample_id, values in unnamed if values]
    if unnamed:
        sample_id, values = unnamed[0]
        raise UserInputError(
            f"Task parameter document_access=fields: {len(unnamed)} record(s) of {path} have "
            f"target values that no field of hidden_target.gold_sensitive_values / "
            f"gold_safe_values holds (first: {sample_id}: {values[:3]}); name their fields "
            "there, or use -T document_access=tool"
        )


def build_task(
    task_args: Mapping[str, Any],
    *,
    subset: Callable[[list[PolarRecord]], list[PolarRecord]] | None = None,
    subset_name: str = "all",
) -> Task:
    """Assemble a POLAR-Bench Task from `privacy`'s parameters, by name (every task's body).

    `task_args` holds every parameter of `privacy` (a variant passes its fixed values, e.g.
    `domain`, along with the rest), plus any unknown names it was given (refused by name).
    """
    config = PolarConfig.from_task_args(task_args)
    setup = RunSetup.prepare(config)  # every template and option checked before data is read
    source, records = _load(config.data)
    try:
        domains = parse_domains(config.domain, available={r.domain for r in records})
    except SelectionError as err:
        raise SelectionError(f"Task parameter domain: {err.message}") from None
    if subset is not None:
        records = subset(records)
    selected = _select(records, domains, config)
    if not selected:
        raise EmptySelectionError(
            f"No sample in {source.path} matches domain={domains}, policy={list(config.policy)}, "
            f"attack={list(config.attack)} ({len(records)} samples before filtering)."
        )
    fields = [value_fields(record) for record in selected]  # read once, used twice
    if config.document_access == "fields":
        _check_named_fields(selected, fields, source.path)
    coverage = field_coverage(selected, origin=source.path, fields=fields)
    short = summarize_short_values(short_values(selected))
    run_domains = [d for d in domains if d in {r.domain for r in selected}]
    entry = register_entry()
    templates = setup.templates()
    identity = TaskIdentity(
        package_version=__version__,
        task_version=entry.version,
        detectors=dict(DETECTOR_VERSIONS),
        data_sha256=source.sha256,
        subset=subset_name,
        selection={
            "domains": run_domains,
            "policies": list(config.policy),
            "attacks": list(config.attack),
            "samples": len(selected),
        },
        settings=_settings(config, setup),
        templates={name: template.sha256 for name, template in sorted(templates.items())},
    )
    setup = setup.with_identity(identity)
    dataset: MemoryDataset = records_to_dataset(
        selected, name=f"polar-{source.kind}", location=source.path, source=source, fields=fields
    )
    metadata = RunMetadata(
        polar_inspect_version=__version__,
        full_task_version=entry.version,
        task_comparability_version=entry.comparability_version,
        task_interface_version=entry.interface_version,
        identity=identity,
        data_source=source,
        subset=subset_name,
        samples_available=len(records),
        samples_selected=len(selected),
        domains=run_domains,
        policies=list(config.policy),
        attacks=list(config.attack),
        max_turns=config.max_turns,
        weight=config.weight,
        truncated=config.truncated,
        judge=config.judge,
        attacker=AttackerNote(
            name=config.attacker,
            options=config.attacker_options,
            note=setup.attacker.describe(list(config.attack)),
        ),
        defense=DefenseNote(
            label=setup.defenses.label,
            stack=[spec.name for spec in config.defense],
            prompts={spec.name: spec.prompt for spec in config.defense if spec.prompt},
            oracle=setup.defenses.oracle,
            roles=sorted({role for d in setup.defenses.defenses for role in d.roles}),
        ),
        prompts={
            name: TemplateNote(source=t.source, sha256=t.sha256, text=t.text)
            for name, t in templates.items()
        },
        value_fields=coverage.model_dump(),
        short_values=short,
        target_checks=summarize_targets(selected, origin=source.path),
        trusted_model_config=TRUSTED_MODEL_CONFIG.model_dump(exclude_none=True),
        config=config.model_dump(mode="json"),
    )
    return Task(
        dataset=dataset,
        solver=polar_dialogue(setup),
        scorer=[
            polar_scorer(weight=config.weight),
            polar_strict_scorer(),
            reply_flags(),
            *([polar_judge_scorer()] if config.judge else []),
            *([agent_channel_scorer()] if config.trusted_agent is not None else []),
            *([short_value_check()] if short.values else []),
        ],
        cleanup=leave_sample,
        config=TRUSTED_MODEL_CONFIG,
        version=entry.comparability_version,
        metadata=metadata.model_dump(mode="json"),
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
