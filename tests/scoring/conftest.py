"""Fixtures shared by the scorer tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import make_record


@pytest.fixture
def small_file(write_records) -> Path:  # noqa: ANN001
    """Four records, one per scripted attack strategy S1..S4."""
    records = [make_record(i, attack=a) for i, a in enumerate(("S1", "S2", "S3", "S4"))]
    return write_records(records, "small.json")


@pytest.fixture
def judge_warning_unsent() -> Iterator[None]:
    """The strict scorer's once-per-process "judge bound but not used" warning not yet given."""
    from polar_inspect.scoring import strict_scorer

    strict_scorer._judge_warned = False
    yield
    strict_scorer._judge_warned = False
