"""`polar-cost`: what a run will cost, before it starts, in `inspect eval`'s terms.

docs/cost.md#the-cost-before-a-run-polar-cost"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import yaml
from inspect_ai.model import GenerateConfig
from pydantic import ValidationError

from polar_inspect.attackers import ATTACKER_ROLE
from polar_inspect.cost.bill import SETTINGS, Setting, dollars
from polar_inspect.cost.estimate import (
    TRUSTED_ROLE,
    Assumptions,
    RoleCalls,
    called_roles,
    estimate,
    tokenizer_for,
)
from polar_inspect.cost.precision_note import precision_lines
from polar_inspect.cost.sheet import ModelPrice, RoleTtl, load_prices, sheet_date
from polar_inspect.data.samples import SampleInfo
from polar_inspect.errors import UserInputError
from polar_inspect.extras import help_option
from polar_inspect.run.setup import JUDGE_ROLE, check_role_names

SHEETS = Path(__file__).parent / "sheets"
TASKS = ("privacy", "privacy_mini")
WIDTH = 80  # columns: every printed line fits a terminal of this width
INDENT = " " * 11
FOLD = textwrap.TextWrapper(
    WIDTH, subsequent_indent=INDENT, break_long_words=False, break_on_hyphens=False
)


@dataclass(frozen=True)
class RoleModel:
    """The model a role runs on, with what decides its bill."""

    model: str
    args: dict[str, Any]

    @property
    def ttl(self) -> RoleTtl:
        """The role's cache lifetime (`-M cache_ttl`): pinned, else `5m` (see docs/cost.md)."""
        return "1h" if self.args.get("cache_ttl") == "1h" else "5m"


def _pairs(option: str, pairs: Sequence[str]) -> dict[str, Any]:
    parsed: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UserInputError(f"{option} {pair}: expected name=value")
        try:
            loaded = yaml.safe_load(value) if value else value
        except yaml.YAMLError:
            loaded = value
        parsed[name.strip()] = value if loaded is None else loaded
    return parsed


def _role(name: str, spec: Any) -> RoleModel:
    if isinstance(spec, str):
        return RoleModel(model=spec, args={})
    if not isinstance(spec, dict) or not isinstance(spec.get("model"), str):
        raise UserInputError(f"--model-role {name}: expected a model name or {{model: ...}}")
    try:  # the rest of the spec must be valid generate options
        GenerateConfig(**{k: v for k, v in spec.items() if k not in ("model", "model_args")})
    except ValidationError as err:
        problem = err.errors()[0]
        where = ".".join(map(str, problem["loc"])) or "its options"
        raise UserInputError(f"--model-role {name}: {where}: {problem['msg']}") from None
    if not isinstance(args := spec.get("model_args") or {}, dict):
        raise UserInputError(f"--model-role {name}: model_args must be a mapping (name: value)")
    return RoleModel(model=spec["model"], args=args)


def selected(task: str, task_args: dict[str, Any]) -> tuple[Any, list[SampleInfo]]:
    """The run's setup and samples, as `inspect eval <task> -T ...` would build them."""
    from polar_inspect import tasks
    from polar_inspect.run.config import PolarConfig
    from polar_inspect.run.setup import RunSetup

    if (name := task.removeprefix("polar_inspect/")) not in TASKS:
        choices = ", ".join(f"polar_inspect/{t}" for t in TASKS)
        raise UserInputError(f"task {task!r}: polar-cost prices {choices}")
    built = getattr(tasks, name)(**task_args)
    setup = RunSetup.prepare(PolarConfig.from_task_args(task_args))
    return setup, [SampleInfo.model_validate(sample.metadata) for sample in built.dataset]


def _fit(cells: Sequence[str], lead: str = INDENT) -> list[str]:
    """`cells` joined by " | " on lines of at most `WIDTH` columns, a cell never split."""
    lines = [lead]
    for cell in cells:
        joined = lines[-1] + ("" if lines[-1] == lead else " | ") + cell
        if len(joined) > WIDTH and lines[-1] != lead:
            lines.append(INDENT + cell)
        else:
            lines[-1] = joined
    return lines


def role_lines(calls: RoleCalls, role: RoleModel, price: ModelPrice | None) -> list[str]:
    """A role's lines: model; calls and tokens; a dollar cell per setting."""
    inputs = sum(r.input_tokens for t in calls.threads for r in t)
    outputs = sum(r.output_tokens for t in calls.threads for r in t)
    counts = [f"{calls.calls:,} calls", f"input {inputs:,}", f"output {outputs:,} tokens"]
    if calls.unknown_calls:
        counts.append(f"+ {calls.unknown_calls:,} calls whose tokens cannot be rebuilt: unknown")
    head = [f"{calls.role:<10} {role.model}", *_fit(counts)]
    if price is None:
        return [*head, f"{INDENT}unknown: no price for {role.model} in the sheets"]
    if calls.unknown_calls:
        return [*head, f"{INDENT}unknown: not every call's tokens can be rebuilt"]
    return head + _fit([f"{s}: {dollars(calls, price, s, role.ttl)[1]}" for s in SETTINGS])


def _role_usd(
    calls: RoleCalls, role: RoleModel, price: ModelPrice | None, setting: Setting
) -> float | None:
    if not calls.calls and not calls.unknown_calls:
        return 0.0  # never called: nothing to pay, priced or not
    if price is None or calls.unknown_calls:
        return None
    if setting == "flex" and price.flex is None:
        setting = "cached"  # no flex tier: the role runs at its cached price
    return dollars(calls, price, setting, role.ttl)[0]


def _total(
    setting: Setting,
    estimates: Sequence[RoleCalls],
    models: dict[str, RoleModel],
    prices: dict[str, ModelPrice],
) -> str:
    """One setting's total cell; flex names the roles counted at their cached price."""
    priced = {c.role: prices.get(models[c.role].model) for c in estimates}
    called = [c.role for c in estimates if c.calls]
    no_flex = [r for r in called if (p := priced[r]) is not None and p.flex is None]
    if setting == "flex" and len(no_flex) == len(called):
        return "flex: n/a (no called role's model has a flex rate)"
    usds = {c.role: _role_usd(c, models[c.role], priced[c.role], setting) for c in estimates}
    if unknown := [role for role, usd in usds.items() if usd is None]:
        return f"{setting}: unknown ({', '.join(unknown)})"
    total = f"{setting}: {sum(u for u in usds.values() if u is not None):,.4f}"
    if setting != "flex" or not no_flex:
        return total
    return f"{total} ({', '.join(no_flex)} at the cached price: no flex rate)"


def notes(estimates: Sequence[RoleCalls], adaptive: bool) -> str:
    """The caveats of the roles that are called (`adaptive`: the adaptive attacker runs)."""
    called = {c.role for c in estimates if c.calls}
    said = ["cache writes at each role's -M cache_ttl (default 5m)"]
    if adaptive and ATTACKER_ROLE in called:
        said.append("the adaptive attacker's format retries (at most one a round) are not counted")
    if JUDGE_ROLE in called:
        said.append("judge calls are an upper bound (one per turn); Inspect caches the judge's "
                    "answers on disk: a re-run asking the same prompts pays nothing")  # fmt: skip
    return "; ".join(said)


def report(
    task: str,
    estimates: Sequence[RoleCalls],
    models: dict[str, RoleModel],
    prices: dict[str, ModelPrice],
    sheets: Sequence[Path],
    adaptive: bool = False,
) -> list[str]:
    """The printed lines (`adaptive`: the run's attacker is the adaptive one)."""
    counting = sorted({tokenizer_for(m.model).name for m in models.values()})
    samples = next(len(c.threads) for c in estimates if c.role == TRUSTED_ROLE)
    lines = [
        f"{task}: {samples:,} samples; USD, sheets "
        + ", ".join(f"{s.name} ({sheet_date(s)})" for s in sheets),
        f"tokens counted by: {'; '.join(counting)}",
    ]
    for calls in estimates:
        role = models[calls.role]
        lines += role_lines(calls, role, prices.get(role.model))
    totals = _fit([_total(s, estimates, models, prices) for s in SETTINGS], "total      ")
    return [*lines, *totals, notes(estimates, adaptive)]


def wrapped(lines: Sequence[str]) -> str:
    """The lines folded at `WIDTH` columns between words (a number is never split)."""
    return "\n".join(part for line in lines for part in FOLD.wrap(line) or [""])


def plan(
    task: str,
    model: str,
    model_args: Sequence[str],
    model_role: Sequence[str],
    task_args: Sequence[str],
    assume: Assumptions,
    chosen: tuple[Any, list[SampleInfo]] | None = None,
) -> tuple[list[RoleCalls], dict[str, RoleModel]]:
    """Every role's estimated calls and model, from `inspect eval`'s arguments as strings."""
    setup, infos = chosen or selected(task, _pairs("-T", task_args))
    if setup.config.trusted_agent is not None or setup.config.document_access != "prompt":
        raise UserInputError(
            "-T trusted_agent / -T document_access: an agent's calls per turn follow its tool "
            "use, which polar-cost cannot rebuild; run a few samples and price their log with "
            "polar-report --prices (docs/cost.md)"
        )
    main_role = RoleModel(model, _pairs("-M", model_args))
    bound = {spec.partition("=")[0].strip() for spec in model_role}
    check_role_names(sorted(bound))
    for role, why in setup.required_roles().items():
        if role not in bound:
            raise UserInputError(f"{why} needs a model on the {role!r} role: add --model-role")
    roles = called_roles(setup, ATTACKER_ROLE in bound)
    bound_models = {n: _role(n, spec) for n, spec in _pairs("--model-role", model_role).items()}
    models = {role: bound_models.get(role, main_role) for role in roles}
    counters = {role: tokenizer_for(models[role].model).count for role in roles}
    attacker = models[ATTACKER_ROLE].model if ATTACKER_ROLE in models else None
    return estimate(setup, infos, counters, assume, attacker), models


#: A token count the estimate assumes: a whole number, 0 or more.
TOKENS = click.IntRange(min=0)


@click.command(name="polar-cost", help=__doc__.splitlines()[0] if __doc__ else None,
               context_settings={"help_option_names": []})  # fmt: skip
@help_option
@click.argument("task", default="polar_inspect/privacy")
@click.option("--model", required=True, help="the trusted model, provider/name")
@click.option("-M", "model_args", multiple=True, metavar="NAME=VALUE", help="its model args")
@click.option("--model-role", "model_role", multiple=True, metavar="ROLE=MODEL|{model: ...}")
@click.option("-T", "task_args", multiple=True, metavar="NAME=VALUE", help="task parameters")
@click.option("--prices", multiple=True, type=click.Path(path_type=Path), help="price sheets")
@click.option("--reply-tokens", type=TOKENS, default=Assumptions.reply_tokens, show_default=True)
@click.option(
    "--attacker-tokens", type=TOKENS, default=Assumptions.attacker_tokens, show_default=True
)
@click.option("--judge-tokens", type=TOKENS, default=Assumptions.judge_tokens, show_default=True)
@click.option("--copy-tokens", type=TOKENS, default=None, help="the minimiser's copy (tokens)")
@click.option(
    "--half-width",
    type=click.FloatRange(min=0.1, max=100),
    default=None,
    help="a 95% half-width to reach (points): the stratified subset it needs",
)
@click.option(
    "--pilot",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="a pilot run's log: the expected half-widths from its per-sample scores",
)
def cost_command(
    task: str,
    model: str,
    model_args: tuple[str, ...],
    model_role: tuple[str, ...],
    task_args: tuple[str, ...],
    prices: tuple[Path, ...],
    reply_tokens: int,
    attacker_tokens: int,
    judge_tokens: int,
    copy_tokens: int | None,
    half_width: float | None,
    pilot: Path | None,
) -> None:
    """Print the estimate (see the module)."""
    sheets = list(prices) or sorted(SHEETS.glob("*.json"))
    sheet = load_prices(*sheets)
    assume = Assumptions(reply_tokens, attacker_tokens, judge_tokens, copy_tokens)
    setup, infos = selected(task, _pairs("-T", task_args))
    estimates, models = plan(task, model, model_args, model_role, task_args, assume, (setup, infos))
    lines = report(task, estimates, models, sheet, sheets, setup.attacker.name == "adaptive")
    cells = [(info.domain, info.policy, info.attack) for info in infos]
    click.echo(wrapped([*lines, *precision_lines(cells, half_width, pilot)]))


def main(argv: Sequence[str] | None = None) -> int:
    """Run `polar-cost`; a user error is one line on stderr and exit status 1."""
    try:
        cost_command.main(args=list(argv) if argv is not None else None, standalone_mode=False)
    except click.ClickException as err:
        click.echo(f"polar-cost: {err.format_message()}", err=True)
        return 1
    except click.exceptions.Abort:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
