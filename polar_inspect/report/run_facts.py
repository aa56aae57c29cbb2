"""Two facts of a run's header: where its samples came from (`DataInfo`) and which samples it
scored (`SampleSet`, read from the log's header by `sample_set`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from inspect_ai.log import EvalLog
from pydantic import BaseModel


class DataInfo(BaseModel):
    """Where a log's samples came from (the task's `data_source` metadata)."""

    kind: str
    path: str
    sha256: str
    revision: str | None = None

    def describe(self, full_path: bool = False) -> str:
        """Kind, revision or file name (the whole path if asked), and a short checksum."""
        where = f"rev {self.revision[:7]}" if self.revision else Path(self.path).name
        if self.kind == "path" and full_path:
            where = self.path
        return f"{self.kind} ({where}, sha256 {self.sha256[:10]})"


class SampleSet(BaseModel):
    """Which samples a run scored: runs are comparable only over the same ids and epochs."""

    count: int | None  # samples run (None: the log does not list its sample ids)
    epochs: int
    ids_sha256: str | None  # sha256 of the sorted sample ids, one per line
    limit: int | list[int] | None = None  # `--limit` of the run
    sample_id: list[str] | None = None  # `--sample-id` of the run

    def key(self) -> str:
        """What must be equal for two runs to be ranked together."""
        if self.ids_sha256 is not None:
            return f"{self.ids_sha256}x{self.epochs}"
        return json.dumps(["unlisted", self.limit, self.sample_id, self.epochs])

    def describe(self) -> str:
        """E.g. `600 samples x 1 epoch (ids sha256 0a1b2c3d4e), run with --limit 600`."""
        size = f"{self.count} samples" if self.count is not None else "samples not listed"
        plural = "epoch" if self.epochs == 1 else "epochs"
        ids = f" (ids sha256 {self.ids_sha256[:10]})" if self.ids_sha256 else ""
        options = []
        if self.limit is not None:
            limit = self.limit if isinstance(self.limit, int) else "-".join(map(str, self.limit))
            options.append(f"--limit {limit}")
        if self.sample_id:
            shown = ",".join(self.sample_id[:3]) + (",..." if len(self.sample_id) > 3 else "")
            options.append(f"--sample-id {shown} ({len(self.sample_id)} ids)")
        how = f", run with {' '.join(options)}" if options else ", every selected sample"
        return f"{size} x {self.epochs} {plural}{ids}{how}"


def sample_set(log: EvalLog) -> SampleSet:
    """The run's sample set, from the header: the ids Inspect ran (after --limit/--sample-id)."""
    ids = log.eval.dataset.sample_ids
    config = log.eval.config
    digest = None
    if ids is not None:
        listing = "\n".join(sorted(str(i) for i in ids))
        digest = hashlib.sha256(listing.encode("utf-8")).hexdigest()
    limit = list(config.limit) if isinstance(config.limit, tuple | list) else config.limit
    chosen = config.sample_id
    if chosen is not None and not isinstance(chosen, list):
        chosen = [chosen]
    return SampleSet(
        count=len(ids) if ids is not None else None,
        epochs=config.epochs or 1,
        ids_sha256=digest,
        limit=limit,
        sample_id=[str(c) for c in chosen] if chosen is not None else None,
    )
