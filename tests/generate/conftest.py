"""Fixtures for the generator tests: one small template-rendered build shared by the session."""

from __future__ import annotations

from typing import Any

import pytest

from polar_inspect.generate import DEFAULT_SEED, build_dataset
from polar_inspect.generate.report import BuildReport

SUBSET_DOMAINS = "medical,finance"


@pytest.fixture(scope="session")
def subset_build() -> tuple[list[dict[str, Any]], BuildReport]:
    """One repetition of two domains (175 + 150 records), default seed, one process."""
    return build_dataset(DEFAULT_SEED, SUBSET_DOMAINS, repetitions=1, workers=1)


@pytest.fixture(scope="session")
def subset_records(subset_build: tuple[list[dict[str, Any]], BuildReport]) -> list[dict[str, Any]]:
    """The records of the shared build."""
    return subset_build[0]


@pytest.fixture()
def no_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if `polar-generate` starts a build (for commands that must be refused)."""
    import polar_inspect.generate.cli as cli

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the build started although the command should be refused")

    monkeypatch.setattr(cli, "build_dataset", never)
