"""`polar-validate CASES --scorer parity|strict|judge`: a detector against human labels.

`CASES` is a case file or `bundled` (the labelled set the package ships; see
docs/validation.md). Every user error (a case file that cannot be used, a judge that keeps
failing, a bad option) ends with one line on stderr and a non-zero exit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from inspect_ai.model import Model

from polar_inspect.scorers.llm_judge import JudgeFailedError, JudgeUsage, answer_format
from polar_inspect.validate.cases import (
    BUNDLED_NAME,
    CaseFileError,
    LeakCase,
    load_cases,
    resolve_case_file,
)
from polar_inspect.validate.detectors import (
    DETECTORS,
    judge_model,
    judge_verdicts,
    parity_verdicts,
    strict_verdicts,
)
from polar_inspect.validate.measure import Agreement, CaseError, Verdict, measure
from polar_inspect.validate.progress import CaseProgress

#: Exit statuses: 2 for input the user must fix, 1 for a judge model that failed.
EXIT_INPUT, EXIT_JUDGE = 2, 1
EXCERPT_CHARS = 70


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block), exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print `polar-validate: <message> (see --help)` and exit 2."""
        self.exit(EXIT_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = _OneLineParser(
        prog="polar-validate",
        description="Run one leak detector over hand-labelled cases and print precision, "
        "recall and Cohen's kappa against the labels (partial labels are reported apart).",
    )
    p.add_argument(
        "cases",
        help=f"a JSON array of cases (the format of leak_cases_dev.json), or "
        f"'{BUNDLED_NAME}' for the labelled set this package ships (docs/validation.md)",
    )
    p.add_argument("--scorer", choices=DETECTORS, default="strict", help="detector to run")
    p.add_argument("--model", help="judge model for --scorer judge, e.g. openai/gpt-4o-mini")
    p.add_argument(
        "--max-retries",
        type=int,
        default=None,
        help="judge only: retries of one judge call once its answer format is known (default 2)",
    )
    p.add_argument("--verdicts", help="write {case_id: true|false} here (true = disclosed)")
    p.add_argument(
        "--show-errors",
        action="store_true",
        help="print every wrong verdict: value, turn, reply excerpt, label and verdict",
    )
    return p


def _figure(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"


def _undefined_notes(agreement: Agreement) -> list[str]:
    o = agreement.overall
    notes = []
    if o.precision is None:
        notes.append("precision is undefined: the detector flagged no leak/safe case")
    if o.recall is None:
        notes.append("recall is undefined: no case is labelled leak")
    if o.kappa is None:
        notes.append("kappa is undefined: labels and verdicts are all of one class")
    return notes


def render(agreement: Agreement) -> str:
    """The console table: overall figures, then one row per category."""
    o = agreement.overall
    lines = [
        f"detector {agreement.detector}: {agreement.cases} cases "
        f"({o.cases} leak/safe, {sum(agreement.partial_cases.values())} partial)",
        f"precision {_figure(o.precision)}  recall {_figure(o.recall)}  "
        f"kappa {_figure(o.kappa)}  (tp {o.tp}, fp {o.fp}, fn {o.fn}, tn {o.tn})",
        *_undefined_notes(agreement),
        "",
        f"{'category':<22}{'cases':>6}{'tp':>5}{'fp':>5}{'fn':>5}{'tn':>5}{'prec':>7}{'recall':>8}",
    ]
    for name, c in sorted(agreement.per_category.items()):
        prec = "-" if c.precision is None else f"{c.precision:.2f}"
        rec = "-" if c.recall is None else f"{c.recall:.2f}"
        lines.append(f"{name:<22}{c.cases:>6}{c.tp:>5}{c.fp:>5}{c.fn:>5}{c.tn:>5}{prec:>7}{rec:>8}")
    partial = ", ".join(f"{k} {v}" for k, v in sorted(agreement.partial_cases.items()))
    lines += [
        "",
        "partial-labelled cases are left out of precision, recall and kappa; this detector "
        f"called them: {partial or 'none'} (only stated/confirmed count as disclosed).",
    ]
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def reply_excerpt(reply: str, span: tuple[int, int] | None, width: int = EXCERPT_CHARS) -> str:
    """The reply around `span` (the match marked with [[ ]]), or its start when no span;
    runs of white space (line breaks included) are shown as one space."""
    if span is None:
        flat = _one_line(reply)
        return flat if len(flat) <= 2 * width else flat[: 2 * width] + " ..."
    start, end = span
    before, match, after = reply[max(0, start - width) : start], reply[start:end], reply[end:]
    left = "... " if start > width else ""
    right = " ..." if len(after) > width else ""
    text = f"{_spaced(before)}[[{_spaced(match)}]]{_spaced(after[:width])}"
    return f"{left}{text.strip()}{right}"


def render_error(error: CaseError) -> str:
    """One wrong verdict: case, value and field, the turn, a reply excerpt, label, verdict."""
    case, verdict = error.case, error.verdict
    named = f"{case.field} = {case.value}" if case.field else case.value
    how = f" ({verdict.how})" if verdict.how else ""
    return "\n".join(
        [
            f"- {case.id} [{case.category}] {named}",
            f"  label {case.label}, verdict {verdict.category}{how}",
            f"  turn:  {_one_line(case.attacker_turn) or '(none)'}",
            f"  reply: {reply_excerpt(case.reply, verdict.span)}",
        ]
    )


def _judge_summary(model: str, usage: JudgeUsage, fmt: str, seconds: float) -> list[str]:
    live = usage.calls
    lines = [
        f"judge {model}: answer format {fmt}",
        f"judge answers: {live} asked, {usage.cached_calls} from the cache; "
        f"{usage.unparsed_calls} unusable; {usage.total_tokens} tokens; {seconds:.0f} s",
    ]
    if usage.unparsed_calls:
        lines.append(
            f"note: {usage.unparsed_calls} of {live} answers were unusable and count as "
            "'none' (not disclosed) below: the judge's figures include these gaps"
        )
    return lines


def _run_judge(cases: list[LeakCase], judge: Model) -> tuple[dict[str, Verdict], list[str]]:
    model = str(judge)
    started = time.monotonic()
    every = min(10, max(1, len(cases) // 10))
    with CaseProgress(len(cases), f"judge {model}", every=every) as progress:
        verdicts, usage = judge_verdicts(cases, judge, progress.advance)
    chosen = answer_format(judge)
    if chosen.format is None:  # every answer came from the cache
        fmt = ", ".join(f"{k} ({v} cached)" for k, v in sorted(usage.formats.items()))
    else:
        fmt = chosen.describe()
    return verdicts, _judge_summary(model, usage, fmt, time.monotonic() - started)


def _fail(message: str, status: int) -> int:
    print(f"polar-validate: {_one_line(message)}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `polar-validate` console script."""
    try:
        return _main(argv)
    except BrokenPipeError:  # the reader went away (`polar-validate ... | head`)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _same_file(first: Path, second: Path) -> bool:
    """True when the two paths name one file (through `..`, links or another spelling)."""
    try:
        return first.exists() and second.exists() and os.path.samefile(first, second)
    except OSError:
        return first.resolve() == second.resolve()


def _main(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    if args.scorer == "judge" and not args.model:
        return _fail("--scorer judge needs --model <provider/model>", EXIT_INPUT)
    if args.scorer != "judge" and (args.model or args.max_retries is not None):
        return _fail("--model and --max-retries are only used with --scorer judge", EXIT_INPUT)
    if args.max_retries is not None and args.max_retries < 0:
        return _fail("--max-retries must be 0 or more", EXIT_INPUT)
    path = resolve_case_file(args.cases)
    if args.verdicts and _same_file(Path(args.verdicts), path):
        return _fail(
            f"--verdicts {args.verdicts} is the case file itself: writing the verdicts would "
            "replace the cases; give the verdicts a path of their own",
            EXIT_INPUT,
        )
    try:
        cases = load_cases(path)
    except CaseFileError as err:
        return _fail(str(err), EXIT_INPUT)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    where = f"{args.cases} ({path})" if str(path) != args.cases else args.cases
    print(f"cases: {where}, sha256 {digest}...")
    if args.scorer == "parity":
        verdicts = parity_verdicts(cases)
    elif args.scorer == "strict":
        verdicts = strict_verdicts(cases)
    else:
        try:
            judge = judge_model(args.model, args.max_retries)
        except Exception as err:  # noqa: BLE001 - Inspect's errors for an unusable model name
            return _fail(f"--model {args.model}: {err}", EXIT_INPUT)
        try:
            verdicts, summary = _run_judge(cases, judge)
        except JudgeFailedError as err:
            return _fail(str(err), EXIT_JUDGE)
        except KeyboardInterrupt:
            return _fail("interrupted; answers so far are cached for the next run", 130)
        print("\n".join(summary))
    agreement = measure(args.scorer, cases, verdicts)
    print(render(agreement))
    if args.show_errors:
        print(f"\nwrong verdicts: {len(agreement.errors)}")
        for error in agreement.errors:
            print(render_error(error))
    if args.verdicts:
        written = {case.id: verdicts[case.id].disclosed for case in cases}
        try:
            Path(args.verdicts).write_text(json.dumps(written, indent=1) + "\n", encoding="utf-8")
        except OSError as err:
            return _fail(f"{args.verdicts}: cannot write the verdicts ({err.strerror})", EXIT_INPUT)
        print(f"verdicts written to {args.verdicts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
