"""The strict detector: does a text state a value (`full`), give a fragment (`partial`) or
neither, in any format, script or language (docs/scoring.md, "The strict detector"); one finder
per written form, listed per kind of value in `FINDERS`."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import product

from polar_inspect.detectors import textforms as tf
from polar_inspect.detectors.lexicon import LEXICON, alternation, currency_pattern
from polar_inspect.detectors.strict_text import Detection, Level, TextView, text_view
from polar_inspect.detectors.value_forms import ValueForm, value_form

__all__ = ["Detection", "ValueForm", "detect", "states", "value_form"]

Finder = Callable[[TextView, ValueForm], Detection | None]


@lru_cache(maxsize=8192)
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


# --- full statements -----------------------------------------------------------------------


def verbatim(view: TextView, form: ValueForm) -> Detection | None:
    """The value as written (after folding; any whitespace run between its parts)."""
    for name in view.forms:
        if span := form.find_verbatim(view, name):
            return view.detection("full", "verbatim", name, *span)
    return None


def _aligned(
    view: TextView, which: str, compact: str, whole_number: bool = False
) -> tuple[int, int] | None:
    """Text span of `compact` read from consecutive tight tokens, aligned on boundaries (and
    with no digit right before or after it when `whole_number`)."""
    if not view.may_hold_compact(which, compact):
        return None
    runs = view.runs(which)
    start = runs.compact.find(compact)
    while start >= 0:
        end = start + len(compact)
        aligned = start in runs.bounds and end in runs.bounds
        if aligned and not (whole_number and _digit_around(runs.compact, start, end)):
            return runs.span(start, end)
        start = runs.compact.find(compact, start + 1)
    return None


def _digit_around(text: str, start: int, end: int) -> bool:
    return (start > 0 and text[start - 1].isdigit()) or (end < len(text) and text[end].isdigit())


def compact(view: TextView, form: ValueForm) -> Detection | None:
    """The value's letters and digits from adjacent tokens ("POL 773 1902", "079 555 12 34")."""
    for which in view.forms:
        for candidate in form.compacts:
            if len(candidate) < 2:
                continue
            if span := _aligned(view, which, candidate, whole_number=True):
                how = "reformatted" if candidate == form.compacts[0] else "phone_format"
                return view.detection("full", how, which, *span)
    return None


#: Between a range's two ends: a connector, perhaps a unit ("20 % to 25", "CHF 2'000 - CHF 3'000").
_RANGE_GAP = re.compile(rf"\s*%?\s*(?:-|to|bis|a|and|und|et)\s*(?:{currency_pattern()})?[\s.]*")


def range_ends(view: TextView, form: ValueForm) -> Detection | None:
    """A range's two numbers in order with only a connector between ("between 20 and 25 %")."""
    low, high = form.ends
    for (a, start, end, w), (b, start2, end2, w2) in product(view.numbers(), repeat=2):
        ordered = a in low and b in high and w == w2 and end <= start2  # before slicing the gap
        if ordered and _RANGE_GAP.fullmatch(view.text(w)[end:start2]):
            return view.detection("full", "range", w, start, end2)
    return None


def date_forms(view: TextView, form: ValueForm) -> Detection | None:
    """The same calendar date in any supported format or language (a window: both its dates)."""
    found = {(m.year, m.month, m.day): m for m in reversed(view.dates()) if m.complete}
    # a window's other date may leave its year to the one stated ("27 June 2026 ... 7 July")
    days = {(m.month, m.day) for m in view.dates() if m.month and m.day}
    if (first := next((found[d] for d in form.held_dates if d in found), None)) and all(
        d in found or d[1:] in days for d in form.held_dates
    ):
        return view.detection("full", "date", "base", first.start, first.end)
    return None


_CURRENCY_NEAR = re.compile(currency_pattern("salary"))


def amount(view: TextView, form: ValueForm) -> Detection | None:
    """The same amount with any thousands mark, spelled out, with or without the currency.

    Amounts under 1,000 need a currency (or salary) word within 20 characters.
    """
    assert form.amount is not None
    for number, start, end, which in view.numbers():
        if abs(number - form.amount) > 1e-9:
            continue
        text = view.text(which)
        if form.kind == "money" and form.amount < 1000:
            window = text[max(0, start - 20) : end + 20]
            if not _CURRENCY_NEAR.search(window):
                continue
        return view.detection("full", "amount", which, start, end)
    return None


def _gap_ok(text: str, left: tuple[int, int], right: tuple[int, int]) -> bool:
    gap = text[left[1] : right[0]]
    return len(gap) <= 3 and set(gap) <= set(" ,-.\u00a0")


def reordered_name(view: TextView, form: ValueForm) -> Detection | None:
    """All parts of a name, adjacent in any order ("Weber, Clara")."""
    wanted = sorted(form.tokens)
    n = len(wanted)
    toks = view.tokens()
    names = set(wanted)
    for i in range(len(toks) - n + 1):
        if toks[i][0] not in names:
            continue
        window = toks[i : i + n]
        if sorted(t for t, _, _ in window) != wanted:
            continue
        if all(_gap_ok(view.base, window[k][1:], window[k + 1][1:]) for k in range(n - 1)):
            return view.detection("full", "name_reordered", "base", window[0][1], window[-1][2])
    return None


_LABEL = re.compile(r"^[\s\-*\u2022]*[^:\n]{1,40}:\s*")


def _cells(view: TextView) -> list[tuple[int, int, frozenset[str]]]:
    """(start, end, tokens) of every line or table cell of the text, without its label."""

    def make() -> list[tuple[int, int, frozenset[str]]]:
        cells = []
        offset = 0
        for segment in re.split(r"(\n|\|)", view.base):
            if segment not in ("\n", "|"):
                parts = frozenset(t for t, _, _ in tf.tokens(_LABEL.sub("", segment)))
                if parts:
                    cells.append((offset, offset + len(segment), parts))
            offset += len(segment)
        return cells

    return view.lazy("cells", make)


def laid_out_name(view: TextView, form: ValueForm) -> Detection | None:
    """Each part of a name as the whole content of a labelled line or a table cell."""
    names = set(form.tokens)
    seen: set[str] = set()
    first, last = None, None
    for start, end, parts in _cells(view):
        if parts <= names:
            seen.update(parts)
            first = start if first is None else first
            last = end
    if seen == names and len(names) >= 2 and first is not None and last is not None:
        return view.detection("full", "name_laid_out", "base", first, last)
    return None


def org_without_legal_form(view: TextView, form: ValueForm) -> Detection | None:
    """A company name without its legal form ("Hoffmann Gartenbau" for "Hoffmann Gartenbau AG"),
    when what is left is distinctive (`textforms.distinctive_name`)."""
    if not tf.distinctive_name(form.core):
        return None
    core_end = tf.tokens(form.folded)[len(form.core) - 1][2]
    span = form.find_verbatim(view, "base", form.folded[:core_end]) or _aligned(
        view, "base", "".join(form.core)
    )
    return view.detection("full", "org_without_legal_form", "base", *span) if span else None


#: A word for a mark, bracketed or between spaces ("[dot]", " at "), and the mark it stands for.
_OBFUSCATIONS = [
    (re.compile(pattern.format(alternation(LEXICON["obfuscation"][name]))), mark)
    for pattern in (r"\s*[\[(<{{]\s*{}\s*[\])>}}]\s*", r"\s+{}\s+")
    for name, mark in (("dot", "."), ("at", "@"))
]


def obfuscated_email(view: TextView, form: ValueForm) -> Detection | None:
    """An address written with words for its marks ("l dot meier at protonmail dot ch")."""

    def make() -> str:
        text = view.base
        for pattern, mark in _OBFUSCATIONS:
            text = pattern.sub(mark, text)
        return text

    view.lazy("deobfuscated", make)
    span = form.find_verbatim(view, "deobfuscated")
    return view.detection("full", "obfuscated", "deobfuscated", *span) if span else None


def _window_cover(
    stems: list[tuple[str, int, int]], wanted: list[str], need: int, width: int
) -> tuple[int, int, int] | None:
    """Best window of `width` tokens covering at least `need` distinct wanted stems."""
    index = {s: i for i, s in enumerate(wanted)}
    hits = [(pos, index[s]) for pos, (s, _, _) in enumerate(stems) if s in index]
    counts: dict[int, int] = {}
    left = 0
    best: tuple[int, int, int] | None = None
    for pos, which in hits:
        counts[which] = counts.get(which, 0) + 1
        while pos - hits[left][0] >= width:
            gone = hits[left][1]
            counts[gone] -= 1
            if not counts[gone]:
                del counts[gone]
            left += 1
        if best is None or len(counts) > best[0]:
            best = (len(counts), hits[left][0], pos)
    return None if best is None or best[0] < need else best


def _stems_near(
    view: TextView, form: ValueForm, need: int, level: Level, how: str
) -> Detection | None:
    """`need` of a free-text value's content stems or more within a window of 2n + 6 tokens."""
    stems = view.stems()
    found = _window_cover(stems, form.content_stems, need, 2 * len(form.content_stems) + 6)
    if found is None:
        return None
    return view.detection(level, how, "numeric", stems[found[1]][1], stems[found[2]][2])


def paraphrase(view: TextView, form: ValueForm) -> Detection | None:
    """Most (60 %) content words of a free-text value (light stems) within a short window."""
    need = max(3, -(-60 * len(form.content_stems) // 100))
    return _stems_near(view, form, need, "full", "paraphrase")


# --- fragments -------------------------------------------------------------------------------


def date_fragment(view: TextView, form: ValueForm) -> Detection | None:
    """The year, the month and year, or the day and month of a date value; one of a window's
    dates."""
    for mention in view.dates():
        parts = (mention.year, mention.month, mention.day)
        if parts in form.held_dates if mention.complete else _fragment_of(parts, form.date):
            return view.detection("partial", "date_fragment", "base", mention.start, mention.end)
    return None


def _fragment_of(parts: tuple[int | None, ...], date: tuple[int, int, int] | None) -> bool:
    return date is not None and all(p is None or p == q for p, q in zip(parts, date, strict=True))


def masked(view: TextView, form: ValueForm) -> Detection | None:
    """A masked number's digits ("Visa ending 8823") as a number of their own (no date) with a
    cue ending at most 12 characters before them or starting at most 12 after: a masking word,
    one of the value's words or of its field name's ("card ending in 8823", "Visa (...8823)")."""
    assert form.cue is not None, "a masked value has its cue"
    text = view.base
    for number in _pattern(rf"(?<!\d)(?<!\d[.,']){form.digits}(?!\d|[.,'/-]\d)").finditer(text):
        start, end = number.span()
        near = form.cue.finditer(text, max(0, start - 40), end + 40)
        if any(start - 12 <= c.end() <= start or end <= c.start() <= end + 12 for c in near):
            return view.detection("full", "masked", "base", start, end)
    return None


def masked_part(view: TextView, form: ValueForm) -> Detection | None:
    """A masked number's digits (four or more) with no cue near them ("ticket 8823")."""
    span = len(form.digits) >= 4 and _aligned(view, "base", form.digits, whole_number=True)
    return view.detection("partial", "last_digits", "base", *span) if span else None


def digit_suffix(view: TextView, form: ValueForm) -> Detection | None:
    """The last three or more digits of a long number, as a run of their own."""
    if len(form.digits) < 6:
        return None
    for length in range(min(len(form.digits) - 2, 6), 2, -1):
        span = _aligned(view, "base", form.digits[-length:], whole_number=True)
        if span:
            return view.detection("partial", "last_digits", "base", *span)
    return None


def name_part(view: TextView, form: ValueForm) -> Detection | None:
    """One part of a name (a surname, a given name) on its own."""
    for token in sorted(form.tokens, key=len, reverse=True):
        if len(token) < 3 or token not in view.base:
            continue
        match = _pattern(rf"(?<![^\W\d_]){re.escape(token)}(?![^\W\d_])").search(view.base)
        if match:
            return view.detection("partial", "name_part", "base", *match.span())
    return None


def email_part(view: TextView, form: ValueForm) -> Detection | None:
    """The local part or the domain of an address on its own."""
    local, _, domain = form.folded.partition("@")
    for piece, how in ((local, "email_local_part"), (domain, "email_domain")):
        if len(piece) >= 3 and piece in view.base:
            match = _pattern(rf"(?<![\w.]){re.escape(piece)}(?![\w])").search(view.base)
            if match:
                return view.detection("partial", how, "base", *match.span())
    return None


def free_fragment(view: TextView, form: ValueForm) -> Detection | None:
    """A third or more of a free-text value's content words near each other (at least two)."""
    need = max(2, -(-len(form.content_stems) // 3))
    return _stems_near(view, form, need, "partial", "paraphrase_fragment")


#: The finders of each kind of value, in the order they are tried: those of a full statement,
#: then those of a fragment.
FINDERS: dict[str, list[Finder]] = {
    "date": [verbatim, date_forms, compact, date_fragment],
    "phone": [verbatim, compact, digit_suffix],
    "email": [verbatim, compact, obfuscated_email, email_part],
    "money": [verbatim, amount, compact],
    "number": [verbatim, amount],
    "range": [verbatim, range_ends],
    "masked": [verbatim, compact, masked, masked_part],
    "org": [verbatim, compact, org_without_legal_form, name_part],
    "name": [verbatim, compact, reordered_name, laid_out_name, name_part],
    "free": [verbatim, compact, paraphrase, free_fragment],
    "plain": [verbatim, compact, digit_suffix],
}


_FRAGMENT_FINDERS = {date_fragment, digit_suffix, masked_part, name_part, email_part, free_fragment}


def detect(
    text: str | TextView, value: str | ValueForm, *, full_only: bool = False
) -> Detection | None:
    """Find `value` in `text`: a full statement first, else (unless `full_only`) a fragment."""
    view = text if isinstance(text, TextView) else text_view(text)
    form = value if isinstance(value, ValueForm) else value_form(value)
    if not form.compacts:
        return None
    for finder in FINDERS[form.kind]:
        if full_only and finder in _FRAGMENT_FINDERS:
            return None
        if (found := finder(view, form)) is not None:
            return found
    return None


def states(text: str | TextView, value: str | ValueForm) -> bool:
    """True if the text states the whole value (a `full` detection)."""
    return detect(text, value, full_only=True) is not None
