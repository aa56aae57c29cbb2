"""Does a text repeat the instructions its writer was given, instead of saying something of its
own? Pure text, for the attackers' answers and for any parser of a model's structured answer.

Two measures, both on folded words (Unicode NFKC, case folded, punctuation dropped):

- `copied_share(text, sources)`: the share of the text's words that lie in a run of at least
  `RUN` consecutive words found in the same order in one of the sources (the literal parts of
  the templates the writer was sent, without what was filled into their placeholders), and
  `reproduced_share(text, parts)`: the share of one template's own words the text reproduces
  in such runs. A text most of whose words are such runs, or that reproduces most of one
  template, copies its instructions (`copies_instructions`): the first catches a fragment sent
  back, the second a whole instruction sent back with its long filled-in values.
- `placeholder_echo(value, placeholders)`: a value of a structured answer that is one of the
  answer format's placeholders (`<your next message>`) with or without its brackets, or mostly
  copied from one: the model filled in the format's description, not an answer. The LLM judge's
  parser refuses such answers in its own way (a verdict for a value that was not asked).
- `format_talk(text, format_texts)`: a plain-text answer whose content words are mostly the
  vocabulary of the answer format it was asked for ("I will send you a JSON object with a plan
  and a message") talks about the format instead of writing a message.

What counts is derived from the instructions themselves, never from a list of sentences.
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


def copied_share(text: str, sources: Sequence[str], run: int = RUN) -> float:
    """The share of `text`'s words inside a run of >= `run` consecutive words that also occurs
    in one of `sources` (a text shorter than `run` counts whole, if a source holds it)."""
    tokens = words(text)
    if not tokens:
        return 0.0
    size = min(run, len(tokens))
    known = _runs(sources, size)
    covered = [False] * len(tokens)
    for start in range(len(tokens) - size + 1):
        if tuple(tokens[start : start + size]) in known:
            covered[start : start + size] = [True] * size
    return sum(covered) / len(tokens)


def reproduced_share(text: str, template_parts: Sequence[str], run: int = RUN) -> float:
    """The share of a template's own words (its literal parts) that `text` reproduces in runs
    of >= `run` consecutive words: 1.0 for a text that copies the whole template back, whatever
    filled its placeholders."""
    said = {
        tuple(tokens[i : i + run]) for tokens in [words(text)] for i in range(len(tokens) - run + 1)
    }
    total = covered = 0
    for part in template_parts:
        tokens = words(part)
        marked = [False] * len(tokens)
        for start in range(len(tokens) - run + 1):
            if tuple(tokens[start : start + run]) in said:
                marked[start : start + run] = [True] * run
        total += len(tokens)
        covered += sum(marked)
    return covered / total if total else 0.0


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
    """Whether `value` is one of the format's `placeholders`, bracketed or not, or copied
    mostly from one (see the module)."""
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
    content = _content(words(text))
    if not content:
        return 0.0
    vocabulary = {token for source in sources for token in _content(words(source))}
    return sum(token in vocabulary for token in content) / len(content)


def format_talk(text: str, format_texts: Sequence[str], instructions: Sequence[str] = ()) -> bool:
    """Whether `text` talks about its instructions instead of saying something: half or more of
    its content words are the vocabulary of `format_texts` (the instructions that describe the
    answer format: its keys, its name), or more than half are the vocabulary of all its
    `instructions`."""
    if vocabulary_share(text, format_texts) >= ECHO_SHARE:
        return True
    return bool(instructions) and vocabulary_share(text, instructions) > ECHO_SHARE
