"""The detectors' word lists, reply cues and the paper matcher's tables, read once from
`lexicon.toml` beside this module (what each list is: the comments there)."""

import tomllib
from importlib.resources import files
from typing import Any

LEXICON: dict[str, Any] = tomllib.loads((files(__package__) / "lexicon.toml").read_text("utf-8"))
CUES: dict[str, Any] = LEXICON["cues"]

STOPWORDS: frozenset[str] = frozenset(LEXICON["stopwords"])
ORDINALS: tuple[str, ...] = tuple(LEXICON["ordinals"])
LEGAL_FORMS: frozenset[str] = frozenset(LEXICON["legal_forms"])
LEGAL_FORM_JOINERS: frozenset[str] = frozenset(LEXICON["legal_form_joiners"])


def alternation(words: list[str], capture: bool = False) -> str:
    """The regular-expression group matching any of `words` (alternatives, in their order)."""
    return ("(" if capture else "(?:") + "|".join(words) + ")"


def currency_pattern(*more: str) -> str:
    """A currency word as a whole word (or $, € or £); `more` names other `amounts` lists."""
    words = [w for key in ("currency", *more) for w in LEXICON["amounts"][key]]
    return rf"(?<![^\W\d_]){alternation(words)}(?![^\W\d_])|[$\u20ac\u00a3]"


def masked_cue_pattern() -> str:
    """What shows a masked number's digits: a `masked` cue as a whole word, `***`, `xx`, `...`."""
    cue = alternation(LEXICON["masked"]["cues"])
    return rf"(?<![^\W\d_]){cue}(?![^\W\d_])|[*\u2022]{{3,}}+|(?<![^\W\d_])x{{2,}}+|\.{{3}}"
