"""The optional LLM judge on the `judge` role: per-value verdicts for one turn, in an answer
format chosen once per judge model, on Inspect's cache (docs/scoring.md, "The LLM judge")."""

from __future__ import annotations

import json
import weakref
from collections.abc import Sequence
from typing import Literal

import anyio
import anyio.lowlevel
from inspect_ai.event import Event, ModelEvent
from inspect_ai.log import transcript
from inspect_ai.model import (
    CachePolicy,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    ResponseSchema,
)
from inspect_ai.util import json_schema
from pydantic import BaseModel
from tenacity import RetryError

from polar_inspect.batch_guard import answered
from polar_inspect.errors import UserInputError
from polar_inspect.prompts import load_template
from polar_inspect.scorers.judge_answer import (
    JudgeAnswer,
    JudgeVerdict,
    UnusableAnswer,
    parse_answer,
)

JUDGE_CONFIG = GenerateConfig(temperature=0.0, max_tokens=800)
#: Inspect's cache for judge answers: not per epoch (the prompt holds the reply judged), no
#: expiry; the scope keeps these entries apart from any other use of the same model and prompt.
JUDGE_CACHE = CachePolicy(expiry=None, per_epoch=False, scopes={"polar_inspect": "judge-3"})

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
    """Per judge model: the format chosen, unusable answers in a row, a lock per event loop."""

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
    return _states.setdefault(judge, _JudgeState())


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
    return load_template("judge").render(case=json.dumps(case, ensure_ascii=False, indent=1))


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
        if (inner := err.last_attempt.exception()) is None:
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
    prefix = f"HTTP {status}" if isinstance(status, int) else type(err).__name__
    return f"{prefix}: {_excerpt(message or str(err) or type(err).__name__, 160)}"


def _refuses_format(err: BaseException) -> bool:
    """Whether an error says "cannot serve this as asked" (try the next format), not another."""
    err = _root_error(err)
    if isinstance(status := getattr(err, "status_code", None), int):
        return status in _REFUSAL_STATUSES
    return isinstance(err, NotImplementedError | ValueError)


def _failed(judge: Model, what: str, advice: str = _CALL_ADVICE) -> JudgeFailedError:
    return JudgeFailedError(f"judge {judge}: {what}; {advice}")


def _from_cache(events: Sequence[Event], model: str, output: ModelOutput) -> bool:
    """Whether Inspect answered `output` from its cache (its model event says `read`)."""
    return any(
        isinstance(event, ModelEvent)
        and event.cache == "read"
        and event.model == model
        and event.output == output
        for event in events
    )


async def _ask(judge: Model, prompt: str) -> tuple[ModelOutput, bool, ResponseFormat]:
    """The answer, whether Inspect's cache gave it, and its format (chosen on the first call)."""
    state = _state(judge)
    if state.choice.format is None:
        async with state.lock():
            if state.choice.format is None:
                return await _call(judge, prompt, state, FORMAT_ORDER)
    return await _call(judge, prompt, state, (state.choice.format,))


async def _call(
    judge: Model, prompt: str, state: _JudgeState, formats: Sequence[ResponseFormat]
) -> tuple[ModelOutput, bool, ResponseFormat]:
    """One judge call on Inspect's cache (True: the answer came from it), trying `formats` in
    turn and keeping the first accepted (the one format known gets its retries)."""
    history = transcript().history
    for response_format in formats:
        config = _format_config(judge, response_format, trying=response_format != formats[-1])
        start = history.event_count
        try:
            output = await answered(judge.generate(prompt, config=config, cache=JUDGE_CACHE))
        except UserInputError:
            raise
        except Exception as err:  # noqa: BLE001 - classified by _failure
            if (failure := _failure(judge, state, formats, response_format, err)) is not None:
                raise failure from err
        else:
            state.choice.format = response_format
            cached = _from_cache(history.events_from(start), str(judge), output)
            return output, cached, response_format
    raise AssertionError("unreachable: the last format ends the loop")


def _failure(
    judge: Model,
    state: _JudgeState,
    formats: Sequence[ResponseFormat],
    response_format: ResponseFormat,
    err: Exception,
) -> JudgeFailedError | None:
    """What ends the run after a failed call in `response_format`; None: try the next format."""
    reason = _describe_error(err)
    if len(formats) == 1:
        return _failed(judge, f"a call in answer format {response_format} failed ({reason})")
    state.choice.refused[response_format] = reason
    if response_format != formats[-1] and _refuses_format(err):
        return None
    tried = "; ".join(f"{k}: {v}" for k, v in state.choice.refused.items())
    return _failed(judge, f"no call succeeded ({tried})")


def _excerpt(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _unusable(judge: Model, err: UnusableAnswer, answer: str, fmt: ResponseFormat) -> str:
    """Count one unusable answer: the problem in one line (JudgeFailedError at the limit)."""
    state = _state(judge)
    state.unusable_in_a_row += 1
    problem = f"{err} (answer began: {_excerpt(answer)!r})"
    if state.unusable_in_a_row >= UNUSABLE_IN_A_ROW:
        raise _failed(
            judge,
            f"{state.unusable_in_a_row} unusable answers in a row in answer format {fmt} "
            f"(last: {problem}): the model does not follow the judge's answer format",
            _ANSWER_ADVICE,
        )
    return problem


async def judge_turn(
    judge: Model,
    attacker_turn: str,
    reply: str,
    values: Sequence[tuple[str, str]],
    usage: JudgeUsage,
) -> JudgeTurn:
    """Ask the judge about one turn's (value, field) pairs; JudgeFailedError if it fails."""
    names = [value for value, _ in values]
    output, cached, response_format = await _ask(judge, judge_prompt(attacker_turn, reply, values))
    if cached:
        usage.cached_calls += 1
    else:
        usage.calls += 1
        usage.add(output.usage)
    usage.formats[response_format] = usage.formats.get(response_format, 0) + 1
    turn = JudgeTurn(
        model=str(judge), verdicts={}, cached=cached, parsed=True, response_format=response_format
    )
    try:
        turn.verdicts = parse_answer(output.completion, names)
    except UnusableAnswer as err:
        usage.unparsed_calls += 1
        turn.problem = _unusable(judge, err, output.completion, response_format)
        turn.parsed = False
        turn.verdicts = {
            v: JudgeVerdict(value=v, category="none", reason=f"unusable: {err}") for v in names
        }
        return turn
    _state(judge).unusable_in_a_row = 0
    return turn
