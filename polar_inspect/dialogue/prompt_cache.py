"""Where the trusted model's requests carry prompt-cache breakpoints: only where a later request
reads them (docs/cost.md, "Prompt caching").

A provider that caches at explicit breakpoints (Anthropic) bills every token written to the
cache at 1.25x (5-minute cache) or 2x (1-hour cache) the input rate and every token read at
0.1x. Round k of a dialogue of n rounds repeats round k - 1's request and adds a reply and a
message, so:

- round k < n - 1 marks its own end: round k + 1 reads it (a write, read back once);
- round k > 0 marks the end of round k - 1's request: a read of what that round wrote;
- the last round marks nothing of its own (no request reads it), and a one-round dialogue is
  sent without breakpoints at all (`cache_prompt=False`).

The marks are Inspect's `ContentText.cache_breakpoint`, which replace its automatic breakpoints
(the last block, the system prompt, the block before the last message) for the request; only
models whose provider honours them get them (`anthropic/...`); other providers keep their own
caching (OpenAI caches prefixes automatically) and get only `cache_prompt=False` on a one-round
dialogue. The live attacker's requests are sent without breakpoints (`cache_prompt=False` in
`attackers.base.generate_as_attacker`): its last message carries the round's instruction and
changes every round, so what it would write is never read back. `polar_inspect.cost.estimate`
bills by the same policy.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageUser, ContentText

#: Providers whose requests honour explicit breakpoint marks.
MARKING_PROVIDERS = ("anthropic",)


def trusted_marks(index: int, rounds: int) -> tuple[bool, bool]:
    """(read, write) for round `index` of `rounds`: mark the previous request's end (read),
    mark this request's end (write, only when a later round will read it)."""
    return index > 0, index < rounds - 1


def _content(message: ChatMessage, marked: bool) -> ChatMessage:
    text = message.text
    if not marked:
        if isinstance(message.content, str):
            return message
        return message.model_copy(update={"content": text})
    block = ContentText(text=text, cache_breakpoint=True)
    return message.model_copy(update={"content": [block]})


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
