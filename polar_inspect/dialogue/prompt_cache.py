"""Where the trusted model's requests carry prompt-cache breakpoints: only where a later request
reads them; the policy and its billing: docs/cost.md ("Breakpoints only where a later request
reads them")."""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageUser, ContentText

#: Providers whose requests honour explicit breakpoint marks.
MARKING_PROVIDERS = ("anthropic",)


def trusted_marks(index: int, rounds: int) -> tuple[bool, bool]:
    """(read, write) for round `index` of `rounds`: mark the previous request's end (read),
    mark this request's end (write, only when a later round will read it)."""
    return index > 0, index < rounds - 1


def _content(message: ChatMessage, marked: bool) -> ChatMessage:
    if not marked and isinstance(message.content, str):
        return message
    content = [ContentText(text=message.text, cache_breakpoint=True)] if marked else message.text
    return message.model_copy(update={"content": content})


def breakpoint_messages(
    messages: list[ChatMessage], index: int, rounds: int, model: str
) -> tuple[list[ChatMessage], bool | None]:
    """The messages of round `index`'s trusted request with the policy's marks, and its
    `cache_prompt` (False when the request marks nothing; None: the run's setting)."""
    read, write = trusted_marks(index, rounds)
    if not (read or write):
        return messages, False
    if model.split("/", 1)[0] not in MARKING_PROVIDERS:
        return messages, None
    users = [i for i, m in enumerate(messages) if isinstance(m, ChatMessageUser)]
    if len(users) != index + 1:
        return messages, None  # not the dialogue's layout: Inspect's automatic breakpoints
    wanted = {users[-2]} if read else set()
    if write:
        wanted.add(users[-1])
    marked = [
        _content(m, i in wanted) if isinstance(m, ChatMessageUser) else m
        for i, m in enumerate(messages)
    ]
    return marked, None
