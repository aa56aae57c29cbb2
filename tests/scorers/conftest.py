"""Fixtures shared by the scorer tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import make_record


@pytest.fixture
def small_file(write_records) -> Path:  # noqa: ANN001
    """Four records, one per scripted attack strategy S1..S4."""
    records = [make_record(i, attack=a) for i, a in enumerate(("S1", "S2", "S3", "S4"))]
    return write_records(records, "small.json")
