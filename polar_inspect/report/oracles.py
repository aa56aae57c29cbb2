"""Which runs read the scorer's targets, marked `[ORACLE]` (docs/report/README.md#oracle-runs)."""

from __future__ import annotations

from collections.abc import Sequence

from polar_inspect.agents import oracle_agent_reasons
from polar_inspect.report.inventory import ORACLE_TAG, RunHeader
from polar_inspect.report.usage import TRUSTED_ROLE

MARK = f"[{ORACLE_TAG}]"


def oracle_reasons(run: RunHeader) -> list[str]:
    """Why `run` reads the scorer's targets, one line per cause (empty: it does not)."""
    reasons = []
    if run.defense_oracle:
        reasons.append(f"defense {run.defense} reads the scorer's targets")
    roles = [(TRUSTED_ROLE, run.model)] + [(u.role, u.model) for u in run.usage]
    return reasons + oracle_agent_reasons(roles)


def agent_is_oracle(run: RunHeader) -> bool:
    """True when the trusted agent itself (not its defense stack) reads the scorer's targets."""
    return bool(oracle_agent_reasons([(TRUSTED_ROLE, run.model)]))


def defense_is_oracle(run: RunHeader) -> bool:
    """True when the defense stack reads the targets (an oracle defense, or role agent)."""
    roles = [(u.role, u.model) for u in run.usage if u.role != TRUSTED_ROLE]
    return run.defense_oracle or bool(oracle_agent_reasons(roles))


def is_oracle(run: RunHeader) -> bool:
    """True when the run reads the scorer's targets (see `oracle_reasons`)."""
    return bool(oracle_reasons(run))


def oracle_label(run: RunHeader) -> str:
    """The run's label with `[ORACLE]` at its end when it is an oracle (never twice)."""
    return f"{run.label} {MARK}" if is_oracle(run) and MARK not in run.label else run.label


def marked_name(run: RunHeader, name: str) -> str:
    """`name` (a shorter name of `run`) with `[ORACLE]` when the run's label carries it."""
    return f"{name} {MARK}" if MARK in run.label and MARK not in name else name


def mark_oracles(runs: Sequence[RunHeader]) -> list[RunHeader]:
    """The runs with every oracle's label marked `[ORACLE]`."""
    return [run.model_copy(update={"label": oracle_label(run)}) for run in runs]
