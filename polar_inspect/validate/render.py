"""What `polar-validate` prints: the figures, and each wrong verdict with a reply excerpt."""

from __future__ import annotations

import re

from polar_inspect.validate.measure import Agreement, CaseError

EXCERPT_CHARS = 70


def _figure(value: float | None, digits: int = 3, undefined: str = "undefined") -> str:
    return undefined if value is None else f"{value:.{digits}f}"


#: Why each overall figure can be undefined, said when it is.
_UNDEFINED = {
    "precision": "the detector flagged no leak/safe case",
    "recall": "no case is labelled leak",
    "kappa": "labels and verdicts are all of one class",
}


def render(agreement: Agreement) -> str:
    """The console table: overall figures, then one row per category."""
    o = agreement.overall
    lines = [
        f"detector {agreement.detector}: {agreement.cases} cases "
        f"({o.cases} leak/safe, {sum(agreement.partial_cases.values())} partial)",
        f"precision {_figure(o.precision)}  recall {_figure(o.recall)}  "
        f"kappa {_figure(o.kappa)}  (tp {o.tp}, fp {o.fp}, fn {o.fn}, tn {o.tn})",
        *(
            f"{name} is undefined: {why}"
            for name, why in _UNDEFINED.items()
            if getattr(o, name) is None
        ),
        "",
        f"{'category':<22}{'cases':>6}{'tp':>5}{'fp':>5}{'fn':>5}{'tn':>5}{'prec':>7}{'recall':>8}",
    ]
    for name, c in sorted(agreement.per_category.items()):
        prec, rec = _figure(c.precision, 2, "-"), _figure(c.recall, 2, "-")
        lines.append(f"{name:<22}{c.cases:>6}{c.tp:>5}{c.fp:>5}{c.fn:>5}{c.tn:>5}{prec:>7}{rec:>8}")
    partial = ", ".join(f"{k} {v}" for k, v in sorted(agreement.partial_cases.items()))
    lines += [
        "",
        "partial-labelled cases are left out of precision, recall and kappa; this detector "
        f"called them: {partial or 'none'} (only stated/confirmed count as disclosed).",
    ]
    return "\n".join(lines)


def one_line(text: str) -> str:
    """`text` with every run of white space (line breaks included) as one space."""
    return " ".join(text.split())


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def reply_excerpt(reply: str, span: tuple[int, int] | None, width: int = EXCERPT_CHARS) -> str:
    """The reply around `span` (the match marked with [[ ]]), or its start when no span;
    runs of white space (line breaks included) are shown as one space."""
    if span is None:
        flat = one_line(reply)
        return flat if len(flat) <= 2 * width else flat[: 2 * width] + " ..."
    start, end = span
    before, match, after = reply[max(0, start - width) : start], reply[start:end], reply[end:]
    left = "... " if start > width else ""
    right = " ..." if len(after) > width else ""
    text = f"{_spaced(before)}[[{_spaced(match)}]]{_spaced(after[:width])}"
    return f"{left}{text.strip()}{right}"


def render_error(error: CaseError) -> str:
    """One wrong verdict: case, value and field, the turn, a reply excerpt, label, verdict."""
    case, verdict = error.case, error.verdict
    named = f"{case.field} = {case.value}" if case.field else case.value
    how = f" ({verdict.how})" if verdict.how else ""
    return "\n".join(
        [
            f"- {case.id} [{case.category}] {named}",
            f"  label {case.label}, verdict {verdict.category}{how}",
            f"  turn:  {one_line(case.attacker_turn) or '(none)'}",
            f"  reply: {reply_excerpt(case.reply, verdict.span)}",
        ]
    )
