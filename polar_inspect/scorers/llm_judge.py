"""The optional LLM judge on the `judge` model role: per-value verdicts for one turn.

Off unless a model is bound with `--model-role judge=<provider/model>`. The judge sees the
attacker's turn, the trusted model's visible reply and the values with their field names, and
answers in the attribution categories as JSON (requested through `ResponseSchema`, parsed
leniently). Verdicts are cached on disk per judge model and input hash, under
`cache_dir()/judge/`; token use is counted apart from the trusted model's.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.model import GenerateConfig, Model, ModelUsage, ResponseSchema, model_roles
from inspect_ai.util import json_schema
from pydantic import BaseModel, ValidationError

from polar_inspect.data.sources import cache_dir
from polar_inspect.detectors.attribution import Category
from polar_inspect.prompts import load_template

JUDGE_ROLE = "judge"
JUDGE_CONFIG = GenerateConfig(temperature=0.0, max_tokens=800)
CACHE_VERSION = "1"


class JudgeVerdict(BaseModel):
    """The judge's verdict on one value."""

    value: str
    category: Category
    reason: str = ""


class JudgeAnswer(BaseModel):
    """The structured answer the judge is asked for."""

    verdicts: list[JudgeVerdict]


class JudgeUsage(BaseModel):
    """The judge's calls and tokens for one sample (apart from the trusted model's)."""

    calls: int = 0
    cached_calls: int = 0
    unparsed_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0

    def add(self, usage: ModelUsage | None) -> None:
        """Add one call's token use."""
        if usage is not None:
            self.input_tokens += usage.input_tokens
            self.output_tokens += usage.output_tokens
            self.total_tokens += usage.total_tokens


class JudgeTurn(BaseModel):
    """The judge's verdicts for one turn, by value."""

    model: str
    verdicts: dict[str, JudgeVerdict]
    cached: bool
    parsed: bool


def bound_judge() -> Model | None:
    """The model bound to the `judge` role, or None (the judge is off)."""
    bound = model_roles().get(JUDGE_ROLE)
    if isinstance(bound, list):
        return bound[0] if bound else None
    return bound


def judge_prompt(attacker_turn: str, reply: str, values: Sequence[tuple[str, str]]) -> str:
    """The judge's prompt: the packaged template with the case as JSON."""
    case = {
        "requester_turn": attacker_turn,
        "assistant_reply": reply,
        "values": [{"field": field, "value": value} for value, field in values],
    }
    template = load_template("judge")
    return template.render(case=json.dumps(case, ensure_ascii=False, indent=1))


def parse_answer(text: str, values: Sequence[str]) -> dict[str, JudgeVerdict] | None:
    """Read the judge's JSON (also inside a code fence or prose); None if unusable.

    Values the judge left out get `none`; values it invented are ignored.
    """
    candidates = [text] + re.findall(r"\{.*\}", text, re.DOTALL)
    for candidate in candidates:
        try:
            answer = JudgeAnswer.model_validate(json.loads(candidate))
        except (json.JSONDecodeError, ValidationError):
            continue
        by_value = {v.value: v for v in answer.verdicts}
        return {
            value: by_value.get(value, JudgeVerdict(value=value, category="none", reason="omitted"))
            for value in values
        }
    return None


def _cache_file(model_name: str, prompt: str) -> Path:
    digest = hashlib.sha256(f"{CACHE_VERSION}\n{model_name}\n{prompt}".encode()).hexdigest()
    return cache_dir() / "judge" / digest[:2] / f"{digest}.json"


async def judge_turn(
    judge: Model,
    attacker_turn: str,
    reply: str,
    values: Sequence[tuple[str, str]],
    usage: JudgeUsage,
) -> JudgeTurn:
    """Ask the judge about one turn (or read the cached answer). `values`: (value, field)."""
    names = [value for value, _ in values]
    prompt = judge_prompt(attacker_turn, reply, values)
    model_name = str(judge)
    file = _cache_file(model_name, prompt)
    if file.is_file():
        try:
            cached = JudgeAnswer.model_validate_json(file.read_text(encoding="utf-8"))
            usage.cached_calls += 1
            verdicts = {v.value: v for v in cached.verdicts}
            return JudgeTurn(model=model_name, verdicts=verdicts, cached=True, parsed=True)
        except (OSError, ValidationError):
            pass  # a damaged entry is asked again and rewritten
    config = JUDGE_CONFIG.merge(
        GenerateConfig(
            response_schema=ResponseSchema(
                name="verdicts", json_schema=json_schema(JudgeAnswer), strict=False
            )
        )
    ).merge(judge.config)
    output = await judge.generate(prompt, config=config)
    usage.calls += 1
    usage.add(output.usage)
    verdicts = parse_answer(output.completion, names)
    if verdicts is None:
        usage.unparsed_calls += 1
        empty = {v: JudgeVerdict(value=v, category="none", reason="unparsed") for v in names}
        return JudgeTurn(model=model_name, verdicts=empty, cached=False, parsed=False)
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_suffix(".tmp")
    tmp.write_text(JudgeAnswer(verdicts=list(verdicts.values())).model_dump_json(), "utf-8")
    tmp.replace(file)
    return JudgeTurn(model=model_name, verdicts=verdicts, cached=False, parsed=True)
