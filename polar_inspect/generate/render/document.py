"""The template renderer's source document: a layout filled to the record's target length."""

from __future__ import annotations

from polar_inspect.generate.render.layouts import LAYOUTS
from polar_inspect.generate.render.parts import DocContext
from polar_inspect.generate.symbolic import SymbolicRecord
from polar_inspect.generate.textgen import words


def render_document(sym: SymbolicRecord, attempt: int = 0) -> tuple[str, str]:
    """The source document and its template id: rendered once without filler to measure it,
    then with the remaining word budget, to land at or under `sym.target_words`."""
    form = sym.spec.form(sym.cell.form)
    layout = LAYOUTS[form.layout]
    base = layout(DocContext(sym, form, attempt, budget=0))
    budget = sym.target_words - words(base)
    text = base
    for _ in range(3):
        if budget <= 0:
            break
        text = layout(DocContext(sym, form, attempt, budget=budget))
        excess = words(text) - sym.target_words
        if excess <= 0:
            break
        budget -= excess
    return text, f"document/{sym.cell.domain}/{form.id}@{form.layout}"
