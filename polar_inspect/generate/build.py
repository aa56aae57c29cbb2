"""Build a dataset with the template renderer; every cell is seeded from (seed, cell), so the
output does not depend on the number of worker processes."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from polar_inspect.axes import parse_domains
from polar_inspect.generate.assemble import release_record
from polar_inspect.generate.checks import CheckFailure, Texts, check_record
from polar_inspect.generate.render.attacker import render_attacker
from polar_inspect.generate.render.layouts import render_document
from polar_inspect.generate.render.policy import render_policy, render_task
from polar_inspect.generate.report import BuildReport, Outcome, collect, failure_names, repair_entry
from polar_inspect.generate.symbolic import Cell, SymbolicRecord, grid, make_symbolic

DEFAULT_SEED = 260519127
#: Repair rounds after the first rendering; what still fails then is dropped.
MAX_REPAIR_ROUNDS = 4
RENDERERS: dict[str, Callable[[SymbolicRecord, int], tuple[str, str]]] = {
    "document": render_document,
    "policy": render_policy,
    "task": render_task,
    "attacker": render_attacker,
}
Progress = Callable[[int], None]


def _render(sym: SymbolicRecord, attempts: dict[str, int]) -> tuple[Texts, dict[str, str]]:
    rendered = {name: RENDERERS[name](sym, attempts[name]) for name in RENDERERS}
    texts = Texts(**{name: text for name, (text, _) in rendered.items()})
    return texts, {name: template for name, (_, template) in rendered.items()}


def build_cell(cell: Cell, seed: int, document_offset: int = 0) -> Outcome:
    """Render and check one cell, repairing failed texts (or values) for a few rounds."""
    value_attempt = 0
    attempts = {name: 0 for name in RENDERERS} | {"document": document_offset}
    sym = make_symbolic(cell, seed, value_attempt)
    texts, templates = _render(sym, attempts)
    failures = check_record(sym, texts, template=True)
    first = failure_names(failures)
    repairs: list[dict[str, Any]] = []
    while failures and len(repairs) < MAX_REPAIR_ROUNDS:
        # a failed value check draws new values and renders every text again
        repairs.append(repair_entry(failures, len(repairs) + 1))
        redo = repairs[-1]["redo"]
        if "values" in redo:
            value_attempt += 1
            sym = make_symbolic(cell, seed, value_attempt)
        for name in list(RENDERERS) if "values" in redo else redo:
            attempts[name] += 1
        texts, templates = _render(sym, attempts)
        failures = check_record(sym, texts, template=True)
    if failures:
        return Outcome(cell, None, repairs, first, [str(f) for f in failures])
    prompts = {"renderer": "template", **templates, "attempts": dict(attempts)}
    record = release_record(sym, texts, renderer="template", prompts=prompts, repairs=repairs)
    return Outcome(cell, record, repairs, first)


def _build_chunk(args: tuple[list[Cell], int]) -> list[Outcome]:
    cells, seed = args
    return [build_cell(cell, seed) for cell in cells]


def build_outcomes(
    cells: Sequence[Cell], seed: int, workers: int = 1, progress: Progress | None = None
) -> list[Outcome]:
    """Build every cell, in grid order; `progress` is called with the number of cells done."""
    jobs = [(list(cells[i : i + 25]), seed) for i in range(0, len(cells), 25)]
    if workers <= 1 or len(jobs) <= 1:
        return _gather(map(_build_chunk, jobs), progress)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return _gather(pool.map(_build_chunk, jobs), progress)


def _gather(results: Iterable[list[Outcome]], progress: Progress | None) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for result in results:
        outcomes += result
        if progress:
            progress(len(result))
    return outcomes


def _deduplicate(outcomes: list[Outcome], seed: int) -> None:
    """Re-render any document that repeats an earlier one (practically never needed)."""
    seen: set[str] = set()
    for index, outcome in enumerate(outcomes):
        offset = 0
        while outcome.record is not None:
            text = outcome.record["generated_texts"]["source_document_text"]
            if (digest := hashlib.sha256(text.encode("utf-8")).hexdigest()) not in seen:
                seen.add(digest)
                break
            offset += 100
            outcome = build_cell(outcome.cell, seed, document_offset=offset)
            duplicate = CheckFailure("document", "duplicate", "same text as another")
            outcome.repairs.append(repair_entry([duplicate], 0))
            outcomes[index] = outcome


def default_workers() -> int:
    """Worker processes to use: the machine's cores, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def build_dataset(
    seed: int = DEFAULT_SEED,
    domains: str | Sequence[str] | None = None,
    repetitions: int = 5,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    validate: bool = True,
) -> tuple[list[dict[str, Any]], BuildReport]:
    """Build records with the template renderer; returns the kept records and the report."""
    cells = grid(parse_domains(domains), repetitions)
    outcomes = build_outcomes(cells, seed, workers or default_workers(), progress)
    _deduplicate(outcomes, seed)
    return collect(outcomes, "template", seed, validate)
