"""The checks report of a build: what passed, failed, was repaired or dropped, per domain."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field
from rich.table import Table

from polar_inspect.data.records import PolarRecord
from polar_inspect.generate.assemble import GENERATOR_VERSION
from polar_inspect.generate.checks import CheckFailure
from polar_inspect.generate.symbolic import Cell


@dataclass
class Outcome:
    """What building one grid cell produced (`record` None: dropped); `first_failures` are the
    `text/check` names of the first round, `failures` what still failed when dropped."""

    cell: Cell
    record: dict[str, Any] | None
    repairs: list[dict[str, Any]] = field(default_factory=list)
    first_failures: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def failure_names(failures: Sequence[CheckFailure]) -> list[str]:
    """The distinct `text/check` names of a round's failures, in order."""
    return list(dict.fromkeys(f"{f.text}/{f.check}" for f in failures))


def repair_entry(failures: Sequence[CheckFailure], number: int) -> dict[str, Any]:
    """A repair round's record: the texts redone (sorted) and every failure."""
    redo = sorted({f.text for f in failures})
    return {"round": number, "redo": redo, "failed": [str(f) for f in failures]}


class DomainCounts(BaseModel):
    """Per-domain tallies."""

    planned: int = 0
    passed: int = 0
    repaired: int = 0
    dropped: int = 0

    @property
    def failed(self) -> int:
        """Records that failed at least one check in the first round."""
        return self.repaired + self.dropped

    @property
    def kept(self) -> int:
        """Records written."""
        return self.passed + self.repaired


class DroppedRecord(BaseModel):
    """A cell that still failed after every repair round."""

    sample_id: str
    failures: list[str]


class BuildReport(BaseModel):
    """The checks report of one build."""

    renderer: str
    seed: int
    generator_version: str
    domains: dict[str, DomainCounts] = Field(default_factory=dict)
    failed_checks: dict[str, int] = Field(default_factory=dict)
    dropped: list[DroppedRecord] = Field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        """Count one cell's outcome."""
        counts = self.domains.setdefault(outcome.cell.domain, DomainCounts())
        counts.planned += 1
        if outcome.record is None:
            counts.dropped += 1
            self.dropped.append(
                DroppedRecord(sample_id=outcome.cell.sample_id, failures=outcome.failures)
            )
        elif outcome.repairs:
            counts.repaired += 1
        else:
            counts.passed += 1
        tally = Counter(self.failed_checks)
        tally.update(dict.fromkeys(outcome.first_failures, 1))
        self.failed_checks = dict(sorted(tally.items()))

    @property
    def total(self) -> DomainCounts:
        """Counts over all domains."""
        names = DomainCounts.model_fields
        return DomainCounts(**{n: sum(getattr(c, n) for c in self.domains.values()) for n in names})

    def table(self) -> Table:
        """A rich table: one row per domain and a total row."""
        table = Table(title=f"Checks ({self.renderer} renderer, seed {self.seed})")
        for name in ("domain", "planned", "passed", "failed", "repaired", "dropped", "kept"):
            table.add_column(name, justify="left" if name == "domain" else "right")
        for name, c in [*self.domains.items(), ("total", self.total)]:
            table.add_row(
                name,
                *(str(v) for v in (c.planned, c.passed, c.failed, c.repaired, c.dropped, c.kept)),
            )
        return table

    def summary_lines(self) -> list[str]:
        """Which checks failed in the first round, and what was dropped."""
        lines = [f"first-round failures by check: {self.failed_checks or 'none'}"]
        lines += [f"dropped {d.sample_id}: {'; '.join(d.failures)}" for d in self.dropped]
        return lines


def collect(
    outcomes: list[Outcome], renderer: str, seed: int, validate: bool = True
) -> tuple[list[dict[str, Any]], BuildReport]:
    """The kept records (validated with `PolarRecord` when `validate`) and the build's report."""
    report = BuildReport(renderer=renderer, seed=seed, generator_version=GENERATOR_VERSION)
    records = []
    for outcome in outcomes:
        report.add(outcome)
        if outcome.record is not None:
            if validate:
                PolarRecord.model_validate(outcome.record)
            records.append(outcome.record)
    return records, report
