"""The judge: strict parsing of its answer, the answer format chosen once per judge model
(json_schema, then json_object, then text) against stub servers on 127.0.0.1, and one clear
error when the judge keeps failing."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import GenerateConfig, Model, get_model

from polar_inspect.scorers.llm_judge import (
    UNUSABLE_IN_A_ROW,
    JudgeFailedError,
    JudgeTurn,
    JudgeUsage,
    UnusableAnswer,
    answer_format,
    judge_prompt,
    judge_turn,
    parse_answer,
)
from tests.stub_servers import StubRequest, StubServer, WireApi, free_port

LLAMA_CPP_FORMATS = frozenset({"text", "json_object"})

# --- strict parsing -------------------------------------------------------------------------


def _answer(*verdicts: tuple[str, str]) -> str:
    return json.dumps({"verdicts": [{"value": v, "category": c} for v, c in verdicts]})


def test_parse_answer_reads_plain_fenced_and_prose_wrapped_json() -> None:
    plain = _answer(("A", "confirmed"), ("B", "none"))
    assert parse_answer(plain, ["A", "B"])["A"].category == "confirmed"
    fenced = f"```json\n{plain}\n```"
    assert parse_answer(fenced, ["A", "B"])["B"].category == "none"
    chatty = f"Sure! Here is my answer:\n{plain}\nHope this helps."
    assert parse_answer(chatty, ["A", "B"])["A"].category == "confirmed"
    thinking = f"<think>maybe {{not json}}</think>\n{plain}"
    assert parse_answer(thinking, ["A", "B"])["A"].category == "confirmed"


def test_parse_answer_matches_values_ignoring_case_and_spacing() -> None:
    verdicts = parse_answer(_answer(("anna  KELLER", "stated")), ["Anna Keller"])
    assert verdicts["Anna Keller"].category == "stated"
    assert verdicts["Anna Keller"].value == "Anna Keller"  # keyed and named as asked


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("it was shared", "no JSON object"),
        ('{"verdicts": [{"value": "A", "category": "leaked"}]}', "verdicts.0.category"),
        ('{"verdicts": [{"value": "A", "category": 1}]}', "verdicts.0.category"),
        ('{"verdicts": {"value": "A", "category": "none"}}', "verdicts"),
        ('{"answer": "none"}', "verdicts: Field required"),
        (_answer(("A", "none")) + " and " + _answer(("A", "none")), "2 JSON objects"),
        ('{"verdicts": [], "verdicts": []}', "repeats the key 'verdicts'"),
        (_answer(("A", "stated"), ("A", "none")), "two different verdicts for 'A'"),
        (_answer(("A", "none"), ("Z", "stated")), "value not asked: 'Z'"),
        ('{"verdicts": [{"value": "A", "category": "none",}]}', "no JSON object"),
    ],
)
def test_parse_answer_refuses_what_it_cannot_trust(text: str, problem: str) -> None:
    with pytest.raises(UnusableAnswer, match=re.escape(problem)):
        parse_answer(text, ["A"])


def test_parse_answer_refuses_an_answer_that_leaves_a_value_out() -> None:
    with pytest.raises(UnusableAnswer, match="no verdict for 'B'"):
        parse_answer(_answer(("A", "confirmed")), ["A", "B"])


def test_prompt_carries_fields_and_values() -> None:
    prompt = judge_prompt("Is it 1990?", "Yes.", [("1990-01-01", "date_of_birth")])
    assert '"field": "date_of_birth"' in prompt and '"value": "1990-01-01"' in prompt
    assert "<case>" in prompt and "Is it 1990?" in prompt


# --- the answer format, against stub servers --------------------------------------------------


def verdict_reply(api: WireApi, body: dict[str, Any]) -> str:
    """A judge that follows the format: `stated` when the value is in the reply, else none."""
    prompt = body["messages"][-1]["content"]
    case = json.loads(re.findall(r"<case>(.*)</case>", prompt, re.DOTALL)[0])
    verdicts = [
        (item["value"], "stated" if item["value"] in case["assistant_reply"] else "none")
        for item in case["values"]
    ]
    return _answer(*verdicts)


def garbage_reply(api: WireApi, body: dict[str, Any]) -> str:
    """A judge that never answers in JSON (what a very small model often does)."""
    return "The assistant seems careful. Overall I would say it is probably fine!"


def stub_judge(server: StubServer, **config: Any) -> Model:
    """A fresh judge model (its own answer-format decision) on the stub's OpenAI endpoint."""
    return get_model(
        "openai-api/stub/judge",
        config=GenerateConfig(**config),
        base_url=server.openai_base_url,
        api_key="none",
        memoize=False,
    )


def ask(judge: Model, replies: list[str], usage: JudgeUsage | None = None) -> list[JudgeTurn]:
    """Ask the judge about the value `A-1` in each reply, one after the other."""
    usage = usage if usage is not None else JudgeUsage()

    async def run() -> list[JudgeTurn]:
        return [
            await judge_turn(judge, f"turn {i}", reply, [("A-1", "code")], usage)
            for i, reply in enumerate(replies)
        ]

    return asyncio.run(run())


def formats_sent(server: StubServer) -> list[str]:
    """The response_format type of each request received, in order ("text" when none)."""

    def kind(request: StubRequest) -> str:
        wanted = request.body.get("response_format")
        return str(wanted["type"]) if isinstance(wanted, dict) else "text"

    return [kind(r) for r in server.requests]


@pytest.fixture
def llama_cpp_like() -> Iterator[StubServer]:
    """A server that refuses `json_schema` with HTTP 500 as llama-cpp-python's does."""
    with StubServer(respond=verdict_reply, response_formats=LLAMA_CPP_FORMATS) as server:
        yield server


def test_a_server_that_refuses_json_schema_gets_json_object_decided_once(
    llama_cpp_like: StubServer,
) -> None:
    judge = stub_judge(llama_cpp_like)
    usage = JudgeUsage()
    turns = ask(judge, ["the code is A-1", "nothing here", "A-1 again"], usage)
    assert [t.verdicts["A-1"].category for t in turns] == ["stated", "none", "stated"]
    assert {t.response_format for t in turns} == {"json_object"}
    sent = formats_sent(llama_cpp_like)
    first_object = sent.index("json_object")
    assert set(sent[:first_object]) == {"json_schema"}  # tried first (the client retries a 500)
    assert sent[first_object:] == ["json_object"] * 3  # then never again: decided once
    assert usage.formats == {"json_object": 3} and usage.unparsed_calls == 0
    choice = answer_format(judge)
    assert choice.format == "json_object"
    assert choice.refused["json_schema"].startswith("HTTP 500: 1 validation error")
    assert "Input should be 'text' or 'json_object'" in choice.describe()


def test_concurrent_first_calls_choose_the_format_once(llama_cpp_like: StubServer) -> None:
    judge = stub_judge(llama_cpp_like)
    usage = JudgeUsage()

    async def run() -> list[JudgeTurn]:
        calls = [
            judge_turn(judge, f"t{i}", f"A-1 ({i})", [("A-1", "code")], usage) for i in range(6)
        ]
        return list(await asyncio.gather(*calls))

    turns = asyncio.run(run())
    assert {t.response_format for t in turns} == {"json_object"}
    sent = formats_sent(llama_cpp_like)
    probes = [i for i, kind in enumerate(sent) if kind == "json_schema"]
    assert probes == list(range(len(probes))) and len(probes) <= 3  # one probe (with retries)
    assert sent.count("json_object") == 6


def test_a_server_that_only_takes_text_gets_plain_text() -> None:
    with StubServer(respond=verdict_reply, response_formats=frozenset({"text"})) as server:
        judge = stub_judge(server)
        [turn] = ask(judge, ["A-1"])
        assert turn.response_format == "text" and turn.verdicts["A-1"].category == "stated"
        assert set(answer_format(judge).refused) == {"json_schema", "json_object"}
        assert formats_sent(server)[-1] == "text"


def test_a_server_that_takes_json_schema_keeps_it() -> None:
    with StubServer(respond=verdict_reply) as server:
        judge = stub_judge(server)
        ask(judge, ["A-1", "B"])
        assert formats_sent(server) == ["json_schema", "json_schema"]
        schema = server.requests[0].body["response_format"]["json_schema"]["schema"]
        assert "verdicts" in schema["properties"]
        assert answer_format(judge).describe() == "json_schema"


def test_answers_are_cached_by_inspect_with_their_format(
    llama_cpp_like: StubServer, tmp_path: Path
) -> None:
    [first] = ask(stub_judge(llama_cpp_like), ["A-1"])
    assert not first.cached
    answered = len(llama_cpp_like.ok_requests())
    sent = len(llama_cpp_like.requests)
    usage = JudgeUsage()
    [turn] = ask(stub_judge(llama_cpp_like), ["A-1"], usage)  # a new process would do the same
    # answered from the cache: no answer paid twice; only the refused json_schema probe of the
    # new judge's first call reached the server again (the format is chosen once per process)
    assert len(llama_cpp_like.ok_requests()) == answered
    assert set(formats_sent(llama_cpp_like)[sent:]) == {"json_schema"}
    assert turn.cached and turn.response_format == "json_object"
    assert turn.verdicts == first.verdicts
    assert usage.formats == {"json_object": 1} and usage.cached_calls == 1
    assert usage.calls == 0 and usage.total_tokens == 0
    # in Inspect's cache (conftest points INSPECT_CACHE_DIR at the test's folder)
    assert list((tmp_path / "inspect_cache" / "generate").rglob("*"))


def test_another_prompt_or_another_judge_is_not_answered_from_the_cache(
    llama_cpp_like: StubServer,
) -> None:
    judge = stub_judge(llama_cpp_like)
    ask(judge, ["A-1"])
    [other_reply] = ask(judge, ["A-1 and more"])
    assert not other_reply.cached
    with StubServer(respond=verdict_reply, response_formats=LLAMA_CPP_FORMATS) as elsewhere:
        [other_server] = ask(stub_judge(elsewhere), ["A-1"])  # another base URL
    assert not other_server.cached


def test_a_judge_that_answers_garbage_ends_with_one_clear_error() -> None:
    with StubServer(respond=garbage_reply, response_formats=LLAMA_CPP_FORMATS) as server:
        judge = stub_judge(server)
        usage = JudgeUsage()
        turns = ask(judge, ["A-1"] * (UNUSABLE_IN_A_ROW - 1), usage)
        assert not any(t.parsed for t in turns)  # counted, verdict none, reason given
        assert {t.verdicts["A-1"].category for t in turns} == {"none"}
        assert "no JSON object" in turns[0].problem and "probably fine" in turns[0].problem
        assert usage.unparsed_calls == UNUSABLE_IN_A_ROW - 1
        with pytest.raises(JudgeFailedError) as failed:
            ask(judge, ["A-1"], usage)
    message = str(failed.value)
    assert f"{UNUSABLE_IN_A_ROW} unusable answers in a row in answer format json_object" in message
    assert "no JSON object" in message and "use a larger instruction-following" in message
    assert "\n" not in message


def test_a_usable_answer_resets_the_count_of_unusable_ones() -> None:
    answers: Iterator[Callable[[WireApi, dict[str, Any]], str]] = iter(
        [garbage_reply, verdict_reply] * UNUSABLE_IN_A_ROW
    )
    with StubServer(respond=lambda api, body: next(answers)(api, body)) as server:
        turns = ask(stub_judge(server), ["A-1"] * (2 * UNUSABLE_IN_A_ROW))
    assert [t.parsed for t in turns] == [False, True] * UNUSABLE_IN_A_ROW


def test_a_server_that_fails_every_format_names_each_failure() -> None:
    with StubServer(always_fail=500) as server:
        judge = stub_judge(server, max_retries=0)
        with pytest.raises(JudgeFailedError) as failed:
            ask(judge, ["A-1"])
    message = str(failed.value)
    for kind in ("json_schema: HTTP 500", "json_object: HTTP 500", "text: HTTP 500"):
        assert kind in message
    assert "no call succeeded" in message and "base URL" in message


@pytest.mark.slow  # the client's own backoff between connection attempts
def test_an_unreachable_server_is_not_mistaken_for_a_format_refusal() -> None:
    judge = get_model(
        "openai-api/stub/judge",
        base_url=f"http://127.0.0.1:{free_port()}/v1",
        api_key="none",
        memoize=False,
    )
    with pytest.raises(JudgeFailedError, match=r"no call succeeded \(json_schema: APIConnection"):
        ask(judge, ["A-1"])
    assert answer_format(judge).format is None


@pytest.mark.slow  # one retry: Inspect's backoff of 3+ s
def test_a_call_that_fails_after_the_format_is_known_ends_the_run(
    llama_cpp_like: StubServer,
) -> None:
    judge = stub_judge(llama_cpp_like, max_retries=1)
    ask(judge, ["A-1"])
    llama_cpp_like.always_fail = 503
    before = llama_cpp_like.calls
    with pytest.raises(JudgeFailedError, match="call in answer format json_object failed"):
        ask(judge, ["A-1 once more"])
    assert llama_cpp_like.calls - before == 2 * 3  # 1 retry, each with the client's 2 retries
