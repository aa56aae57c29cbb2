"""The breakpoint policy: marks only where a later request reads them (dialogue/prompt_cache)."""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

from polar_inspect.dialogue.prompt_cache import breakpoint_messages, trusted_marks


def _marked(messages: list[ChatMessage]) -> list[int]:
    return [
        i
        for i, m in enumerate(messages)
        if not isinstance(m.content, str) and any(getattr(b, "cache_breakpoint", None)
                                                  for b in m.content)
    ]  # fmt: skip


def _dialogue(rounds: int) -> list[ChatMessage]:
    messages: list[ChatMessage] = [ChatMessageSystem(content="system")]
    for k in range(rounds):
        messages.append(ChatMessageUser(content=f"turn {k}"))
        messages.append(ChatMessageAssistant(content=f"reply {k}"))
    return messages[:-1]


def test_marks_per_round() -> None:
    assert [trusted_marks(i, 3) for i in range(3)] == [(False, True), (True, True), (True, False)]
    assert trusted_marks(0, 1) == (False, False)


def test_anthropic_requests_mark_the_previous_end_and_their_own_unless_last() -> None:
    first, cache = breakpoint_messages(_dialogue(1), 0, 3, "anthropic/m")
    assert _marked(first) == [1] and cache is None
    middle, _ = breakpoint_messages(_dialogue(2), 1, 3, "anthropic/m")
    assert _marked(middle) == [1, 3]
    grown = [*middle, ChatMessageAssistant(content="r"), ChatMessageUser(content="t")]
    last, _ = breakpoint_messages(grown, 2, 3, "anthropic/m")
    assert _marked(last) == [3]  # reads round 2's prefix, writes nothing
    assert [m.text for m in last] == [m.text for m in middle] + ["r", "t"]


def test_one_round_sends_no_breakpoints_and_other_providers_keep_their_own() -> None:
    messages = _dialogue(1)
    assert breakpoint_messages(messages, 0, 1, "anthropic/m") == (messages, False)
    assert breakpoint_messages(messages, 0, 1, "openai/m") == (messages, False)
    assert breakpoint_messages(messages, 0, 3, "openai/m") == (messages, None)
