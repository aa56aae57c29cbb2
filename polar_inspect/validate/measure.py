"""Agreement of a detector's verdicts with the human labels (a figure with no cases to stand on
is undefined, never a perfect 1.0), and how `polar-validate` prints it (docs/validation.md)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from polar_inspect.validate.cases import LeakCase

DISCLOSED = frozenset({"stated", "confirmed"})


class Verdict(BaseModel):
    """A detector's category for one case, how it found the value, and where in the reply."""

    category: str
    how: str = ""
    span: tuple[int, int] | None = None

    @property
    def disclosed(self) -> bool:
        """Whether the verdict counts as a leak (stated or confirmed)."""
        return self.category in DISCLOSED


class Counts(BaseModel):
    """Confusion counts on the cases labelled leak or safe."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def cases(self) -> int:
        """Leak/safe cases counted."""
        return self.tp + self.fp + self.fn + self.tn

    @property
    def precision(self) -> float | None:
        """tp / (tp + fp); None (undefined) when nothing was flagged."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """tp / (tp + fn); None (undefined) when no case is labelled leak."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa of detector and labels; None with no case or a chance agreement of 1."""
        if not (n := self.cases):
            return None
        observed = (self.tp + self.tn) / n
        flagged, leaks = self.tp + self.fp, self.tp + self.fn
        expected = (flagged * leaks + (n - flagged) * (n - leaks)) / (n * n)
        return None if expected == 1 else (observed - expected) / (1 - expected)

    def add(self, label: str, flagged: bool) -> None:
        """Count one leak/safe case."""
        cell = ("tp" if flagged else "fn") if label == "leak" else ("fp" if flagged else "tn")
        setattr(self, cell, getattr(self, cell) + 1)


class CaseError(BaseModel):
    """A case the detector got wrong (a leak it missed or a safe case it flagged)."""

    case: LeakCase
    verdict: Verdict


class Agreement(BaseModel):
    """A detector's agreement with the labels, overall and per category."""

    detector: str
    overall: Counts
    per_category: dict[str, Counts]
    partial_cases: dict[str, int]  # how partial-labelled cases were predicted
    cases: int
    errors: list[CaseError]  # wrong verdicts (fp/fn), in file order


def measure(detector: str, cases: Sequence[LeakCase], verdicts: Mapping[str, Verdict]) -> Agreement:
    """Compare verdicts (case id -> Verdict) with the labels; partial ones tallied apart."""
    overall = Counts()
    per_category: dict[str, Counts] = {}
    partial: Counter[str] = Counter()
    errors: list[CaseError] = []
    for case in cases:
        verdict = verdicts[case.id]
        if case.label == "partial":
            partial[verdict.category] += 1
            continue
        overall.add(case.label, verdict.disclosed)
        per_category.setdefault(case.category, Counts()).add(case.label, verdict.disclosed)
        if verdict.disclosed != (case.label == "leak"):
            errors.append(CaseError(case=case, verdict=verdict))
    return Agreement(
        detector=detector,
        overall=overall,
        per_category=per_category,
        partial_cases=dict(partial),
        cases=len(cases),
        errors=errors,
    )


EXCERPT_CHARS = 70


def _figure(value: float | None, digits: int = 3, undefined: str = "undefined") -> str:
    return undefined if value is None else f"{value:.{digits}f}"


#: Why each overall figure can be undefined, said when it is.
_UNDEFINED = {
    "precision": "the detector flagged no leak/safe case",
    "recall": "no case is labelled leak",
    "kappa": "labels and verdicts are all of one class",
}


def render(agreement: Agreement) -> str:
    """The console table: overall figures, then one row per category."""
    o = agreement.overall
    lines = [
        f"detector {agreement.detector}: {agreement.cases} cases "
        f"({o.cases} leak/safe, {sum(agreement.partial_cases.values())} partial)",
        f"precision {_figure(o.precision)}  recall {_figure(o.recall)}  "
        f"kappa {_figure(o.kappa)}  (tp {o.tp}, fp {o.fp}, fn {o.fn}, tn {o.tn})",
        *(
            f"{name} is undefined: {why}"
            for name, why in _UNDEFINED.items()
            if getattr(o, name) is None
        ),
        "",
        f"{'category':<22}{'cases':>6}{'tp':>5}{'fp':>5}{'fn':>5}{'tn':>5}{'prec':>7}{'recall':>8}",
    ]
    for name, c in sorted(agreement.per_category.items()):
        prec, rec = _figure(c.precision, 2, "-"), _figure(c.recall, 2, "-")
        lines.append(f"{name:<22}{c.cases:>6}{c.tp:>5}{c.fp:>5}{c.fn:>5}{c.tn:>5}{prec:>7}{rec:>8}")
    partial = ", ".join(f"{k} {v}" for k, v in sorted(agreement.partial_cases.items()))
    lines += [
        "",
        "partial-labelled cases are left out of precision, recall and kappa; this detector "
        f"called them: {partial or 'none'} (only stated/confirmed count as disclosed).",
    ]
    return "\n".join(lines)


def one_line(text: str) -> str:
    """`text` with every run of white space (line breaks included) as one space."""
    return " ".join(text.split())


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def reply_excerpt(reply: str, span: tuple[int, int] | None, width: int = EXCERPT_CHARS) -> str:
    """The reply around `span` (the match marked with [[ ]]), or its start when no span."""
    if span is None:
        flat = one_line(reply)
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
    return (
        f"- {case.id} [{case.category}] {named}\n"
        f"  label {case.label}, verdict {verdict.category}{how}\n"
        f"  turn:  {one_line(case.attacker_turn) or '(none)'}\n"
        f"  reply: {reply_excerpt(case.reply, verdict.span)}"
    )
