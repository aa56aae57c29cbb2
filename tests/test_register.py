"""`polar_inspect/eval.yaml` is complete, matches the code, and versions every log."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from polar_inspect.axes import DOMAINS
from polar_inspect.data.sources import OFFICIAL_RELEASE
from polar_inspect.domain_tasks import DOMAIN_TASKS
from polar_inspect.register import EvalMetadata, register_entry
from polar_inspect.tasks import privacy_mini
from tests.helpers import run


@pytest.mark.slow
def test_eval_yaml_lists_every_task_and_the_pinned_release() -> None:
    meta = register_entry()
    assert meta.arxiv == "https://arxiv.org/abs/2605.19127"
    assert meta.title and meta.description and meta.group and meta.contributors
    names = {t.name for t in meta.tasks}
    assert names == {"privacy", "privacy_mini", *(f"privacy_{d}" for d in DOMAINS)}
    assert set(DOMAIN_TASKS) == set(DOMAINS)
    counts = {t.name: t.dataset_samples for t in meta.tasks}
    # the release has 7,852 samples; the domains add up to it
    assert counts["privacy"] == sum(counts[f"privacy_{d}"] for d in DOMAINS) == 7852
    assert counts["privacy_mini"] == len(privacy_mini().dataset)
    [asset] = meta.external_assets
    assert (asset.type, asset.source, asset.state) == (
        "huggingface",
        OFFICIAL_RELEASE.repo_id,
        "pinned",
    )
    # the register's asset has no revision field: the comment names the code's pin
    comment = " ".join((asset.comment or "").split())
    for pinned in (OFFICIAL_RELEASE.filename, OFFICIAL_RELEASE.revision, OFFICIAL_RELEASE.sha256):
        assert pinned in comment


def test_version_follows_n_x_and_reaches_the_log(grid_file: Path, tmp_path: Path) -> None:
    meta = register_entry()
    log = run("polar_inspect/privacy", "polar/oracle", tmp_path / "logs", data=str(grid_file))
    assert log.eval.task_version == meta.comparability_version
    assert log.eval.metadata["full_task_version"] == meta.version
    assert log.eval.metadata["task_interface_version"] == meta.interface_version
    assert meta.version == f"{meta.comparability_version}-{meta.interface_version}"
    with pytest.raises(ValidationError, match="N-X"):
        EvalMetadata.model_validate({**meta.model_dump(), "version": "1.0"})
