"""docs/templates.md's table of template kinds is the one `prompts.TEMPLATE_KINDS` declares."""

from __future__ import annotations

from pathlib import Path

from polar_inspect.prompts import TEMPLATE_KINDS

DOC = Path(__file__).resolve().parents[1] / "docs" / "templates.md"
START, END = "<!-- template-kinds:start -->", "<!-- template-kinds:end -->"


def _names(names: frozenset[str]) -> str:
    return ", ".join(f"`{{{name}}}`" for name in sorted(names)) or "none"


def kinds_table() -> str:
    """The table docs/templates.md holds: one row per declared template kind."""
    rows = [
        "| kind | default file | what it is | required | may also use |",
        "|---|---|---|---|---|",
    ]
    for kind in TEMPLATE_KINDS.values():
        empty = " (may be empty)" if kind.may_be_empty else ""
        rows.append(
            f"| `{kind.name}` | `{kind.default}.txt` | {kind.purpose}{empty} | "
            f"{_names(kind.required)} | {_names(kind.allowed - kind.required)} |"
        )
    return "\n".join(rows)


def test_the_documented_template_kinds_match_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = text.split(START, 1)[1].split(END, 1)[0].strip()
    assert documented == kinds_table(), (
        "docs/templates.md's table is out of date; paste the output of "
        "`python -c 'from tests.test_documented_templates import kinds_table; "
        "print(kinds_table())'` between its marker lines"
    )
