"""The self-contained HTML page, rendered from the autoescaped Jinja2 templates in `templates/`
(figures embedded as base64 PNG, style and sorting script inline: it works offline).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from markupsafe import Markup, escape

from polar_inspect.report.figstyle import FigureFile
from polar_inspect.report.inventory import ORACLE_TAG
from polar_inspect.report.markdown import TEMPLATES
from polar_inspect.report.tables import TextTable

_NUMBER = r"-?\d+(?:\.\d+)?"
#: `64.0 [58.1, 69.9]`, optionally followed by a change such as ` (+12.0)`.
_CI = re.compile(rf"^({_NUMBER}) (\[{_NUMBER}, {_NUMBER}\])( \([+-]{_NUMBER}\))?$")
#: A table with more columns than this (ten domains) is set tighter, to fit the page.
WIDE = 9


def _macro(name: str) -> Any:
    return getattr(TEMPLATES.get_template("macros.html.j2").module, name)


def _cell_html(text: str) -> Markup:
    """A cell's text: a score's CI muted, its change below; the ORACLE mark emphasised."""
    if found := _CI.match(text):
        change = found.group(3)
        return _macro("ci_cell")(found.group(1), found.group(2), change and change.strip())
    mark = f"[{ORACLE_TAG}]"
    return Markup(_macro("oracle_mark")(mark)).join(escape(part) for part in text.split(mark))


def _classes(table: TextTable, name: str) -> str:
    """A column's cell classes: `num` and / or `nowrap`, or ""."""
    flags = (("num", name in table.numeric), ("nowrap", name in table.nowrap))
    return " ".join(c for c, on in flags if on)


def render_table(table: TextTable) -> Markup:
    """A `TextTable` as a sortable HTML table in a scrolling box; every cell escaped."""
    head = [(_classes(table, c), Markup("_<wbr>").join(c.split("_"))) for c in table.header]
    rows = [
        [
            (_classes(table, name), key, _cell_html(cell))
            for name, cell, key in zip(table.header, cells, keys, strict=True)
        ]
        for cells, keys in zip(table.rows, table.keys, strict=True)
    ]
    return _macro("table")("sortable wide" if len(table.header) > WIDE else "sortable", head, rows)


def frame_table(frame: pd.DataFrame, numeric: Sequence[str] = ()) -> TextTable:
    """A data frame of display values as a `TextTable` (numbers sort as numbers)."""
    header = [str(c) for c in frame.columns]
    rows = [["–" if pd.isna(v) else str(v) for v in row] for row in frame.itertuples(index=False)]
    return TextTable(header, rows, numeric)


def _with_code(text: str) -> Markup:
    """`text` escaped, with `backticked` words as <code>."""
    parts = str(escape(text)).split("`")
    return Markup("").join(
        _macro("code")(Markup(p)) if i % 2 else Markup(p) for i, p in enumerate(parts)
    )


def figure_html(out_dir: Path, figure: FigureFile) -> Markup:
    """A figure embedded as base64 PNG, with its caption and a link to its file."""
    data = base64.b64encode((out_dir / figure.path).read_bytes()).decode("ascii")
    return _macro("figure")(figure, Path(figure.path).stem, data)


TEMPLATES.globals.update(table=render_table, cell=_cell_html, code=_with_code, figure=figure_html)


def render(template: str, **context: object) -> Markup:
    """`templates/{template}.html.j2` rendered with `context` (autoescaped)."""
    return Markup(TEMPLATES.get_template(f"{template}.html.j2").render(**context))
