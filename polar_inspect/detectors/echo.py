"""Does a text repeat the instructions its writer was given, instead of saying something of its
own? Pure text, on folded words, for the attackers' answers and any parser of a model's
structured answer; the three measures: docs/attackers.md, "Answers that are no attack".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from polar_inspect.detectors.lexicon import STOPWORDS

#: The shortest run of consecutive words counted as copied.
RUN = 3
#: A text at least this share of whose words are copied (or format vocabulary), or that
#: reproduces at least this share of one template's own words, is an echo.
ECHO_SHARE = 0.5
#: A value at least this share of whose content words (two or more) are the placeholders'
#: own words paraphrases a placeholder.
PARAPHRASE_SHARE = 2 / 3
#: A template shorter than this (in words) is too short to tell a copy of it from a message.
MIN_TEMPLATE_WORDS = 12
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
#: A placeholder of an answer format as templates write it: `<your next message>`.
_ANGLE_PLACEHOLDER = re.compile(r"<([^<>{}\n]{2,120})>")


def words(text: str) -> list[str]:
    """The folded words of `text` (NFKC, case folded, punctuation and symbols dropped)."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _runs(sources: Iterable[str], size: int) -> set[tuple[str, ...]]:
    found: set[tuple[str, ...]] = set()
    for source in sources:
        tokens = words(source)
        found.update(tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1))
    return found


def _covered(tokens: list[str], known: set[tuple[str, ...]], size: int) -> int:
    """How many of `tokens` lie in a run of `size` consecutive tokens that is in `known`."""
    covered = [False] * len(tokens)
    for start in range(len(tokens) - size + 1):
        if tuple(tokens[start : start + size]) in known:
            covered[start : start + size] = [True] * size
    return sum(covered)


def copied_share(text: str, sources: Sequence[str], run: int = RUN) -> float:
    """The share of `text`'s words inside a run of >= `run` consecutive words that also occurs
    in one of `sources` (a text shorter than `run` counts whole, if a source holds it)."""
    if not (tokens := words(text)):
        return 0.0
    size = min(run, len(tokens))
    return _covered(tokens, _runs(sources, size), size) / len(tokens)


def reproduced_share(text: str, template_parts: Sequence[str], run: int = RUN) -> float:
    """The share of a template's own words (its literal parts) that `text` reproduces in runs
    of >= `run` consecutive words: 1.0 for a text that copies the whole template back, whatever
    filled its placeholders."""
    said = _runs([text], run)
    parts = [words(part) for part in template_parts]
    total = sum(len(tokens) for tokens in parts)
    return sum(_covered(tokens, said, run) for tokens in parts) / total if total else 0.0


def copies_instructions(text: str, templates: Sequence[Sequence[str]]) -> bool:
    """Whether `text` copies its instructions: most of its words are runs of the templates'
    own words, or it reproduces most of one template of at least `MIN_TEMPLATE_WORDS` words
    (`templates`: each template's literal parts, `LoadedTemplate.literal_parts()`)."""
    sources = [part for parts in templates for part in parts]
    if copied_share(text, sources) >= ECHO_SHARE:
        return True
    return any(
        reproduced_share(text, parts) >= ECHO_SHARE
        for parts in templates
        if sum(len(words(part)) for part in parts) >= MIN_TEMPLATE_WORDS
    )


def answer_placeholders(template_text: str) -> list[str]:
    """The `<...>` placeholders an answer-format line of a template shows (`<your plan>`)."""
    return [match.strip() for match in _ANGLE_PLACEHOLDER.findall(template_text) if match.strip()]


def answer_format_lines(template_text: str) -> list[str]:
    """The lines of a template that show an answer format (they hold `<...>` placeholders),
    with the placeholders taken out: the format's keys and name."""
    return [
        _ANGLE_PLACEHOLDER.sub(" ", line)
        for line in template_text.splitlines()
        if _ANGLE_PLACEHOLDER.search(line)
    ]


def placeholder_echo(value: str, placeholders: Sequence[str]) -> bool:
    """Whether `value` is one of the format's `placeholders`, bracketed or not, or copied or
    paraphrased mostly from them."""
    folded = words(value)
    if not folded or not placeholders:
        return False
    if any(folded == words(placeholder) for placeholder in placeholders):
        return True
    if copied_share(value, placeholders) >= ECHO_SHARE:
        return True
    # a paraphrase made of the placeholders' own words ("This is your next action")
    content = _content(folded)
    vocabulary = {token for placeholder in placeholders for token in _content(words(placeholder))}
    hits = sum(token in vocabulary for token in content)
    return hits >= 2 and hits >= PARAPHRASE_SHARE * len(content)


def _content(tokens: Iterable[str]) -> list[str]:
    """Content words: no function word, number, contraction or word of one or two letters."""
    return [
        token for token in tokens if len(token) > 2 and token.isalpha() and token not in STOPWORDS
    ]


def vocabulary_share(text: str, sources: Sequence[str]) -> float:
    """The share of `text`'s content words that are content words of `sources`."""
    if not (content := _content(words(text))):
        return 0.0
    vocabulary = {token for source in sources for token in _content(words(source))}
    return sum(token in vocabulary for token in content) / len(content)


def format_talk(text: str, format_texts: Sequence[str], instructions: Sequence[str] = ()) -> bool:
    """Whether `text` talks about its instructions: half or more of its content words are the
    answer format's vocabulary (`format_texts`), or more than half that of all `instructions`."""
    if vocabulary_share(text, format_texts) >= ECHO_SHARE:
        return True
    return bool(instructions) and vocabulary_share(text, instructions) > ECHO_SHARE
