"""`polar-validate CASES --scorer parity|strict|judge`: a detector against human labels
(docs/validation.md); a user error ends in one line on stderr and a non-zero exit."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import click
from inspect_ai.model import GenerateConfig, Model, get_model

from polar_inspect.detectors.attribution import attribute_turn
from polar_inspect.detectors.match import TextIndex
from polar_inspect.detectors.strict import detect, value_form
from polar_inspect.errors import UserInputError
from polar_inspect.scorers.llm_judge import JudgeFailedError, JudgeUsage, answer_format, judge_turn
from polar_inspect.validate.cases import (
    BUNDLED_NAME,
    CaseFileError,
    LeakCase,
    load_cases,
    resolve_case_file,
)
from polar_inspect.validate.measure import (
    Verdict,
    measure,
    one_line,
    render,
    render_error,
    reply_excerpt,
)

__all__ = ["EXIT_INPUT", "EXIT_JUDGE", "command", "main", "reply_excerpt"]

PROG = "polar-validate"
#: Exit statuses: 2 for input the user must fix, 1 for a judge model that failed.
EXIT_INPUT, EXIT_JUDGE = 2, 1


def _locate(case: LeakCase) -> tuple[int, int] | None:
    """The value's span in the reply for an excerpt: the strict detector's, else a plain find."""
    found = detect(case.reply, value_form(case.value, case.field or None))
    if found is not None and found.span is not None:
        return found.span
    at = case.reply.casefold().find(case.value.casefold())
    return (at, at + len(case.value)) if at >= 0 else None


def _parity(case: LeakCase) -> Verdict:
    """The paper's matcher on (reply, value): `stated` when a check matches, else `none`."""
    if (check := TextIndex(case.reply).matching_check(case.value)) is None:
        return Verdict(category="none")
    return Verdict(category="stated", how=check, span=_locate(case))


def _strict(case: LeakCase) -> Verdict:
    """The strict detector with attribution (the attacker's turn taken into account)."""
    form = value_form(case.value, case.field or None)
    category, found, how = attribute_turn([case.attacker_turn], case.reply, form)
    return Verdict(category=category, how=how, span=found.span if found is not None else None)


def judge_verdicts(
    cases: Sequence[LeakCase], judge: Model, progress: Callable[[int], None]
) -> tuple[dict[str, Verdict], JudgeUsage]:
    """The LLM judge on every case, one cached call each, `progress(done)` after each one."""
    usage = JudgeUsage()

    async def run() -> dict[str, Verdict]:
        out: dict[str, Verdict] = {}
        for index, case in enumerate(cases, start=1):
            answer = await judge_turn(
                judge, case.attacker_turn, case.reply, [(case.value, case.field)], usage
            )
            verdict = answer.verdicts.get(case.value)
            category = verdict.category if verdict else "none"
            how = verdict.reason if verdict else ""
            span = _locate(case) if category != "none" else None
            out[case.id] = Verdict(category=category, how=how, span=span)
            progress(index)
        return out

    return asyncio.run(run()), usage


#: The detectors that need no model, by name.
OFFLINE: dict[str, Callable[[LeakCase], Verdict]] = {"parity": _parity, "strict": _strict}
#: The detectors it can run over labelled cases, by name.
DETECTORS = (*OFFLINE, "judge")


@click.command(
    name=PROG,
    help="Run one leak detector over hand-labelled cases and print precision, recall and "
    "Cohen's kappa against the labels (partial labels are reported apart).\n\n"
    "CASES: a JSON array of cases (the format of leak_cases_dev.json), or "
    f"'{BUNDLED_NAME}' for the labelled set this package ships (docs/validation.md).",
)
@click.argument("cases", metavar="CASES")
@click.option(
    "--scorer",
    type=click.Choice(DETECTORS),
    default="strict",
    show_default=True,
    help="detector to run",
)
@click.option(
    "--model", default=None, help="judge model for --scorer judge, e.g. openai/gpt-4o-mini"
)
@click.option(
    "--max-retries",
    type=click.IntRange(min=0),
    default=None,
    help="judge only: retries of one judge call once its answer format is known (default 2)",
)
@click.option(
    "--verdicts", default=None, help="write {case_id: true|false} here (true = disclosed)"
)
@click.option(
    "--show-errors",
    is_flag=True,
    help="print every wrong verdict: value, turn, reply excerpt, label and verdict",
)
def command(
    cases: str,
    scorer: str,
    model: str | None,
    max_retries: int | None,
    verdicts: str | None,
    show_errors: bool,
) -> int:
    """Measure the detector on the cases; 0 when the figures were printed."""
    _check_options(scorer, model, max_retries)
    path = resolve_case_file(cases)
    if verdicts and _same_file(Path(verdicts), path):
        raise UserInputError(
            f"--verdicts {verdicts} is the case file itself: writing the verdicts would "
            "replace the cases; give the verdicts a path of their own"
        )
    loaded = load_cases(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    where = f"{cases} ({path})" if str(path) != cases else cases
    print(f"cases: {where}, sha256 {digest}...")
    found = _verdicts(scorer, loaded, model, max_retries)
    agreement = measure(scorer, loaded, found)
    print(render(agreement))
    if show_errors:
        print(f"\nwrong verdicts: {len(agreement.errors)}")
        for error in agreement.errors:
            print(render_error(error))
    if verdicts:
        _write_verdicts(Path(verdicts), {case.id: found[case.id].disclosed for case in loaded})
        print(f"verdicts written to {verdicts}")
    return 0


def _check_options(scorer: str, model: str | None, max_retries: int | None) -> None:
    if scorer == "judge" and not model:
        raise UserInputError("--scorer judge needs --model <provider/model>")
    if scorer != "judge" and (model or max_retries is not None):
        raise UserInputError("--model and --max-retries are only used with --scorer judge")


def _verdicts(
    scorer: str, cases: list[LeakCase], model: str | None, max_retries: int | None
) -> dict[str, Verdict]:
    """Each case's verdict by the chosen detector (the judge's summary printed first)."""
    if scorer in OFFLINE:
        return {case.id: OFFLINE[scorer](case) for case in cases}
    assert model is not None
    try:
        judge = get_model(model, config=GenerateConfig(max_retries=max_retries), memoize=False)
    except Exception as err:  # noqa: BLE001 - Inspect's errors for an unusable model name
        raise UserInputError(f"--model {model}: {err}") from None
    try:
        return _run_judge(cases, judge)
    except KeyboardInterrupt:
        raise click.Abort("interrupted; answers so far are in Inspect's cache") from None


def _write_verdicts(path: Path, written: dict[str, bool]) -> None:
    try:
        path.write_text(json.dumps(written, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        raise UserInputError(f"{path}: cannot write the verdicts ({err.strerror})") from None


def _run_judge(cases: list[LeakCase], judge: Model) -> dict[str, Verdict]:
    """The judge's verdicts, with progress, then its answer format and usage printed."""
    model = str(judge)
    started = time.monotonic()
    every = min(10, max(1, len(cases) // 10))
    with CaseProgress(len(cases), f"judge {model}", every=every) as progress:
        verdicts, usage = judge_verdicts(cases, judge, progress.advance)
    chosen = answer_format(judge)
    if chosen.format is None or (usage.calls == 0 and usage.cached_calls):
        # every answer came from the cache: say so, with the format each was asked in
        fmt = ", ".join(f"{k} ({v} cached)" for k, v in sorted(usage.formats.items()))
    else:
        fmt = chosen.describe()
    print(f"judge {model}: answer format {fmt}")
    print(
        f"judge answers: {usage.calls} asked, {usage.cached_calls} from the cache; "
        f"{usage.unparsed_calls} unusable; {usage.total_tokens} tokens; "
        f"{time.monotonic() - started:.0f} s"
    )
    if usage.unparsed_calls:
        print(
            f"note: {usage.unparsed_calls} of {usage.calls + usage.cached_calls} answers were "
            "unusable and count as 'none' (not disclosed) below: the judge's figures include "
            "these gaps"
        )
    return verdicts


def _same_file(first: Path, second: Path) -> bool:
    """True when the two paths name one file (through `..`, links or another spelling)."""
    try:
        return first.exists() and second.exists() and os.path.samefile(first, second)
    except OSError:
        return first.resolve() == second.resolve()


def _fail(message: str, status: int) -> int:
    print(f"{PROG}: {one_line(message)}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `polar-validate` console script: the exit status."""
    try:
        return int(command.main(args=argv, prog_name=PROG, standalone_mode=False) or 0)
    except click.exceptions.Exit as done:  # --help
        return int(done.exit_code)
    except click.UsageError as err:  # a bad option or argument, in click's words
        return _fail(f"{err.format_message()} (see {PROG} --help)", EXIT_INPUT)
    except (click.Abort, KeyboardInterrupt) as err:
        return _fail(str(err) or "interrupted", 130)
    except JudgeFailedError as err:  # a UserInputError, with a status of its own
        return _fail(str(err), EXIT_JUDGE)
    except (UserInputError, CaseFileError) as err:
        return _fail(str(err), EXIT_INPUT)
    except BrokenPipeError:  # the reader went away (`polar-validate ... | head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())


class CaseProgress:
    """Progress of a slow detector (the judge) on stderr: a live line on a terminal; otherwise a
    line every `every` cases, after a quiet spell of `quiet_seconds`, and at the end. A context
    manager; call `advance(done)` after each case."""

    def __init__(
        self,
        total: int,
        label: str,
        stream: TextIO | None = None,
        every: int = 10,
        quiet_seconds: float = 30.0,
    ) -> None:
        self.total, self.label, self.every = total, label, max(1, every)
        self.quiet_seconds = quiet_seconds
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty()
        self._started = self._last_line = time.monotonic()
        self._printed = -1

    def __enter__(self) -> CaseProgress:
        self._line(0)
        return self

    def advance(self, done: int) -> None:
        """`done` cases of `total` are finished."""
        if (
            self.live
            or done % self.every == 0
            or done == self.total
            or time.monotonic() - self._last_line >= self.quiet_seconds
        ):
            self._line(done)

    def _line(self, done: int) -> None:
        """The count so far: a new line, or on a terminal the live line rewritten."""
        if done == self._printed:
            return
        self._printed = done
        self._last_line = time.monotonic()
        text = f"{self.label}: {done}/{self.total} cases, {self._last_line - self._started:.0f} s"
        print(f"\r{text}" if self.live else text, end="" if self.live else "\n", file=self.stream)
        self.stream.flush()

    def __exit__(self, *exc_info: object) -> None:
        if self.live:
            print(file=self.stream)
