"""Text helpers every layer shares: the visible part of a model reply (reasoning blocks and
channel markup removed), the reasoning channel (what the model wrote that a reader of the answer
does not see), and the plain-text layout of lists and message parts."""

from __future__ import annotations

import re
from collections.abc import Sequence

from inspect_ai.model import ChatMessageAssistant, ContentReasoning

_THINK_BLOCK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_UNOPENED_THINK = re.compile(r"^.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_UNCLOSED_THINK = re.compile(r"<think(?:ing)?>.*\Z", re.DOTALL | re.IGNORECASE)
_FINAL_CHANNEL = re.compile(
    r"<\|channel\|>\s*final\s*(?:<\|constrain\|>[^<]*)?<\|message\|>(.*?)(?=<\|(?:end|return|call|start)\|>|\Z)",
    re.DOTALL,
)
_CHANNEL_SEGMENT = re.compile(
    r"<\|channel\|>.*?<\|message\|>.*?(?:<\|(?:end|return|call)\|>|\Z)", re.DOTALL
)
_SPECIAL_TOKEN = re.compile(r"<\|[a-z_]+\|>")


def visible_text(reply: str) -> str:
    """Return what a reader sees of `reply` (docs/scoring.md: no `<think>` block, only the
    `final` channel of channel-formatted output)."""
    text = _THINK_BLOCK.sub("", reply)
    if re.search(r"</think(?:ing)?>", text, re.IGNORECASE):
        text = _UNOPENED_THINK.sub("", text)
    text = _UNCLOSED_THINK.sub("", text)
    if "<|channel|>" in text:
        finals = _FINAL_CHANNEL.findall(text)
        text = "\n".join(finals) if finals else _CHANNEL_SEGMENT.sub("", text)
    return _SPECIAL_TOKEN.sub("", text).strip()


_THINK_CONTENT = re.compile(
    r"<think(?:ing)?>(.*?)(?:</think(?:ing)?>|\Z)", re.DOTALL | re.IGNORECASE
)
_LEADING_THINK = re.compile(r"^(.*?)</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_NON_FINAL_CHANNEL = re.compile(
    r"<\|channel\|>\s*(?!final\b)[a-z]+\s*(?:<\|constrain\|>[^<]*)?<\|message\|>(.*?)"
    r"(?=<\|(?:end|return|call|start|channel)\|>|\Z)",
    re.DOTALL,
)


def reasoning_text(reply: str) -> str:
    """Return what `visible_text` hides of `reply`: `<think>` blocks (also a leading block whose
    opening tag was in the prompt) and non-final channels (analysis, commentary)."""
    parts: list[str] = []
    if not re.search(r"<think(?:ing)?>", reply, re.IGNORECASE):
        leading = _LEADING_THINK.match(reply)
        if leading:
            parts.append(leading.group(1))
    parts += _THINK_CONTENT.findall(reply)
    if "<|channel|>" in reply:
        parts += _NON_FINAL_CHANNEL.findall(reply)
    return "\n".join(p.strip() for p in parts if p.strip())


def message_reasoning(message: ChatMessageAssistant) -> str:
    """All reasoning of one assistant message: Inspect `ContentReasoning` blocks (unless
    redacted) and the reasoning markup inside its text."""
    blocks = [] if isinstance(message.content, str) else message.content
    parts = [b.reasoning for b in blocks if isinstance(b, ContentReasoning) and not b.redacted]
    return "\n".join(p for p in [*parts, reasoning_text(message.text)] if p)


def bullets(values: Sequence[str]) -> str:
    """One `- value` line per value, or `- (none)`."""
    return "\n".join(f"- {v}" for v in values) if values else "- (none)"


def joined(*parts: str) -> str:
    """Text parts as one plain-text message, separated by a blank line."""
    return "\n\n".join(part for part in parts if part)
