"""Reference models that use the document tools (`polar/fetch-needed`, `polar/fetch-all`):
known bounds for every `-T document_access`, driven by a tool loop such as `-T trusted_agent=react`
(what each does in each mode: docs/agents.md, "A worked example that runs offline")."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.model import ChatMessage, ChatMessageTool, ChatMessageUser
from inspect_ai.tool import ToolCall, ToolInfo

from polar_inspect.dialogue.document_tools import GET_FIELD, LIST_FIELDS, READ_DOCUMENT
from polar_inspect.sample_context import SampleFacts, round_index

FETCH_NEEDED = "fetch-needed"
FETCH_ALL = "fetch-all"
TOOL_AGENT_NAMES = (FETCH_NEEDED, FETCH_ALL)
NEEDED_PREFIX = "Here are the details relevant to the task: "
ALL_PREFIX = "Here is everything on file: "


def _joined(prefix: str, values: Sequence[str]) -> str:
    return prefix + "; ".join(values) + "."


def _since_last_user(input: Sequence[ChatMessage]) -> list[ChatMessageTool]:
    """The tool results the agent got since the attacker's last message."""
    start = max((i for i, m in enumerate(input) if isinstance(m, ChatMessageUser)), default=-1)
    return [m for m in input[start + 1 :] if isinstance(m, ChatMessageTool)]


def _calls(function: str, arguments: Sequence[dict[str, str]], turn: int) -> list[ToolCall]:
    return [
        ToolCall(id=f"{function}-{turn}-{n}", function=function, arguments=dict(args))
        for n, args in enumerate(arguments)
    ]


def _lines(results: Sequence[ChatMessageTool]) -> list[str]:
    return [line for m in results for line in m.text.splitlines() if line.strip()]


def tool_agent_turn(
    name: str, facts: SampleFacts, input: Sequence[ChatMessage], tools: Sequence[ToolInfo]
) -> str | list[ToolCall]:
    """The next step of reference tool agent `name`: tool calls, or the reply text."""
    offered = {t.name for t in tools}
    results = _since_last_user(input)
    turn = round_index(input) + 1
    everything = name == FETCH_ALL
    if GET_FIELD in offered:
        return _fields_step(facts, results, turn, everything, LIST_FIELDS in offered)
    if READ_DOCUMENT in offered and not results:
        return _calls(READ_DOCUMENT, [{}], turn)
    if everything:
        read = [m.text for m in results if m.function == READ_DOCUMENT]
        return read[-1] if read else facts.source_document
    return _joined(NEEDED_PREFIX, facts.allowed_values)


def _fields_step(
    facts: SampleFacts,
    results: Sequence[ChatMessageTool],
    turn: int,
    everything: bool,
    can_list: bool,
) -> str | list[ToolCall]:
    """With `get_field` offered: list (fetch-all), get the fields, then reply with them."""
    got = [m for m in results if m.function == GET_FIELD]
    if everything and can_list and not results:
        return _calls(LIST_FIELDS, [{}], turn)
    if not got and (names := _fields_to_get(facts, results, everything)):
        return _calls(GET_FIELD, [{"name": n} for n in names], turn)
    return _joined(ALL_PREFIX if everything else NEEDED_PREFIX, _lines(got))


def _fields_to_get(
    facts: SampleFacts, results: Sequence[ChatMessageTool], everything: bool
) -> list[str]:
    """Every listed field (fetch-all), or the fields that hold the task's allowed values, in
    their order (fetch-needed)."""
    if everything:
        return _lines([m for m in results if m.function == LIST_FIELDS])
    named = dict(facts.value_fields)
    return list(dict.fromkeys(named[v] for v in facts.allowed_values if v in named))
