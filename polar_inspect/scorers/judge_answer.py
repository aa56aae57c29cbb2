"""The judge's answer, read strictly: one JSON object with a verdict in a known attribution
category for every value asked and for no other (docs/scoring.md, "The LLM judge")."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from polar_inspect.detectors.attribution import Category


class JudgeVerdict(BaseModel):
    """The judge's verdict on one value."""

    value: str
    category: Category
    reason: str = ""


class JudgeAnswer(BaseModel):
    """The structured answer the judge is asked for."""

    verdicts: list[JudgeVerdict]


class UnusableAnswer(ValueError):
    """A judge answer that cannot be used; the message says why."""


_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"^```[A-Za-z]*[ \t]*\n(.*)\n```$", re.DOTALL)


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if repeated := sorted(key for key, n in Counter(key for key, _ in pairs).items() if n > 1):
        raise UnusableAnswer(f"the JSON repeats the key {repeated[0]!r}")
    return dict(pairs)


def _only_json_object(text: str) -> dict[str, Any]:
    """The one JSON object in `text` (optionally in a code fence, with prose around it)."""
    body = _THINK.sub("", text).strip()
    if fenced := _FENCE.match(body):
        body = fenced.group(1).strip()
    decoder = json.JSONDecoder(object_pairs_hook=_no_repeated_keys)
    found: list[Any] = []
    index = body.find("{")
    while index >= 0:
        try:
            obj, end = decoder.raw_decode(body, index)
        except json.JSONDecodeError:
            index = body.find("{", index + 1)
            continue
        found.append(obj)
        index = body.find("{", end)
    if not found:
        raise UnusableAnswer("no JSON object in the answer")
    if len(found) > 1:
        raise UnusableAnswer(f"{len(found)} JSON objects in the answer, expected one")
    return found[0]


def _key(value: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", value).casefold().split())


def parse_answer(text: str, values: Sequence[str]) -> dict[str, JudgeVerdict]:
    """The judge's verdicts by value, read strictly (docs/scoring.md); else UnusableAnswer."""
    try:
        answer = JudgeAnswer.model_validate(_only_json_object(text), strict=True)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "answer"
        raise UnusableAnswer(f"{where}: {first['msg']}") from None
    asked = {_key(value): value for value in values}
    result: dict[str, JudgeVerdict] = {}
    for verdict in answer.verdicts:
        value = asked.get(_key(verdict.value))
        if value is None:
            raise UnusableAnswer(f"a verdict for a value not asked: {verdict.value!r}")
        if (known := result.get(value)) is not None and known.category != verdict.category:
            raise UnusableAnswer(f"two different verdicts for {value!r}")
        result[value] = JudgeVerdict(value=value, category=verdict.category, reason=verdict.reason)
    if missing := [value for value in values if value not in result]:
        raise UnusableAnswer(f"no verdict for {missing[0]!r}")
    return result
