"""Agreement of a detector's verdicts with the human labels: precision, recall, kappa; a figure
with no cases to stand on is undefined (`None`), never a perfect 1.0."""

from __future__ import annotations

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
        n = self.cases
        if not n:
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
