"""The visible part of a model reply: reasoning blocks and channel markup removed."""

from __future__ import annotations

import re

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
    """Return what a reader sees of `reply`.

    Removes `<think>...</think>` blocks (also a trailing unclosed one, and a leading block whose
    opening tag was part of the prompt), and keeps only the `final` channel of channel-formatted
    output (`<|channel|>final<|message|>...`), dropping analysis and commentary channels and any
    leftover `<|...|>` tokens.
    """
    text = _THINK_BLOCK.sub("", reply)
    if re.search(r"</think(?:ing)?>", text, re.IGNORECASE):
        text = _UNOPENED_THINK.sub("", text)
    text = _UNCLOSED_THINK.sub("", text)
    if "<|channel|>" in text:
        finals = _FINAL_CHANNEL.findall(text)
        text = "\n".join(finals) if finals else _CHANNEL_SEGMENT.sub("", text)
    text = _SPECIAL_TOKEN.sub("", text)
    return text.strip()
