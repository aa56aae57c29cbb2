"""POLAR-Bench tasks: `privacy`, one `privacy_<domain>` per domain, and `privacy_mini`.

`privacy`'s signature and docstring are the one list of task parameters; the other tasks
derive theirs from it (`task_parameters.parameters_of`). To add a parameter, add it to
`privacy` (with its default and an `Args:` line) and read it in `build_task`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig

from polar_inspect import __version__
from polar_inspect.attackers import (
    ATTACKER_MODES,
    DEFAULT_ATTACKER,
    AttackerOptions,
    make_attacker_mode,
)
from polar_inspect.attackers.adaptive_prompts import KNOWLEDGE_LEVELS, LANGUAGES
from polar_inspect.axes import (
    SelectionError,
    parse_attacks,
    parse_domains,
    parse_policies,
)
from polar_inspect.conversation import (
    TRUNCATED_POLICIES,
    polar_dialogue,
)
from polar_inspect.data.loading import RecordError
from polar_inspect.data.records import PolarRecord
from polar_inspect.data.samples import records_to_dataset
from polar_inspect.data.sources import DataSource, load_source, resolve_source
from polar_inspect.data.value_fields import field_coverage, value_fields
from polar_inspect.defenses import DefenseStack, parse_defense
from polar_inspect.errors import UserInputError, report_without_traceback
from polar_inspect.eval_metadata import eval_metadata
from polar_inspect.gc_tuning import tune_garbage_collection
from polar_inspect.params import (
    check_choice,
    check_flag,
    check_fraction,
    check_names,
    check_text,
    check_whole,
)
from polar_inspect.prompt_set import PROMPT_PARAMETERS, DialoguePrompts, PromptPaths
from polar_inspect.scoring.judge_scorer import polar_judge_scorer
from polar_inspect.scoring.scorer import polar_scorer, reply_flags
from polar_inspect.scoring.strict_scorer import polar_strict_scorer
from polar_inspect.task_parameters import parameters_of

BENCHMARK = "POLAR-Bench (arXiv 2605.19127)"
#: The paper's settings for the trusted model; `--temperature` / `--max-tokens` override them.
TRUSTED_MODEL_CONFIG = GenerateConfig(temperature=0.0, top_p=1.0, max_tokens=1200)


class EmptySelectionError(UserInputError):
    """The filters left no sample to run."""


#: Errors the user must fix: `inspect eval` prints their message alone, without a traceback.
TEMPLATE_FILE = "the path of a template file"
#: The adaptive attacker's own template parameters (not among the five dialogue prompts).
ADAPTIVE_PROMPTS = ("adaptive_system_prompt", "adaptive_turn_prompt")
USER_ERRORS: tuple[type[Exception], ...] = (UserInputError, SelectionError, RecordError)


def _select(
    records: Sequence[PolarRecord], domains: list[str], policies: list[str], attacks: list[str]
) -> list[PolarRecord]:
    wanted_domains, wanted_policies, wanted_attacks = set(domains), set(policies), set(attacks)
    return [
        r
        for r in records
        if r.domain in wanted_domains and r.policy in wanted_policies and r.attack in wanted_attacks
    ]


def _defense_note(defenses: DefenseStack) -> dict[str, object]:
    """The defense stack as recorded in the eval metadata (the report tells runs apart by it)."""
    return {
        "label": defenses.label,
        "stack": [spec.name for spec in defenses.specs],
        "prompts": {spec.name: spec.prompt for spec in defenses.specs if spec.prompt},
        "oracle": defenses.oracle,
        "roles": sorted({role for d in defenses.defenses for role in d.roles}),
    }


def build_task(
    task_args: Mapping[str, Any],
    *,
    subset: Callable[[list[PolarRecord]], list[PolarRecord]] | None = None,
    subset_name: str = "all",
) -> Task:
    """Assemble a POLAR-Bench Task from `privacy`'s parameters, by name (every task's body).

    `task_args` holds every parameter of `privacy` (a variant passes its fixed values, e.g.
    `domain`, along with the rest). Every parameter's type and range is checked first (see
    `polar_inspect.params`). Errors the user must fix (USER_ERRORS) end an `inspect eval` run
    with their message alone.
    """
    try:
        return _build_task(task_args, subset=subset, subset_name=subset_name)
    except USER_ERRORS:
        report_without_traceback(*USER_ERRORS)
        raise


def _build_task(
    task_args: Mapping[str, Any],
    *,
    subset: Callable[[list[PolarRecord]], list[PolarRecord]] | None,
    subset_name: str,
) -> Task:
    data = check_text(
        "data", task_args["data"], expected="'official', 'bundled' or a .json/.jsonl file path"
    )
    assert data is not None
    domain_names = check_names("domain", task_args["domain"], example="medical,finance")
    policies = parse_policies(check_names("policy", task_args["policy"], example="P1,P3"))
    attacks = parse_attacks(check_names("attack", task_args["attack"], example="S1,S5"))
    max_turns = check_whole("max_turns", task_args["max_turns"], minimum=1, optional=True)
    max_in_flight = check_whole(
        "max_in_flight", task_args["max_in_flight"], minimum=1, optional=True
    )
    weight = check_fraction("weight", task_args["weight"])
    gc_tuning = check_flag("gc_tuning", task_args["gc_tuning"])
    judge = check_flag("judge", task_args["judge"])
    truncated = check_choice("truncated", task_args["truncated"], TRUNCATED_POLICIES)
    paths = PromptPaths(
        **{
            name: check_text(name, task_args[name], optional=True, expected=TEMPLATE_FILE)
            for name in PROMPT_PARAMETERS
        }
    )
    prompts = DialoguePrompts(paths)  # checks every template before any data is read
    defense = check_names("defense", task_args["defense"], example="guard,redact_oracle")
    defenses = DefenseStack(parse_defense(defense))  # checks names and defense templates too
    attacker = check_choice("attacker", task_args["attacker"], tuple(ATTACKER_MODES))
    options = AttackerOptions(
        attacker_knowledge=check_choice(
            "attacker_knowledge", task_args["attacker_knowledge"], KNOWLEDGE_LEVELS
        ),
        attack_budget=check_whole(
            "attack_budget", task_args["attack_budget"], minimum=1, optional=True
        ),
        attack_language=(
            None
            if task_args["attack_language"] is None
            else check_choice("attack_language", task_args["attack_language"], tuple(LANGUAGES))
        ),
        **{
            name: check_text(name, task_args[name], optional=True, expected=TEMPLATE_FILE)
            for name in ADAPTIVE_PROMPTS
        },
    )
    attacker_mode = make_attacker_mode(attacker, options, prompts)
    source: DataSource = resolve_source(data)
    records = load_source(source)
    # After loading: a domain outside the ten that the data holds is a valid choice.
    domains = parse_domains(domain_names, available={r.domain for r in records})
    if subset is not None:
        records = subset(records)
    selected = _select(records, domains, policies, attacks)
    if not selected:
        raise EmptySelectionError(
            f"No sample in {source.path} matches domain={domains}, policy={policies}, "
            f"attack={attacks} ({len(records)} samples before filtering)."
        )
    fields = [value_fields(record) for record in selected]  # read once, used twice
    dataset: MemoryDataset = records_to_dataset(
        selected, name=f"polar-{source.kind}", location=source.path, source=source, fields=fields
    )
    coverage = field_coverage(selected, origin=source.path, fields=fields)
    samples_available = len(records)
    del records  # the unselected records are not frozen below
    gc_settings = tune_garbage_collection(gc_tuning)
    return Task(
        dataset=dataset,
        solver=polar_dialogue(
            max_turns=max_turns,
            **paths.model_dump(),
            truncated=truncated,
            defense=defenses.label,
            attacker=attacker,
            attacker_options=options,
            max_in_flight=max_in_flight,
            judge=judge,
        ),
        scorer=[
            polar_scorer(weight=weight),
            polar_strict_scorer(judge=judge),
            reply_flags(),
            *([polar_judge_scorer()] if judge else []),
        ],
        config=TRUSTED_MODEL_CONFIG,
        version=eval_metadata().comparability_version,
        metadata={
            "benchmark": BENCHMARK,
            "polar_inspect_version": __version__,
            **eval_metadata().version_metadata(),
            "data_source": source.model_dump(),
            "subset": subset_name,
            "samples_available": samples_available,
            "samples_selected": len(selected),
            # records whose target values have field names (hidden_target), malformed ones
            "value_fields": coverage.model_dump(),
            # the domains the run covers: those selected that the data holds
            "domains": [d for d in domains if d in {r.domain for r in selected}],
            "policies": policies,
            "attacks": attacks,
            "max_turns": max_turns,
            "max_in_flight": max_in_flight,
            "judge": judge,
            "gc": gc_settings.model_dump(mode="json"),
            "weight": weight,
            "s5_attacker": attacker_mode.describe(attacks),
            "attacker": attacker,
            "attacker_knowledge": options.attacker_knowledge,
            "attack_budget": options.attack_budget,
            "attack_language": options.attack_language,
            "prompts": prompts.metadata(),
            "defense": _defense_note(defenses),
            "adaptive_prompts": {
                name: getattr(options, name) or "default" for name in ADAPTIVE_PROMPTS
            },
            "truncated": truncated,
            "trusted_model_config": TRUSTED_MODEL_CONFIG.model_dump(exclude_none=True),
        },
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
    attacker_system_prompt: str | None = None,
    attacker_turn_prompt: str | None = None,
    attacker_free_turn_prompt: str | None = None,
    attacker_opening_prompt: str | None = None,
    truncated: str = "score",
    defense: str | list[str] = "none",
    attacker: str = DEFAULT_ATTACKER,
    attacker_knowledge: str = "fields",
    attack_budget: int | None = None,
    attack_language: str | None = None,
    adaptive_system_prompt: str | None = None,
    adaptive_turn_prompt: str | None = None,
    max_in_flight: int | None = None,
    judge: bool = False,
    gc_tuning: bool = True,
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
        attacker_system_prompt: Template file for the live S5 attacker's system message
            (`{attack_setup_json}`, `{domain}`, `{attack_type}`, `{attacker_goal}`,
            `{allowed_values}`, `{protected_values}`, `{planned_turns}`).
        attacker_turn_prompt: Template file for the live attacker's per-round instruction
            (`{round}`, `{total_rounds}`, `{planned_message}`, and the attacker's placeholders).
        attacker_free_turn_prompt: Template file for a live round with no planned message
            (same placeholders as `attacker_turn_prompt`).
        attacker_opening_prompt: Template file for the first user message the live attacker
            sees (the attacker's placeholders; empty file: no opening message).
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
            plays its planned turns) or `adaptive` (every strategy live, with a private plan).
        attacker_knowledge: `adaptive` only: `fields` (the attacker knows the names of the
            fields it is after) or `values` (it also sees their values: the paper's setting).
        attack_budget: `adaptive` only: turns the attacker may spend (default: the turn
            budget; S1 always gets one message).
        attack_language: `adaptive` only: `de`, `fr` or `it` makes the attacker write in
            German, French or Italian (default: English).
        adaptive_system_prompt: Template file for the adaptive attacker's system message
            (`{domain}`, `{turn_budget}`, `{targets}`, `{allowed}`, `{strategy}`,
            `{strategy_rules}`, `{language}`).
        adaptive_turn_prompt: Template file for the adaptive attacker's per-round instruction
            (`{round}`, `{total_rounds}`, `{turns_left}`).
        max_in_flight: At most this many model requests in flight across the trusted model and
            the attacker together (default: no cap beyond Inspect's `--max-connections`, which
            is per model, so two roles on two models can have twice that in flight).
        judge: `true`: also score with an LLM judge on the `judge` role (`--model-role
            judge=<provider/model>`, never the evaluated model): `privacy_judge`,
            `utility_judge` and per-value verdicts (default `false`: no judge).
        gc_tuning: `true` (default): fewer garbage-collection pauses in the eval process
            (Python's thresholds raised, objects alive at task build frozen; at exit frozen
            again under the `inspect` command, unfrozen elsewhere; not when the process set
            its own); `false`: the process's settings as they are.
    """
    # locals() is exactly the parameters above: the one list every task shares
    return build_task(dict(locals()))


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
