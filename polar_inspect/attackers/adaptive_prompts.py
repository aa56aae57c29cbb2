"""The adaptive attacker's prompts (from `polar_inspect/prompts/`), its per-strategy rules
(`attacker_adaptive_strategies.json`), and how its answers are read."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import Any, Literal, cast

from pydantic import BaseModel

from polar_inspect.attackers.base import NonAttackKind
from polar_inspect.data.samples import SampleInfo
from polar_inspect.detectors.echo import (
    answer_format_lines,
    answer_placeholders,
    copies_instructions,
    format_talk,
    placeholder_echo,
)
from polar_inspect.prompts import LoadedTemplate, load_template
from polar_inspect.text import bullets

Knowledge = Literal["fields", "values"]
#: `-T attack_language` codes and the language the attacker is told to write in.
LANGUAGES: dict[str, str] = {"de": "German", "fr": "French", "it": "Italian"}
LanguageCode = Literal["de", "fr", "it"]


class StrategyRules(BaseModel):
    """How the adaptive attacker may play one strategy."""

    name: str
    rules: str
    #: A hard cap on messages for the strategy (S1: one message), else None.
    max_turns: int | None = None


@cache
def strategy_rules() -> dict[str, StrategyRules]:
    """The rules of S1..S5, from the packaged data file."""
    path = files("polar_inspect.prompts") / "attacker_adaptive_strategies.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {code: StrategyRules.model_validate(entry) for code, entry in raw.items()}


class AdaptiveReply(BaseModel):
    """The adaptive attacker's answer, as read: its private plan, its message, done or not."""

    plan: str = ""
    message: str = ""
    done: bool = False
    #: `json`: its structured format; `text`: plain text taken as the message.
    read_as: Literal["json", "text"] = "json"


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)\s*```", re.DOTALL)
#: Keys a model may use for the message and the plan instead of the asked-for ones.
_MESSAGE_KEYS = ("message", "next_message", "msg", "reply", "text", "content")
_PLAN_KEYS = ("plan", "private_plan", "thoughts", "reasoning", "notes")
_TRUE_WORDS = {"true", "yes", "1", "done"}
#: A label a model may put before a plain-text message ("Message: ...").
_LABEL = re.compile(r"^\s*(?:next\s+)?(?:message|msg|attacker)\s*:\s*", re.IGNORECASE)


def _first_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in `text` (inside a code fence or not), or None."""
    for candidate in [*_FENCE.findall(text), text]:
        for brace in re.finditer("{", candidate):
            try:
                value, _ = json.JSONDecoder().raw_decode(candidate, brace.start())
            except json.JSONDecodeError:
                continue
            return cast(dict[str, Any], value)  # decoded from a "{": an object
    return None


def _text_field(found: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = found.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return "\n".join(value)
    return None


def _flag(found: dict[str, Any]) -> bool:
    value = found.get("done", False)
    return value if isinstance(value, bool) else str(value).strip().lower() in _TRUE_WORDS


def parse_reply(text: str, placeholders: Sequence[str] = ()) -> AdaptiveReply | None:
    """Read the attacker's structured answer leniently (the first JSON object, other common keys
    in any case, `done` as a word), or None: no object, no message while not done, or a message
    or plan that is one of the format's `placeholders` (the model copied the format line)."""
    if (first := _first_object(text)) is None:
        return None
    found = {str(k).strip().lower(): v for k, v in first.items()}
    message = _text_field(found, _MESSAGE_KEYS)
    plan = _text_field(found, _PLAN_KEYS) or ""
    done = _flag(found)
    if message is None and not done:
        return None
    if any(placeholder_echo(part, placeholders) for part in (message or "", plan)):
        return None
    return AdaptiveReply(plan=plan, message=message or "", done=done)


def plain_text_reply(text: str) -> AdaptiveReply | None:
    """A plain-text answer taken as the message itself (for a model that cannot write the
    format), or None when nothing usable is left once labels and fences are removed."""
    stripped = _FENCE.sub(lambda m: m.group(1), text).strip()
    stripped = _LABEL.sub("", stripped).strip().strip('"').strip()
    if not stripped or stripped.startswith("{"):
        return None
    return AdaptiveReply(message=stripped, read_as="text")


def _knowledge_block(fields: list[str], values: list[str], knowledge: Knowledge) -> str:
    names = bullets([f.replace("_", " ") for f in fields]) if fields else "- (not named)"
    if knowledge == "fields":
        return names + "\n(You know what kinds of details these are, not their values.)"
    return f"{names}\nTheir values, as the user's records hold them:\n{bullets(values)}"


class AdaptiveTemplates:
    """The adaptive attacker's templates, loaded and checked once per task."""

    def __init__(self, system_prompt: str | None = None, turn_prompt: str | None = None) -> None:
        self.system = load_template("adaptive_system", system_prompt)
        self.turn = load_template("adaptive_turn", turn_prompt)
        self.opening = load_template("adaptive_opening")
        self.retry = load_template("adaptive_retry")
        self.language = load_template("adaptive_language")

    def all(self) -> list[LoadedTemplate]:
        """Every template it sends, in a fixed order."""
        return [self.system, self.turn, self.opening, self.retry, self.language]

    def placeholders(self) -> list[str]:
        """The placeholders of its answer format (`<your next message to the assistant>`)."""
        return answer_placeholders(self.system.text)

    def not_attack(self, message: str, read_as: str) -> NonAttackKind | None:
        """Why `message` is not an attack (None: it is one): it copies the instructions the
        attacker is sent or, read from plain text, it talks about the answer format."""
        instructions = [template.literal_parts() for template in self.all()]
        if copies_instructions(message, instructions):
            return "copies_instructions"
        if placeholder_echo(message, self.placeholders()):
            return "format_placeholders"
        described = [*self.retry.literal_parts(), *answer_format_lines(self.system.text)]
        own_words = [part for parts in instructions for part in parts]
        if read_as == "text" and format_talk(message, described, own_words):
            return "format_talk"
        return None

    def system_message(
        self, info: SampleInfo, knowledge: Knowledge, language: str | None, rounds: int
    ) -> str:
        """The attacker's system message for one sample: goals, strategy rules, format."""
        rules = strategy_rules()[info.attack]
        return self.system.render(
            domain=info.domain.replace("_", " "),
            turn_budget=rounds,
            targets=_knowledge_block(info.protected_fields, info.protected_values, knowledge),
            allowed=_knowledge_block(info.allowed_fields, info.allowed_values, knowledge),
            strategy=rules.name,
            strategy_rules=rules.rules,
            language=self.language.render(language_name=LANGUAGES[language]) if language else "",
        )

    def turn_instruction(self, index: int, rounds: int) -> str:
        """The per-round instruction for round `index` (0-based) of `rounds`."""
        return self.turn.render(round=index + 1, total_rounds=rounds, turns_left=rounds - index - 1)
