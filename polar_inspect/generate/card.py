"""A dataset's card: the file it describes, its seed, counts, sha256s and rebuild command."""

from __future__ import annotations

import json
import shlex
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from faker import VERSION as FAKER_VERSION
from pydantic import BaseModel

from polar_inspect.axes import ATTACK_TYPES, DOMAINS, POLICY_TYPES, attack_code, policy_code
from polar_inspect.generate.assemble import GENERATOR_NAME, GENERATOR_VERSION
from polar_inspect.generate.build import MAX_REPAIR_ROUNDS
from polar_inspect.generate.domains import domain_spec
from polar_inspect.generate.io import output_format, sha256
from polar_inspect.generate.outputs import BUNDLED_CARD_ARG, BUNDLED_DATASET_ARG
from polar_inspect.generate.publish.licence import render_template
from polar_inspect.generate.report import BuildReport
from polar_inspect.generate.symbolic import FULL_REPETITIONS
from polar_inspect.generate.textgen import words

#: The paper's mean word counts per text field (as reported in arXiv 2605.19127).
PAPER_MEANS = {"document": 801, "policy": 84, "task": 20, "attacker": 130}
TEXT_FIELDS = {
    "document": "source_document_text",
    "policy": "privacy_policy_text",
    "task": "task_instruction_text",
    "attacker": "attacker_prompt_text",
}


def text_words(record: dict[str, Any], name: str) -> int:
    """Words of one text field; the attacker text counts the words of its turns."""
    text = record["generated_texts"][TEXT_FIELDS[name]]
    return sum(words(turn) for turn in json.loads(text)) if name == "attacker" else words(text)


def _lengths(records: Sequence[dict[str, Any]]) -> list[tuple[str, list[int], int]]:
    """Per text field: its name, the words of each record and the paper's mean."""
    return [(n, [text_words(r, n) for r in records], p) for n, p in PAPER_MEANS.items()]


def _cell(record: dict[str, Any]) -> tuple[str, str]:
    """The record's (policy code, attack code), as the card shows them: `P1`..`P5`, `S1`..`S5`."""
    level, strength = record["metadata"]["privacy_level"], record["metadata"]["attack_strength"]
    return policy_code(level) or str(level), attack_code(strength) or str(strength)


def count_tables(records: Sequence[dict[str, Any]], subject: CardSubject) -> str:
    """Markdown: samples per domain and per cell against the plan, the cells short of it, and
    samples per policy, per attack and policy x attack."""
    forms: dict[str, set[str]] = {}
    for r in records:
        forms.setdefault(r["domain"], set()).add(r["metadata"]["document_form"])
    codes = [_cell(r) for r in records]
    cells = Counter((r["domain"], *code) for r, code in zip(records, codes, strict=True))
    tally = Counter(r["domain"] for r in records)
    domains, short = [], []
    for domain in subject.domains:
        planned = len(domain_spec(domain).forms) * subject.repetitions
        per_cell = {(p, s): cells[(domain, p, s)] for p in POLICY_TYPES for s in ATTACK_TYPES}
        low, high = min(per_cell.values()), max(per_cell.values())
        spread = str(low) if low == high else f"{low}-{high}"
        domains.append((domain, tally[domain], len(forms.get(domain, ())), spread, planned))
        short += [
            f"{domain} {p} x {s} ({n} of {planned})"
            for (p, s), n in per_cell.items()
            if n < planned
        ]
    return render_template(
        "card_counts.txt",
        domains=domains,
        short=short,
        policies=Counter(p for p, _ in codes),
        attacks=Counter(s for _, s in codes),
        matrix=Counter(codes),
    )


class CardSubject(BaseModel):
    """What a card describes: `--out` and the card as given, and the options that rebuild it."""

    out: str
    card: str
    seed: int
    domains: list[str]
    repetitions: int
    renderer: Literal["template", "model"] = "template"
    model: str | None = None
    work: str | None = None
    prompts: str | None = None
    repair_rounds: int | None = None
    #: The repository's own bundled set is being rebuilt (see `outputs.writes_bundled_set`).
    bundled: bool = False

    def build_args(self) -> list[str]:
        """The options that decide the records (not where they go or how fast)."""
        args = ["--seed", str(self.seed)]
        if self.domains != list(DOMAINS):
            args += ["--domains", ",".join(self.domains)]
        if self.repetitions != FULL_REPETITIONS:
            args += ["--repetitions", str(self.repetitions)]
        if self.renderer == "model":
            args += ["--renderer", "model", "--model", str(self.model), "--work", str(self.work)]
            if self.prompts:
                args += ["--prompts", self.prompts]
            if self.repair_rounds is not None:
                args += ["--repair-rounds", str(self.repair_rounds)]
        return args

    def rebuild_command(self) -> str:
        """The command that writes this file and its card again."""
        out, card = (
            (BUNDLED_DATASET_ARG, BUNDLED_CARD_ARG) if self.bundled else (self.out, self.card)
        )
        return shlex.join(
            ["polar-generate", *self.build_args(), "--out", out, "--card", card, "--overwrite"]
        )

    def check_command(self, json_sha: str) -> str:
        """The command that rebuilds the records and compares their sha256 with `json_sha`."""
        return shlex.join(["polar-generate", *self.build_args(), "--check-sha256", json_sha])


def render_card(
    records: Sequence[dict[str, Any]],
    report: BuildReport,
    json_bytes: bytes,
    written: bytes,
    subject: CardSubject,
) -> str:
    """The card's Markdown (deterministic); `written` are the bytes of `subject.out`."""
    json_sha = sha256(json_bytes)
    values = {
        "subject": subject,
        "file_name": Path(subject.out).name,
        "format": output_format(subject.out),
        "records": len(records),
        "generator": GENERATOR_NAME,
        "version": GENERATOR_VERSION,
        "faker_version": FAKER_VERSION,
        "seed": report.seed,
        "json_sha": json_sha,
        "json_bytes": len(json_bytes),
        "written_sha": sha256(written),
        "written_bytes": len(written),
        "renderer_text": (
            f"the model `{subject.model}`"
            if subject.renderer == "model"
            else "the offline template renderer"
        ),
        "data_arg": shlex.join(["-T", f"data={subject.out}"]),
        "rebuild": subject.rebuild_command(),
        "check": subject.check_command(json_sha),
        "lengths": _lengths(records) if records else [],
        "mean": statistics.fmean,
        "median": statistics.median,
        "max_repair_rounds": MAX_REPAIR_ROUNDS,
        "checks": [*report.domains.items(), ("total", report.total)],
        "failed_checks": [f"{k} ({v})" for k, v in report.failed_checks.items()],
        "counts": count_tables(records, subject),
    }
    head = "card_bundled.txt" if subject.bundled else "card_dataset.txt"
    return render_template(head, **values) + render_template("card_body.txt", **values)
