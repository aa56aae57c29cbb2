"""Markdown for the report's `.md` files: every value from a log (names, arguments, errors) is
written as text, never as markup, HTML, a table column, a link or math.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Sequence
from importlib.resources import files

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

#: Characters with a meaning in CommonMark, GitHub-flavoured tables or GitHub math, escaped
#: wherever they appear.
_ALWAYS = re.compile(r"([\\`*<>|~&$])")
#: `_` opens or closes emphasis only at a word's edge (`top_p` stays as it is); `[text](url)`
#: is a link only with `](`, so escaping that `(` is enough (`[ORACLE]` stays readable). `#`,
#: `+`, `!` and `-` only mean something at a line's start, where a value never is: every value
#: follows a bullet, a heading, a cell border or our own words.
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_LINK_TAIL = re.compile(r"\]\(")
_LINE_BREAKS = re.compile(r"[\r\n]+")


#: The report's fixed prose (notes, captions) by name, from `texts.toml` beside this module.
TEXTS: dict[str, str] = tomllib.loads(
    files("polar_inspect.report").joinpath("texts.toml").read_text("utf-8")
)


def md_text(value: object) -> str:
    """`value` as inline Markdown text on one line, every markup character escaped."""
    text = _ALWAYS.sub(r"\\\1", _LINE_BREAKS.sub(" ", str(value)))
    return _LINK_TAIL.sub(r"]\\(", _EDGE_UNDERSCORE.sub(r"\\_", text))


def md_table(
    header: Sequence[str], rows: Sequence[Sequence[object]], numeric: Collection[str] = ()
) -> str:
    """A GitHub-flavoured table, every cell escaped; `numeric` columns right-aligned."""
    rule = "|" + "|".join("---:" if name in numeric else "---" for name in header) + "|"
    lines = ["| " + " | ".join(md_text(name) for name in header) + " |", rule]
    lines += ["| " + " | ".join(md_text(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def md_bullets(lines: Sequence[str]) -> str:
    """One escaped bullet per line."""
    return "\n".join(f"- {md_text(line)}" for line in lines)


#: The report's templates: the page's (`.html.j2`) autoescaped, the Markdown ones (`.md.j2`)
#: not: there every value from a log goes through the `md` filter.
TEMPLATES = Environment(
    loader=PackageLoader("polar_inspect.report", "templates"),
    autoescape=select_autoescape(["html.j2"]),
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=StrictUndefined,
)
TEMPLATES.filters["md"] = md_text


def render_md(template: str, **context: object) -> str:
    """`templates/{template}.md.j2` rendered with `context`."""
    return TEMPLATES.get_template(f"{template}.md.j2").render(**context)
