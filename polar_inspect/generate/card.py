"""A dataset's card: the file it describes, its seed, counts, sha256s and rebuild command."""

from __future__ import annotations

import json
import shlex
import statistics
import textwrap
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from faker import VERSION as FAKER_VERSION
from pydantic import BaseModel

from polar_inspect.axes import (
    ATTACK_LABELS,
    ATTACK_TYPES,
    DOMAINS,
    POLICY_LABELS,
    POLICY_TYPES,
    attack_code,
    policy_code,
)
from polar_inspect.generate.assemble import GENERATOR_NAME, GENERATOR_VERSION
from polar_inspect.generate.build import MAX_REPAIR_ROUNDS
from polar_inspect.generate.domains import domain_spec
from polar_inspect.generate.io import output_format, sha256
from polar_inspect.generate.outputs import BUNDLED_CARD_ARG, BUNDLED_DATASET_ARG
from polar_inspect.generate.publish.licence import licence_statement
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
    if name == "attacker":
        return sum(words(turn) for turn in json.loads(text))
    return words(text)


def length_table(records: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown rows: mean, median, min, max per text field against the paper's mean."""
    if not records:
        return ["No record was kept, so there are no lengths to show."]
    rows = ["| text | mean | median | min | max | paper mean |", "|---|---:|---:|---:|---:|---:|"]
    for name, paper in PAPER_MEANS.items():
        counts = [text_words(r, name) for r in records]
        rows.append(
            f"| {name} | {statistics.fmean(counts):.1f} | {statistics.median(counts):g} | "
            f"{min(counts)} | {max(counts)} | {paper} |"
        )
    return rows


def _code(record: dict[str, Any], key: str) -> str:
    """The metadata value as the card shows it: levels as `P1`..`P5` / `S1`..`S5`."""
    value = record["metadata"][key]
    if key == "privacy_level":
        return policy_code(value) or str(value)
    if key == "attack_strength":
        return attack_code(value) or str(value)
    return value


def _cell(record: dict[str, Any]) -> tuple[str, str]:
    """The record's (policy code, attack code)."""
    return _code(record, "privacy_level"), _code(record, "attack_strength")


def count_tables(records: Sequence[dict[str, Any]], subject: CardSubject) -> list[str]:
    """Markdown: samples per domain and cell, per policy, per attack, and policy x attack."""
    return _domain_counts(records, subject) + _axis_counts(records)


def _domain_counts(records: Sequence[dict[str, Any]], subject: CardSubject) -> list[str]:
    """Samples per domain and per cell against the plan, and the cells short of it."""
    lines = [
        "A cell is one domain x policy level x attack strategy; it holds one sample per",
        "document form and repetition.",
        "",
        "| domain | samples | document forms | samples per cell | planned per cell |",
        "|---|---:|---:|---:|---:|",
    ]
    forms: dict[str, set[str]] = {}
    for r in records:
        forms.setdefault(r["domain"], set()).add(r["metadata"]["document_form"])
    cells = Counter((r["domain"], *_cell(r)) for r in records)
    short: list[str] = []
    tally = Counter(r["domain"] for r in records)
    for domain in subject.domains:
        planned = len(domain_spec(domain).forms) * subject.repetitions
        per_cell = {(p, s): cells[(domain, p, s)] for p in POLICY_TYPES for s in ATTACK_TYPES}
        low, high = min(per_cell.values()), max(per_cell.values())
        spread = str(low) if low == high else f"{low}-{high}"
        lines.append(
            f"| {domain} | {tally[domain]} | {len(forms.get(domain, ()))} | {spread} | {planned} |"
        )
        short += [
            f"{domain} {p} x {s} ({n} of {planned})"
            for (p, s), n in per_cell.items()
            if n < planned
        ]
    return [*lines, "", f"Cells short of their plan: {', '.join(short) if short else 'none'}."]


def _axis_counts(records: Sequence[dict[str, Any]]) -> list[str]:
    """Samples per policy, per attack, and the policy x attack matrix."""
    policies = Counter(_code(r, "privacy_level") for r in records)
    attacks = Counter(_code(r, "attack_strength") for r in records)
    lines = ["", "| policy | label | samples |", "|---|---|---:|"]
    lines += [f"| {p} | {POLICY_LABELS[p]} | {policies[p]} |" for p in POLICY_TYPES]
    lines += ["", "| attack | label | samples |", "|---|---|---:|"]
    lines += [f"| {s} | {ATTACK_LABELS[s]} | {attacks[s]} |" for s in ATTACK_TYPES]
    matrix = Counter(_cell(r) for r in records)
    lines += ["", "| policy \\ attack | " + " | ".join(ATTACK_TYPES) + " |"]
    lines.append("|---|" + "---:|" * len(ATTACK_TYPES))
    for p in POLICY_TYPES:
        lines.append(f"| {p} | " + " | ".join(str(matrix[(p, s)]) for s in ATTACK_TYPES) + " |")
    return lines


def checks_table(report: BuildReport) -> list[str]:
    """Markdown: the build's checks report per domain."""
    lines = [
        "| domain | planned | passed | repaired | dropped | kept |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, c in [*report.domains.items(), ("total", report.total)]:
        lines.append(
            f"| {name} | {c.planned} | {c.passed} | {c.repaired} | {c.dropped} | {c.kept} |"
        )
    return lines


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

    @property
    def file_name(self) -> str:
        """The dataset file's name."""
        return Path(self.out).name

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


def provenance_table(
    subject: CardSubject, report: BuildReport, json_bytes: bytes, written: bytes
) -> list[str]:
    """Markdown rows: generator, renderer, seed, selection, Faker, records and the sha256s
    (CI reads the bundled card's `sha256 of the JSON (uncompressed)` row)."""
    if subject.renderer == "model":
        renderer = f"`model` (`{subject.model}`)"
    else:
        renderer = "`template` (templates, no model)"
    rows = [
        "| | |",
        "|---|---|",
        f"| generator | `{GENERATOR_NAME}` {GENERATOR_VERSION} |",
        f"| renderer | {renderer} |",
        f"| seed | {report.seed} |",
    ]
    if not subject.bundled:
        rows += [
            f"| domains | {', '.join(subject.domains)} |",
            f"| repetitions | {subject.repetitions} per cell and document form |",
        ]
    rows += [
        f"| Faker | {FAKER_VERSION} (pinned; the output depends on it) |",
        f"| records | {report.total.kept} |",
        f"| sha256 of the JSON (uncompressed) | `{sha256(json_bytes)}` "
        f"({len(json_bytes):,} bytes) |",
    ]
    if output_format(subject.out) != ".json":
        rows.append(
            f"| sha256 of `{subject.file_name}` | `{sha256(written)}` ({len(written):,} bytes) |"
        )
    return rows


def _paragraph(text: str) -> str:
    """A Markdown paragraph wrapped at the card's width (never inside a word or code span)."""
    return textwrap.fill(text, width=99, break_long_words=False, break_on_hyphens=False)


def _format_note(subject: CardSubject) -> str:
    fmt = output_format(subject.out)
    canonical = (
        "The JSON is an array with one record per line (UTF-8, compact separators, fixed key "
        "order); its sha256 is the dataset's identity on every machine and the one "
        "`--check-sha256` compares."
    )
    if fmt == ".json.gz":
        return canonical + (
            f" `{subject.file_name}` wraps those exact bytes (gzip level 9, mtime 0); its digest "
            "also depends on the zlib build."
        )
    if fmt == ".jsonl":
        return canonical + (
            f" `{subject.file_name}` holds the same records as JSON Lines, one record per line."
        )
    return canonical


def _model_note(subject: CardSubject) -> str:
    if subject.renderer != "model":
        return ""
    note = (
        f"The texts were written by `{subject.model}`. A model does not answer the same way "
        f"twice: the rebuild gives these bytes again only from the complete work file "
        f"`{subject.work}` it resumes from."
    )
    return "\n" + _paragraph(note) + "\n"


def _repairs(subject: CardSubject) -> str:
    if subject.renderer == "model":
        rounds = subject.repair_rounds if subject.repair_rounds is not None else "the default"
        return (
            f"Failed texts were sent back to `{subject.model}` with their problems for up to "
            f"{rounds} repair rounds; what still failed was dropped."
        )
    return (
        f"Failures were re-rendered (or values redrawn) for up to {MAX_REPAIR_ROUNDS} rounds; "
        "what still failed was dropped."
    )


def _template(name: str) -> str:
    return (Path(__file__).parent / "templates" / name).read_text(encoding="utf-8")


def render_card(
    records: Sequence[dict[str, Any]],
    report: BuildReport,
    json_bytes: bytes,
    written: bytes,
    subject: CardSubject,
) -> str:
    """The card's Markdown (deterministic); `written` are the bytes of `subject.out`."""
    json_sha = sha256(json_bytes)
    head = _template("card_bundled.txt" if subject.bundled else "card_dataset.txt").format(
        file_name=subject.file_name,
        records=len(records),
        generator=GENERATOR_NAME,
        version=GENERATOR_VERSION,
        seed=report.seed,
        renderer_text=(
            f"the model `{subject.model}`"
            if subject.renderer == "model"
            else "the offline template renderer"
        ),
        data_arg=shlex.join(["-T", f"data={subject.out}"]),
        provenance="\n".join(provenance_table(subject, report, json_bytes, written)),
        format_note=_paragraph(_format_note(subject)),
        rebuild=subject.rebuild_command(),
        check=subject.check_command(json_sha),
        model_note=_model_note(subject),
    )
    failed = ", ".join(f"{k} ({v})" for k, v in report.failed_checks.items()) or "none"
    body = _template("card_body.txt").format(
        counts="\n".join(count_tables(records, subject)),
        lengths="\n".join(length_table(records)),
        repairs=_paragraph(_repairs(subject)),
        checks="\n".join(checks_table(report)),
        failed_checks=failed,
        licence=licence_statement(),
    )
    return head + body
