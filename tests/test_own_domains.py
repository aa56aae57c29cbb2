"""Records of a domain outside the benchmark's ten run under their own name (issue 8 item 4)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from polar_inspect.axes import DOMAINS, SelectionError, parse_domains
from polar_inspect.data import PolarRecord
from polar_inspect.data.mini import select_mini
from tests.conftest import make_record
from tests.helpers import run

TASK = "polar_inspect/privacy"


@pytest.fixture
def own_domain_file(write_records: Callable[..., Path]) -> Path:
    """One medical record and two of a user's own domain, `hr_Intake`."""
    return write_records(
        [
            make_record(0),
            make_record(1, domain="hr_Intake", policy="P2", attack="S3"),
            make_record(2, domain="hr_Intake", policy="P4", attack="S1"),
        ]
    )


def test_parse_domains_accepts_the_domains_of_the_data() -> None:
    available = {"medical", "hr_Intake", "zoo"}
    assert parse_domains(None, available) == [*DOMAINS, "hr_Intake", "zoo"]
    assert parse_domains("HR_intake,medical", available) == ["hr_Intake", "medical"]
    assert parse_domains(None) == list(DOMAINS)
    with pytest.raises(SelectionError, match="Also in the data: hr_Intake, zoo"):
        parse_domains("astrology", available)
    with pytest.raises(SelectionError, match="Unknown domain 'hr_intake'"):
        parse_domains("hr_intake")  # without the data, only the ten are known


def test_no_record_is_dropped_and_the_domain_is_its_own_group(
    own_domain_file: Path, tmp_path: Path
) -> None:
    log = run(TASK, "polar/oracle", tmp_path / "logs", data=str(own_domain_file))
    assert log.samples is not None and len(log.samples) == 3
    assert {s.metadata["domain"] for s in log.samples} == {"medical", "hr_Intake"}
    assert log.eval.metadata["samples_selected"] == 3
    assert log.eval.metadata["domains"] == ["medical", "hr_Intake"]  # the domains it covers
    privacy = {s.metadata["domain"]: s.scores["polar_scorer"].value["privacy"] for s in log.samples}
    assert privacy == {"hr_Intake": 1.0, "medical": 1.0}


def test_domain_parameter_selects_an_own_domain(own_domain_file: Path, tmp_path: Path) -> None:
    log = run(
        TASK, "polar/oracle", tmp_path / "logs", data=str(own_domain_file), domain="hr_intake"
    )
    assert log.samples is not None
    assert sorted(str(s.id) for s in log.samples) == ["hr_Intake_000001", "hr_Intake_000002"]


def test_an_unknown_domain_names_those_in_the_data(own_domain_file: Path) -> None:
    from polar_inspect.tasks import privacy

    with pytest.raises(SelectionError, match="Also in the data: hr_Intake"):
        privacy(data=str(own_domain_file), domain="astrology")


def test_privacy_mini_keeps_own_domains_after_the_grid(
    own_domain_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from polar_inspect.data import load_records

    records: list[PolarRecord] = load_records(own_domain_file)
    picked = select_mini(records)
    assert "47 of the 50 policy/attack cells of the data's 2 domain(s)" in caplog.text
    assert [r.sample_id for r in picked] == [
        "medical_000000",
        "hr_Intake_000001",
        "hr_Intake_000002",
    ]
