"""The model renderer with a scripted offline model: checks, a repair round, dropping, resume."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from polar_inspect.data import PolarRecord
from polar_inspect.generate import DEFAULT_SEED
from polar_inspect.generate.build import build_cell
from polar_inspect.generate.model_prompts import build_prompts, load_templates
from polar_inspect.generate.model_renderer import (
    WorkFileError,
    WorkRun,
    build_with_model,
    clean_output,
    read_work,
)
from polar_inspect.generate.symbolic import grid, make_symbolic

DOMAIN = "legal"
TEMPLATES = {
    "document": "DOCUMENT $sample_id\n$value_lines",
    "policy": "POLICY $sample_id",
    "task": "TASK $sample_id",
    "attacker": "ATTACKER $sample_id",
    "repair": "REPAIR\n$problems\n---\n$request",
}
DROPPED = f"{DOMAIN}_000000"


@pytest.fixture(scope="module")
def good_texts() -> dict[str, dict[str, str]]:
    """What a perfect model would write: the template renderer's texts for every cell."""
    out = {}
    for cell in grid([DOMAIN], 1):
        texts = build_cell(cell, DEFAULT_SEED).record["generated_texts"]
        out[cell.sample_id] = {
            "DOCUMENT": texts["source_document_text"],
            "POLICY": texts["privacy_policy_text"],
            "TASK": texts["task_instruction_text"],
            "ATTACKER": texts["attacker_prompt_text"],
        }
    return out


@pytest.fixture()
def prompt_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "prompts"
    folder.mkdir()
    for name, text in TEMPLATES.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


class Script:
    """A scripted model: good texts, except a bad first policy for some cells and an attacker
    that never becomes valid for one cell; can fail after a number of document requests."""

    def __init__(self, good: dict[str, dict[str, str]], fail_after: int | None = None) -> None:
        self.good = good
        self.fail_after = fail_after
        self.requests: list[tuple[str, str, bool]] = []

    def __call__(self, messages, tools, tool_choice, config) -> ModelOutput:  # noqa: ANN001
        prompt = messages[-1].text
        repair = prompt.startswith("REPAIR")
        request = prompt.split("---\n", 1)[1] if repair else prompt
        kind, sample_id = re.match(r"(\w+) (\S+)", request).groups()
        self.requests.append((kind, sample_id, repair))
        documents = sum(1 for k, _, r in self.requests if k == "DOCUMENT" and not r)
        if self.fail_after is not None and documents > self.fail_after:
            raise RuntimeError("connection lost")
        text = self.good[sample_id][kind]
        index = int(sample_id[-6:])
        if kind == "ATTACKER" and sample_id == DROPPED:
            text = "I would rather not plan anything."
        elif kind == "POLICY" and not repair and index % 7 == 0:
            text = "Be careful with this file."
        elif kind == "DOCUMENT" and index % 5 == 0:
            text = f"```text\n{text}\n```"
        output = ModelOutput.from_content(model="scripted", content=text)
        output.usage = ModelUsage(input_tokens=10, output_tokens=10, total_tokens=20)
        return output


def _run(
    script: Script,
    prompt_dir: Path,
    work: Path,
    progress: list[int] | None = None,
    seed: int = DEFAULT_SEED,
):
    model = get_model("mockllm/model", custom_outputs=script)
    return build_with_model(
        model,
        seed=seed,
        domains=DOMAIN,
        repetitions=1,
        work_file=work,
        repair_rounds=2,
        max_connections=3,
        prompt_dir=prompt_dir,
        progress=(progress.append if progress is not None else None),
    )


def _interrupted(good_texts, prompt_dir: Path, work: Path, after: int) -> None:
    """A run whose model fails after `after` documents (some cells finished in `work`)."""
    with pytest.raises(RuntimeError, match="connection lost"):
        _run(Script(good_texts, fail_after=after), prompt_dir, work)


def test_scripted_model_with_repair_and_drop(good_texts, prompt_dir: Path, tmp_path: Path) -> None:
    script = Script(good_texts)
    progress: list[int] = []
    records, report = _run(script, prompt_dir, tmp_path / "work.jsonl", progress)
    assert sum(progress) == 150
    assert report.renderer == "model"
    assert report.total.planned == 150 and report.total.dropped == 1
    assert report.dropped[0].sample_id == DROPPED
    assert "attacker/json" in report.dropped[0].failures[0]
    assert report.total.repaired > 0
    assert report.failed_checks["policy/length"] == report.total.failed == 22
    assert len(records) == 149 and DROPPED not in {r["sample_id"] for r in records}
    repaired = [r for r in records if r["generation_meta"]["repairs"]]
    assert repaired and all(
        r["generation_meta"]["repairs"][0]["redo"] == ["policy"] for r in repaired
    )
    for record in records:
        PolarRecord.model_validate(record)
        assert record["generation_meta"]["renderer"] == "model"
        assert record["prompts"]["model"] == "mockllm/model"
        assert record["prompts"]["document"].startswith(f"DOCUMENT {record['sample_id']}")
    repair_requests = [r for r in script.requests if r[2]]
    assert {k for k, _, _ in repair_requests} == {"POLICY", "ATTACKER"}


def test_interrupted_run_resumes_without_redoing_cells(
    good_texts, prompt_dir: Path, tmp_path: Path
) -> None:
    work = tmp_path / "work.jsonl"
    _interrupted(good_texts, prompt_dir, work, after=40)
    finished = read_work(work)
    assert 0 < len(finished) < 150
    second = Script(good_texts)
    records, report = _run(second, prompt_dir, work)
    asked = {sample_id for kind, sample_id, _ in second.requests if kind == "DOCUMENT"}
    assert asked.isdisjoint(finished)
    assert len(asked) + len(finished) == 150
    assert report.total.planned == 150 and len(records) == 149
    assert len(read_work(work)) == 150


@pytest.mark.slow
def test_a_truncated_last_line_is_ignored_and_redone(
    good_texts, prompt_dir: Path, tmp_path: Path
) -> None:
    work = tmp_path / "work.jsonl"
    _run(Script(good_texts), prompt_dir, work)
    lines = work.read_text(encoding="utf-8").splitlines(keepends=True)
    work.write_text("".join(lines[:-1]) + lines[-1][:50], encoding="utf-8")
    with pytest.warns(UserWarning, match="incomplete last line"):
        assert len(read_work(work)) == 149
    script = Script(good_texts)
    with pytest.warns(UserWarning, match="incomplete last line"):
        _, report = _run(script, prompt_dir, work)
    assert len({s for k, s, _ in script.requests if k == "DOCUMENT"}) == 1
    assert report.total.planned == 150


def test_a_work_file_of_another_build_is_refused_not_mixed_in(
    good_texts, prompt_dir: Path, tmp_path: Path
) -> None:
    """Resuming with another seed or other prompts would mix two builds' cells in one file."""
    work = tmp_path / "work.jsonl"
    _interrupted(good_texts, prompt_dir, work, after=3)
    finished = work.read_text(encoding="utf-8")
    assert finished
    with pytest.raises(
        WorkFileError,
        match=rf"work.jsonl, line 1: written by another build \(seed {DEFAULT_SEED} \(now 7\)\)",
    ):
        _run(Script(good_texts), prompt_dir, work, seed=7)
    (prompt_dir / "policy.txt").write_text("POLICY $sample_id (reworded)", encoding="utf-8")
    with pytest.raises(WorkFileError, match="prompts_sha256"):
        _run(Script(good_texts), prompt_dir, work)
    assert work.read_text(encoding="utf-8") == finished


def test_a_work_file_without_a_build_identity_is_refused(tmp_path: Path) -> None:
    work = tmp_path / "work.jsonl"
    work.write_text('{"sample_id": "legal_000000", "kept": false}\n', encoding="utf-8")
    run = WorkRun(seed=1, model="m", prompts_sha256="0" * 64, generator_version="1")
    with pytest.raises(WorkFileError, match="records no seed, model or prompts"):
        read_work(work, run)
    assert len(read_work(work)) == 1  # without a run to compare, the entries are read


def test_a_corrupt_work_file_line_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    work = tmp_path / "work.jsonl"
    work.write_text('{"sample_id": "x"}\nnot json\n{"sample_id": "y", "kept": false}\n')
    with pytest.raises(ValueError, match=r"work.jsonl, line 1"):
        read_work(work)


def test_default_prompts_fill_for_every_level_and_strategy() -> None:
    templates = load_templates()
    for cell in [c for c in grid(["travel"], 1) if c.form == "call_note"]:
        prompts = build_prompts(make_symbolic(cell, DEFAULT_SEED), templates)
        assert "$" not in prompts.document + prompts.policy + prompts.task + prompts.attacker
        sym = make_symbolic(cell, DEFAULT_SEED)
        assert all(v in prompts.document for v in sym.allowed_values + sym.protected_values)
        assert f"exactly {sym.planned_turns}" in prompts.attacker
        assert not any(v in prompts.policy for v in sym.protected_values)


def test_clean_output_strips_fences_and_extracts_the_array() -> None:
    assert clean_output('```json\n["a", "b"]\n```', "attacker") == '["a", "b"]'
    assert clean_output('Here you go: ["a"] hope it helps', "attacker") == '["a"]'
    assert clean_output("```\nDear Anna,\n```", "document") == "Dear Anna,"
