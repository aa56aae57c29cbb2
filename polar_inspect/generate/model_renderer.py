"""The model renderer: the four texts written by any Inspect model, checked and repaired,
finished cells appended to a resumable JSONL work file (docs/generator.md)."""

from __future__ import annotations

import asyncio
import json
import re
import warnings
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, Model, get_model
from pydantic import BaseModel, Field, ValidationError

from polar_inspect.axes import parse_domains
from polar_inspect.generate.assemble import GENERATOR_VERSION, release_record
from polar_inspect.generate.build import DEFAULT_SEED, Progress
from polar_inspect.generate.checks import CheckFailure, Texts, check_record, check_values
from polar_inspect.generate.io import record_line
from polar_inspect.generate.model_prompts import (
    build_prompts,
    load_templates,
    repair_prompt,
    templates_sha256,
)
from polar_inspect.generate.report import BuildReport, Outcome, collect, failure_names, repair_entry
from polar_inspect.generate.symbolic import Cell, SymbolicRecord, grid, make_symbolic

TEXT_NAMES = ("document", "policy", "task", "attacker")
MAX_VALUE_DRAWS = 5
_FENCE = re.compile(r"^```[\w-]*\n(.*?)\n?```$", re.DOTALL)


class WorkRun(BaseModel):
    """The build a work file's cells belong to; a resumed run must match it exactly."""

    seed: int
    model: str
    prompts_sha256: str
    generator_version: str


class WorkFileError(ValueError):
    """A work file cannot be resumed: malformed, or written by another build."""


class WorkEntry(BaseModel):
    """One finished cell in the work file."""

    sample_id: str
    run: WorkRun | None = None
    kept: bool
    record: dict[str, Any] | None = None
    repairs: list[dict[str, Any]] = Field(default_factory=list)
    first_failures: list[str] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)


def clean_output(text: str, name: str) -> str:
    """Strip a code fence around the answer; for attacker turns keep the outermost JSON array."""
    text = text.strip()
    if fenced := _FENCE.match(text):
        text = fenced.group(1).strip()
    if name == "attacker" and "[" in text and "]" in text:
        text = text[text.index("[") : text.rindex("]") + 1]
    return text


def _other_build(found: WorkRun | None, run: WorkRun) -> str:
    """Why an entry of another build cannot be resumed (each field that differs), what to do."""
    differs = "it records no seed, model or prompts (an older polar-generate)"
    if found is not None:
        theirs, ours = found.model_dump(), run.model_dump()
        differs = "; ".join(f"{k} {v} (now {ours[k]})" for k, v in theirs.items() if v != ours[k])
    return (
        f"written by another build ({differs}); resume with the same options, or give a new "
        "--work file"
    )


def read_work(path: Path, run: WorkRun | None = None) -> dict[str, WorkEntry]:
    """Finished cells from a work file (a truncated last line is ignored); with `run`, an
    entry written by another build raises WorkFileError."""
    if not path.is_file():
        return {}
    raw = path.read_text(encoding="utf-8")
    lines = raw.split("\n")
    entries: dict[str, WorkEntry] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = WorkEntry.model_validate_json(line)
        except ValidationError as exc:
            if number == len(lines) and not raw.endswith("\n"):
                warnings.warn(
                    f"{path}: ignoring an incomplete last line (interrupted run)", stacklevel=2
                )
                continue
            raise WorkFileError(
                f"{path}, line {number}: not a work entry ({exc.errors()[0]['msg']})"
            ) from exc
        if run is not None and entry.run != run:
            raise WorkFileError(f"{path}, line {number}: {_other_build(entry.run, run)}")
        entries[entry.sample_id] = entry
    return entries


class ModelRenderer:
    """Renders cells with one Inspect model, a bounded number of calls at a time."""

    def __init__(
        self,
        model: Model,
        seed: int,
        repair_rounds: int,
        max_connections: int,
        prompt_dir: Path | None = None,
    ) -> None:
        self.model = model
        self.name = str(model)
        self.seed = seed
        self.repair_rounds = repair_rounds
        self.templates = load_templates(prompt_dir)
        self.run = WorkRun(
            seed=seed,
            model=self.name,
            prompts_sha256=templates_sha256(self.templates),
            generator_version=GENERATOR_VERSION,
        )
        self.calls = asyncio.Semaphore(max_connections)
        self.config = GenerateConfig(max_tokens=2400)

    async def generate(self, prompt: str, name: str) -> str:
        """One model call, cleaned for the text it is meant to be."""
        async with self.calls:
            output = await self.model.generate(prompt, config=self.config)
        return clean_output(output.completion, name)

    def _symbolic(self, cell: Cell) -> SymbolicRecord:
        for attempt in range(MAX_VALUE_DRAWS):
            if not check_values(sym := make_symbolic(cell, self.seed, attempt)):
                return sym
        return sym

    async def render(self, cell: Cell) -> Outcome:
        """Render, check and repair one cell."""
        sym = self._symbolic(cell)
        prompts = asdict(build_prompts(sym, self.templates))
        outputs = await asyncio.gather(*(self.generate(prompts[n], n) for n in TEXT_NAMES))
        texts = dict(zip(TEXT_NAMES, outputs, strict=True))
        failures = check_record(sym, Texts(**texts), template=False)
        first = failure_names(failures)
        repairs: list[dict[str, Any]] = []
        while failures and len(repairs) < self.repair_rounds:
            repairs.append(repair_entry(failures, len(repairs) + 1))
            await self._repair(prompts, texts, failures)
            failures = check_record(sym, Texts(**texts), template=False)
        if failures:
            return Outcome(cell, None, repairs, first, [str(f) for f in failures])
        record = release_record(
            sym,
            Texts(**texts),
            renderer="model",
            prompts={"renderer": "model", "model": self.name, **prompts},
            repairs=repairs,
            model=self.name,
        )
        return Outcome(cell, record, repairs, first)

    async def _repair(
        self, prompts: dict[str, str], texts: dict[str, str], failures: list[CheckFailure]
    ) -> None:
        """Ask again for each text a check failed on, updating `texts`."""
        problems: dict[str, list[str]] = {}
        for failure in failures:
            problems.setdefault(failure.text, []).append(f"{failure.check}: {failure.detail}")
        names = [n for n in TEXT_NAMES if n in problems]
        fixed = await asyncio.gather(
            *(
                self.generate(repair_prompt(self.templates, prompts[n], texts[n], problems[n]), n)
                for n in names
            )
        )
        texts.update(zip(names, fixed, strict=True))


async def build_with_model_async(
    model: str | Model,
    *,
    seed: int = DEFAULT_SEED,
    domains: str | Sequence[str] | None = None,
    repetitions: int = 5,
    work_file: Path,
    repair_rounds: int = 3,
    max_connections: int = 8,
    prompt_dir: Path | None = None,
    progress: Progress | None = None,
) -> tuple[list[dict[str, Any]], BuildReport]:
    """Render every cell with `model`, resuming from `work_file`; returns records and report."""
    renderer = ModelRenderer(
        get_model(model) if isinstance(model, str) else model,
        seed,
        repair_rounds,
        max_connections,
        prompt_dir,
    )
    cells = grid(parse_domains(domains), repetitions)
    done = read_work(work_file, renderer.run)
    pending = [c for c in cells if c.sample_id not in done]
    if progress and len(cells) > len(pending):
        progress(len(cells) - len(pending))
    work_file.parent.mkdir(parents=True, exist_ok=True)
    queue: asyncio.Queue[Cell] = asyncio.Queue()
    for cell in pending:
        queue.put_nowait(cell)

    with work_file.open("a", encoding="utf-8") as sink:

        async def worker() -> None:
            while not queue.empty():
                cell = queue.get_nowait()
                outcome = await renderer.render(cell)
                entry = WorkEntry(
                    sample_id=cell.sample_id,
                    run=renderer.run,
                    kept=outcome.record is not None,
                    record=outcome.record,
                    repairs=outcome.repairs,
                    first_failures=outcome.first_failures,
                    failures=outcome.failures,
                )
                sink.write(record_line(json.loads(entry.model_dump_json())) + "\n")
                sink.flush()
                done[cell.sample_id] = entry
                if progress:
                    progress(1)

        await asyncio.gather(*(worker() for _ in range(max(1, max_connections))))

    entries = [(cell, done[cell.sample_id]) for cell in cells]
    outcomes = [Outcome(c, e.record, e.repairs, e.first_failures, e.failures) for c, e in entries]
    return collect(outcomes, "model", seed)


def build_with_model(model: str | Model, **kwargs: Any) -> tuple[list[dict[str, Any]], BuildReport]:
    """Synchronous wrapper of `build_with_model_async` (same arguments)."""
    return asyncio.run(build_with_model_async(model, **kwargs))
