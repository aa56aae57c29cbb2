"""The optional LLM judge on the `judge` model role: per-value verdicts for one turn.

Off unless a model is bound with `--model-role judge=<provider/model>` (the scorer) or named
with `polar-validate --scorer judge --model ...`. The judge sees the attacker's turn, the trusted
model's visible reply and the values with their field names, and answers in the attribution
categories as JSON.

**Answer format, decided once per judge model.** Servers differ in what they accept as
`response_format`: OpenAI and vLLM take a JSON schema, llama.cpp's and llama-cpp-python's servers
reject it (HTTP 500) and take `json_object` or plain text. The first call to a judge model tries
`json_schema`, then `json_object`, then plain text, each once (no retries beyond the client's
own), and keeps the first format the server accepts for every later call to that model
(`answer_format(judge)` tells which, and why the others were given up). The prompt asks for
the same JSON in every format, and the answer is parsed strictly whatever the format
(`parse_answer`): one JSON object, a verdict in a known category for every value asked and
for no other value.

**Failures end the run with one message.** A call that still fails after its bounded retries,
and `UNUSABLE_IN_A_ROW` unusable answers in a row from one judge model, raise
`JudgeFailedError`, saying what failed and what to try. A single unusable answer counts as
`none` for every value of that turn and is counted (`JudgeUsage.unparsed_calls`).

Usable verdicts are cached on disk per judge model and input hash, under `cache_dir()/judge/`,
with the format that produced them; token use is counted apart from the trusted model's.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import anyio
import anyio.lowlevel
from inspect_ai.model import (
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    ResponseSchema,
)
from inspect_ai.util import json_schema
from pydantic import BaseModel, ConfigDict, ValidationError
from tenacity import RetryError

from polar_inspect.data.sources import cache_dir
from polar_inspect.detectors.attribution import Category
from polar_inspect.errors import UserInputError
from polar_inspect.prompts import load_template

JUDGE_ROLE = "judge"
JUDGE_CONFIG = GenerateConfig(temperature=0.0, max_tokens=800)
#: Version of the cache entries (2: strict parsing, the answer format recorded).
CACHE_VERSION = "2"

#: How the judge asks for JSON: a JSON schema, JSON mode, or the prompt alone.
ResponseFormat = Literal["json_schema", "json_object", "text"]
FORMAT_ORDER: tuple[ResponseFormat, ...] = ("json_schema", "json_object", "text")
#: Retries of one judge call once its format is known (the judge model's own `max_retries`
#: wins when set). A format being tried gets none: the client library's own retries remain.
JUDGE_MAX_RETRIES = 2
#: Unusable answers in a row (one judge model) after which the judge is given up.
UNUSABLE_IN_A_ROW = 5
#: HTTP statuses with which a server refuses a request it cannot serve as asked (llama.cpp's
#: servers answer an unknown `response_format` with 500, others with 400 or 422).
_REFUSAL_STATUSES = frozenset({400, 415, 422, 500, 501})
#: What to try, by kind of failure.
_CALL_ADVICE = (
    "check that the judge's server is running at its base URL and serves this model "
    "(or raise the judge model's max_retries for a busy server)"
)
_ANSWER_ADVICE = (
    "use a larger instruction-following judge model, or check the model's chat template "
    "and that max_tokens leaves room for the whole JSON answer"
)


class JudgeFailedError(UserInputError):
    """The judge model cannot be used: its calls fail, or its answers keep being unusable."""


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
    #: Answers by the format they were asked in (cached answers under the format recorded
    #: with them).
    formats: dict[str, int] = {}

    def add(self, usage: ModelUsage | None) -> None:
        """Add one call's token use."""
        if usage is not None:
            self.input_tokens += usage.input_tokens
            self.output_tokens += usage.output_tokens
            self.total_tokens += usage.total_tokens

    def count_format(self, response_format: str) -> None:
        """Count one answer asked for in `response_format`."""
        self.formats[response_format] = self.formats.get(response_format, 0) + 1


class JudgeTurn(BaseModel):
    """The judge's verdicts for one turn, by value."""

    model: str
    verdicts: dict[str, JudgeVerdict]
    cached: bool
    parsed: bool
    response_format: ResponseFormat
    #: Why the answer was unusable ("" when it was used).
    problem: str = ""


class AnswerFormatChoice(BaseModel):
    """The answer format chosen for one judge model, and why earlier ones were given up."""

    format: ResponseFormat | None = None
    refused: dict[str, str] = {}

    def describe(self) -> str:
        """`json_object (json_schema refused: HTTP 500 ...)`, or `not chosen yet`."""
        chosen = self.format or "not chosen yet"
        if not self.refused:
            return chosen
        why = "; ".join(f"{name} refused: {reason}" for name, reason in self.refused.items())
        return f"{chosen} ({why})"


class _JudgeState:
    """Per judge model: the answer format chosen, unusable answers in a row, the lock under
    which the format is chosen (one per event loop)."""

    def __init__(self) -> None:
        self.choice = AnswerFormatChoice()
        self.unusable_in_a_row = 0
        self._lock: anyio.Lock | None = None
        self._lock_loop: object = None

    def lock(self) -> anyio.Lock:
        loop = anyio.lowlevel.current_token()
        if self._lock is None or self._lock_loop != loop:
            self._lock, self._lock_loop = anyio.Lock(), loop
        return self._lock


_states: weakref.WeakKeyDictionary[Model, _JudgeState] = weakref.WeakKeyDictionary()


def _state(judge: Model) -> _JudgeState:
    state = _states.get(judge)
    if state is None:
        state = _states[judge] = _JudgeState()
    return state


def answer_format(judge: Model) -> AnswerFormatChoice:
    """The answer format chosen so far for `judge` (`format` None before its first call)."""
    return _state(judge).choice.model_copy(deep=True)


def judge_prompt(attacker_turn: str, reply: str, values: Sequence[tuple[str, str]]) -> str:
    """The judge's prompt: the packaged template with the case as JSON."""
    case = {
        "requester_turn": attacker_turn,
        "assistant_reply": reply,
        "values": [{"field": field, "value": value} for value, field in values],
    }
    template = load_template("judge")
    return template.render(case=json.dumps(case, ensure_ascii=False, indent=1))


# --- strict parsing of the answer ------------------------------------------------------------


class UnusableAnswer(ValueError):
    """A judge answer that cannot be used; the message says why."""


_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"^```[A-Za-z]*[ \t]*\n(.*)\n```$", re.DOTALL)


class _StrictVerdict(BaseModel):
    model_config = ConfigDict(strict=True)

    value: str
    category: Category
    reason: str = ""


class _StrictAnswer(BaseModel):
    model_config = ConfigDict(strict=True)

    verdicts: list[_StrictVerdict]


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise UnusableAnswer(f"the JSON repeats the key {repeated[0]!r}")
    return dict(pairs)


def _only_json_object(text: str) -> dict[str, Any]:
    """The one JSON object in `text` (optionally in a code fence, with prose around it)."""
    body = _THINK.sub("", text).strip()
    fenced = _FENCE.match(body)
    if fenced:
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
    """The judge's verdicts by value, read strictly; raise UnusableAnswer saying why not.

    The answer must hold exactly one JSON object (a code fence and prose around it are
    allowed) of the shape `{"verdicts": [{"value", "category", "reason"}]}` with a known
    category, and give one verdict for every value asked and none for any other (values are
    matched ignoring case, Unicode form and runs of spaces). Repeated keys, a value given two
    different verdicts and a value not asked make the answer unusable.
    """
    try:
        answer = _StrictAnswer.model_validate(_only_json_object(text))
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
        known = result.get(value)
        if known is not None and known.category != verdict.category:
            raise UnusableAnswer(f"two different verdicts for {value!r}")
        result[value] = JudgeVerdict(value=value, category=verdict.category, reason=verdict.reason)
    missing = [value for value in values if value not in result]
    if missing:
        raise UnusableAnswer(f"no verdict for {missing[0]!r}")
    return result


# --- calling the judge -------------------------------------------------------------------------


def _format_config(judge: Model, response_format: ResponseFormat, trying: bool) -> GenerateConfig:
    """The generate config for one call asking for `response_format`."""
    config = JUDGE_CONFIG.merge(judge.config)
    if response_format == "json_schema":
        schema = ResponseSchema(name="verdicts", json_schema=json_schema(JudgeAnswer), strict=False)
        config = config.merge(GenerateConfig(response_schema=schema))
    elif response_format == "json_object":
        extra = {**(judge.config.extra_body or {}), "response_format": {"type": "json_object"}}
        config = config.merge(GenerateConfig(extra_body=extra))
    if trying:
        config = config.merge(GenerateConfig(max_retries=0))
    elif config.max_retries is None:
        config = config.merge(GenerateConfig(max_retries=JUDGE_MAX_RETRIES))
    return config


def _root_error(err: BaseException) -> BaseException:
    """The provider's own error under the retry wrapper (tenacity's RetryError) if any."""
    while isinstance(err, RetryError):
        inner = err.last_attempt.exception()
        if inner is None:
            break
        err = inner
    return err


def _describe_error(err: BaseException) -> str:
    """One line: `HTTP 500: <the server's message>` or `<ErrorType>: <message>`."""
    err = _root_error(err)
    status = getattr(err, "status_code", None)
    body = getattr(err, "body", None)
    message = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = str(inner.get("message", "")) if isinstance(inner, dict) else str(inner)
    message = " ".join((message or str(err) or type(err).__name__).split())
    if len(message) > 160:
        message = message[:157] + "..."
    return (
        f"HTTP {status}: {message}"
        if isinstance(status, int)
        else f"{type(err).__name__}: {message}"
    )


def _refuses_format(err: BaseException) -> bool:
    """Whether an error answers "cannot serve this request as asked" (try the next format),
    not "cannot be reached" or "not allowed" (no format would help)."""
    err = _root_error(err)
    status = getattr(err, "status_code", None)
    if isinstance(status, int):
        return status in _REFUSAL_STATUSES
    return isinstance(err, NotImplementedError | ValueError)


def _failed(judge: Model, what: str, advice: str = _CALL_ADVICE) -> JudgeFailedError:
    return JudgeFailedError(f"judge {judge}: {what}; {advice}")


async def _call(judge: Model, prompt: str, response_format: ResponseFormat) -> ModelOutput:
    """One judge call in a known format; a call that fails after its retries ends the run."""
    try:
        return await judge.generate(prompt, config=_format_config(judge, response_format, False))
    except Exception as err:  # noqa: BLE001 - every failure of the judge's call ends the same way
        if isinstance(err, UserInputError):
            raise
        raise _failed(
            judge, f"a call in answer format {response_format} failed ({_describe_error(err)})"
        ) from err


async def _first_call(judge: Model, prompt: str, state: _JudgeState) -> ModelOutput:
    """The first call to a judge model: try each format in turn and keep the first accepted."""
    for response_format in FORMAT_ORDER:
        last = response_format == FORMAT_ORDER[-1]
        config = _format_config(judge, response_format, trying=not last)
        try:
            output = await judge.generate(prompt, config=config)
        except Exception as err:  # noqa: BLE001 - classified below
            if isinstance(err, UserInputError):
                raise
            state.choice.refused[response_format] = _describe_error(err)
            if last or not _refuses_format(err):
                tried = "; ".join(f"{k}: {v}" for k, v in state.choice.refused.items())
                raise _failed(judge, f"no call succeeded ({tried})") from err
            continue
        state.choice.format = response_format
        return output
    raise AssertionError("unreachable: the text format ends the loop")


async def _ask(judge: Model, prompt: str) -> tuple[ModelOutput, ResponseFormat]:
    """Ask the judge, choosing its answer format on the first call (once per judge model)."""
    state = _state(judge)
    if state.choice.format is None:
        async with state.lock():
            if state.choice.format is None:
                output = await _first_call(judge, prompt, state)
                assert state.choice.format is not None
                return output, state.choice.format
    response_format = state.choice.format
    assert response_format is not None
    return await _call(judge, prompt, response_format), response_format


class _CacheEntry(BaseModel):
    verdicts: list[JudgeVerdict]
    response_format: ResponseFormat


def _cache_file(model_name: str, prompt: str) -> Path:
    digest = hashlib.sha256(f"{CACHE_VERSION}\n{model_name}\n{prompt}".encode()).hexdigest()
    return cache_dir() / "judge" / digest[:2] / f"{digest}.json"


def _excerpt(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


async def judge_turn(
    judge: Model,
    attacker_turn: str,
    reply: str,
    values: Sequence[tuple[str, str]],
    usage: JudgeUsage,
) -> JudgeTurn:
    """Ask the judge about one turn (or read the cached answer). `values`: (value, field).

    Raises JudgeFailedError when the judge's call fails after its retries, or when this
    answer is the `UNUSABLE_IN_A_ROW`-th unusable one in a row from this judge model.
    """
    names = [value for value, _ in values]
    prompt = judge_prompt(attacker_turn, reply, values)
    model_name = str(judge)
    file = _cache_file(model_name, prompt)
    if file.is_file():
        try:
            cached = _CacheEntry.model_validate_json(file.read_text(encoding="utf-8"))
        except (OSError, ValidationError):
            pass  # a damaged entry is asked again and rewritten
        else:
            usage.cached_calls += 1
            usage.count_format(cached.response_format)
            return JudgeTurn(
                model=model_name,
                verdicts={v.value: v for v in cached.verdicts},
                cached=True,
                parsed=True,
                response_format=cached.response_format,
            )
    output, response_format = await _ask(judge, prompt)
    usage.calls += 1
    usage.add(output.usage)
    usage.count_format(response_format)
    state = _state(judge)
    try:
        verdicts = parse_answer(output.completion, names)
    except UnusableAnswer as err:
        usage.unparsed_calls += 1
        state.unusable_in_a_row += 1
        problem = f"{err} (answer began: {_excerpt(output.completion)!r})"
        if state.unusable_in_a_row >= UNUSABLE_IN_A_ROW:
            raise _failed(
                judge,
                f"{state.unusable_in_a_row} unusable answers in a row in answer format "
                f"{response_format} (last: {problem}): the model does not follow the judge's "
                "answer format",
                _ANSWER_ADVICE,
            ) from None
        empty = {
            v: JudgeVerdict(value=v, category="none", reason=f"unusable: {err}") for v in names
        }
        return JudgeTurn(
            model=model_name,
            verdicts=empty,
            cached=False,
            parsed=False,
            response_format=response_format,
            problem=problem,
        )
    state.unusable_in_a_row = 0
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_suffix(".tmp")
    entry = _CacheEntry(verdicts=list(verdicts.values()), response_format=response_format)
    tmp.write_text(entry.model_dump_json(), "utf-8")
    tmp.replace(file)
    return JudgeTurn(
        model=model_name,
        verdicts=verdicts,
        cached=False,
        parsed=True,
        response_format=response_format,
    )
