"""One self-contained HTML page: every figure embedded as base64 PNG, plus the tables.

The page works offline and from a copied folder: no external stylesheet, script or font. It
reads at any width (content at most ~1,150 px wide; tables scroll inside their own box on a
phone instead of widening the page), its tables sort by any column (a few lines of inline
script), and each model's own figures and numbers are folded into a `<details>` section.
Every value that comes from a log (model names and arguments, file names, task arguments,
error messages) is HTML-escaped.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from polar_inspect.report.access import ACCESS_NOTE, access_rows
from polar_inspect.report.board_notes import leaderboard_notes
from polar_inspect.report.defenses import DEFENSE_NOTE, defense_rows, oracle_lines
from polar_inspect.report.figstyle import FigureFile
from polar_inspect.report.inventory import ORACLE_TAG
from polar_inspect.report.page_assets import SORT_SCRIPT, STYLE
from polar_inspect.report.section import SectionOutput
from polar_inspect.report.stats import Group
from polar_inspect.report.tables import (
    NOT_ONE_RANKING,
    TextTable,
    breakdown_tables,
    ci_text,
    key_title,
    leaderboard_view,
    setup_facts,
)
from polar_inspect.report.usage import PRICES_HINT, TEXT_TITLES, cost_lines, usage_display

_NUMBER = r"-?\d+(?:\.\d+)?"
#: `64.0 [58.1, 69.9]`, optionally followed by a change such as ` (+12.0)`.
_CI = re.compile(rf"^({_NUMBER}) (\[{_NUMBER}, {_NUMBER}\])( \([+-]{_NUMBER}\))?$")


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _cell_html(text: str) -> str:
    """A cell's text, escaped; a score's CI in a muted span, its change against the baseline
    on the next line; the ORACLE mark emphasised."""
    found = _CI.match(text)
    if found:
        # a change goes on a line of its own, so the score and its CI keep one line without
        # making the column wide
        change = found.group(3)
        change = f' <br><span class="change">{_esc(change.strip())}</span>' if change else ""
        return f'{_esc(found.group(1))} <span class="ci">{_esc(found.group(2))}</span>{change}'
    escaped = _esc(text)
    mark = f"[{ORACLE_TAG}]"
    return escaped.replace(mark, f'<span class="oracle">{mark}</span>')


#: A table with more columns than this (ten domains) is set tighter, to fit the page.
WIDE = 9


def _header_html(name: str) -> str:
    """A column name, escaped, that may break after an underscore (`customer_<wbr>support`), so
    a table of ten domains fits the page."""
    return _esc(name).replace("_", "_<wbr>")


def _classes(table: TextTable, name: str) -> str:
    """The `class` attribute of a column's cells: `num` and / or `nowrap`, or nothing."""
    flags = (("num", name in table.numeric), ("nowrap", name in table.nowrap))
    names = [c for c, on in flags if on]
    return f' class="{" ".join(names)}"' if names else ""


def _row_html(table: TextTable, index: int) -> str:
    """One body row; a cell with a numeric sort key carries it as `data-sort`."""
    cells = table.rows[index]
    keys = table.keys[index] if table.keys is not None else [None] * len(cells)
    tds = []
    for name, cell, key in zip(table.header, cells, keys, strict=True):
        sort = "" if key is None or isinstance(key, str) else f' data-sort="{_esc(key)}"'
        tds.append(f"<td{_classes(table, name)}{sort}>{_cell_html(cell)}</td>")
    return "<tr>" + "".join(tds) + "</tr>"


def render_table(table: TextTable, sortable: bool = True) -> str:
    """A `TextTable` as an HTML table in a scrolling box; every cell escaped."""
    head = "".join(
        f'<th{_classes(table, c)} scope="col">{_header_html(c)}</th>' for c in table.header
    )
    body = [_row_html(table, index) for index in range(len(table.rows))]
    kinds = [k for k, on in (("sortable", sortable), ("wide", len(table.header) > WIDE)) if on]
    kind = f' class="{" ".join(kinds)}"' if kinds else ""
    return (
        f'<div class="scroll"><table{kind}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def frame_table(frame: pd.DataFrame, numeric: Sequence[str] = ()) -> TextTable:
    """A data frame of display values as a `TextTable` (numbers sort as numbers)."""
    header = [str(c) for c in frame.columns]
    rows = [["–" if pd.isna(v) else str(v) for v in row] for row in frame.itertuples(index=False)]
    return TextTable(header, rows, numeric=set(numeric))


def _with_code(text: str) -> str:
    """Escape `text` for HTML, with `backticked` words as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _setup(facts: Sequence[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{_esc(k)}</dt><dd>{_esc(v)}</dd>" for k, v in facts)
    return f'<dl class="setup">{items}</dl>'


def _defenses(frame: pd.DataFrame | None, group: str) -> str:
    """The group's defense table (the same cells as `defenses.md`), or nothing."""
    if frame is None or frame.empty:
        return ""
    mine = frame[frame["group"] == group]
    tables = defense_rows(mine)
    if not tables:
        return ""
    [(_, table)] = tables
    marked = "".join(f"<li>{_esc(line)}</li>" for line in oracle_lines(mine))
    why = f'<ul class="note">{marked}</ul>' if marked else ""
    note = f'<p class="note">{_with_code(DEFENSE_NOTE)}</p>'
    return "<h3>Defenses</h3>" + note + render_table(table) + why


def _access(frame: pd.DataFrame | None, group: str) -> str:
    """The group's agent and access table (the same cells as `access.md`), or nothing."""
    tables = access_rows(frame[frame["group"] == group]) if frame is not None else []
    if not tables:
        return ""
    [(_, table)] = tables
    note = f'<p class="note">{_with_code(ACCESS_NOTE)}</p>'
    return "<h3>Trusted agent and document access</h3>" + note + render_table(table)


def _figure(out_dir: Path, figure: FigureFile) -> str:
    data = base64.b64encode((out_dir / figure.path).read_bytes()).decode("ascii")
    return (
        f'<figure id="{_esc(Path(figure.path).stem)}">'
        f'<img src="data:image/png;base64,{data}" alt="{_esc(figure.title)}" '
        f'data-file="{_esc(figure.path)}" width="{figure.width}" height="{figure.height}" '
        'loading="lazy">'
        f"<figcaption><b>{_esc(figure.title)}.</b> {_esc(figure.caption)} "
        f'(<a href="{_esc(figure.path)}">{_esc(figure.path)}</a>)'
        "</figcaption></figure>"
    )


def _breakdowns(details: pd.DataFrame, ranks: dict[str, int]) -> str:
    """Model x domain / attack / policy tables of the three scores, folded away."""
    tables = breakdown_tables(details, ranks)
    if not tables:
        return ""
    parts = ["<details><summary>Breakdown tables (x100)</summary>"]
    for title, table in tables:
        parts.append(f"<h4>{_esc(title)}</h4>{render_table(table)}")
    parts.append("</details>")
    return "".join(parts)


def _model_table(details: pd.DataFrame, model: str) -> str:
    """One model's scores by domain, attack and policy (rows) x privacy/utility/overall."""
    mine = details[(details["model"] == model) & (details["axis"] != "cell")]
    if mine.empty:
        return ""
    rows, keys = [], []
    for (axis, key), part in mine.groupby(["axis", "key"], sort=False):
        values = part.set_index("score")["value"]
        n = int(part["n"].iloc[0])
        cells = [values.get(s) for s in ("privacy", "utility", "overall")]
        rows.append(
            [
                axis,
                key_title(str(axis), str(key)),
                *("–" if v is None else f"{v:.1f}" for v in cells),
                str(n),
            ]
        )
        keys.append([str(axis), str(key), *cells, n])
    header = ["Scores by", "Value", "Privacy", "Utility", "Overall", "n"]
    return render_table(TextTable(header, rows, keys, numeric=set(header[2:])))


def _per_model(
    board: pd.DataFrame, details: pd.DataFrame, figures: Sequence[FigureFile], out_dir: Path
) -> str:
    """One folded section per model, in rank order: its scores, surface figure and breakdown."""
    parts = []
    for _, row in board.iterrows():
        model = str(row["model"])
        scores = ", ".join(
            f"{k} {ci_text(row[k], row[f'{k}_ci_low'], row[f'{k}_ci_high'])}"
            for k in ("privacy", "utility", "overall")
        )
        own = [f for f in figures if f.kind == "model" and f.model == model]
        body = "".join(_figure(out_dir, f) for f in own) + _model_table(details, model)
        if row.get("oracle"):
            body = f'<p class="oracle">{_esc(row["oracle_reason"])}</p>' + body
        summary = f"#{row['rank']} {_cell_html(model)}"
        parts.append(
            f"<details><summary>{summary} <span class='note'>({_esc(scores)})</span></summary>"
            f"{body}</details>"
        )
    return "<h3>Per model</h3>" + "".join(parts) if parts else ""


def _group(
    out_dir: Path,
    group: Group,
    many: bool,
    board: pd.DataFrame,
    details: pd.DataFrame,
    figures: Sequence[FigureFile],
    weight: float,
    defenses: pd.DataFrame | None,
    access: pd.DataFrame | None = None,
) -> str:
    title = f"Group {group.name}" if many else "Results"
    rows = board[board["group"] == group.name]
    shared, table = leaderboard_view(rows, weight)
    parts = [
        f'<section id="group-{_esc(group.name)}"><h2>{_esc(title)}</h2>',
        "<h3>Setup</h3><p class='note'>What every run below shares.</p>",
        _setup([*setup_facts(group), *shared]),
        "<h3>Leaderboard</h3>",
        render_table(table),
    ]
    parts += [f'<p class="note">{_cell_html(note)}</p>' for note in leaderboard_notes(rows, weight)]
    parts.append(_defenses(defenses, group.name))
    parts.append(_access(access, group.name))
    parts += [_figure(out_dir, f) for f in figures if f.kind == "main"]
    heatmaps = [f for f in figures if f.kind == "breakdown"]
    if heatmaps:
        parts.append(
            f"<details><summary>Breakdown heatmaps ({len(heatmaps)} figures)</summary>"
            + "".join(_figure(out_dir, f) for f in heatmaps)
            + "</details>"
        )
    mine = details[details["group"] == group.name]
    ranks = dict(zip(rows["model"], rows["rank"].astype(int), strict=True))
    parts.append(_breakdowns(mine, ranks))
    parts.append(_per_model(rows, mine, figures, out_dir))
    parts.append("</section>")
    return "".join(parts)


def _usage(usage: pd.DataFrame | None) -> str:
    if usage is None or usage.empty:
        return ""
    shown = usage_display(usage)
    numeric = [c for c in shown.columns if c not in TEXT_TITLES]
    parts = ['<section id="tokens"><h2>Tokens and cost</h2>']
    parts.append(render_table(frame_table(shown, numeric)))
    if "cost_usd" in usage.columns:
        parts.append("<ul>" + "".join(f"<li>{_esc(line)}</li>" for line in cost_lines(usage)))
        parts.append("</ul>")
    else:
        parts.append(f'<p class="note">{_with_code(PRICES_HINT)}</p>')
    return "".join(parts) + "</section>"


def write_html(
    out_dir: Path,
    *,
    board: pd.DataFrame,
    details: pd.DataFrame,
    groups: Sequence[Group],
    figures: dict[str, list[FigureFile]],
    inventory: pd.DataFrame,
    weight: float,
    files: Sequence[str],
    usage: pd.DataFrame | None = None,
    defenses: pd.DataFrame | None = None,
    access: pd.DataFrame | None = None,
    sections: Sequence[SectionOutput] = (),
) -> Path:
    """Write `out_dir/index.html` and return its path.

    `defenses` is the defense table (`defenses.defense_frame`, groups that compare defense
    stacks only): each such group's section shows it as `defenses.md` does; `access` likewise
    the agent and access table (`access.access_frame`, as `access.md`); `sections` add their
    fragments after the groups (`report.sections`).
    """
    used = int((inventory["decision"] == "used").sum())
    skipped = inventory[inventory["decision"] == "skipped"]
    many = len(groups) > 1
    links = [(f"group-{g.name}", f"Group {g.name}" if many else "Results") for g in groups]
    links += [(s.section.name, s.section.title) for s in sections if s.html]
    links += [("tokens", "Tokens and cost")] if usage is not None and not usage.empty else []
    links += [("skipped", "Skipped logs")] if not skipped.empty else []
    links.append(("files", "Files"))
    nav = "".join(f'<a href="#{_esc(anchor)}">{_esc(text)}</a>' for anchor, text in links)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<title>POLAR-Bench report</title>",
        f"<style>{STYLE}</style></head><body><main>",
        "<h1>POLAR-Bench report</h1>",
        f"<nav>{nav}</nav>",
        f"<p>{len(inventory)} log files considered: {used} used, {len(skipped)} skipped. "
        f"Scores are x100; overall = λ·privacy + (1−λ)·utility with λ = {weight:g}; "
        "brackets are 95% confidence intervals over samples. Ranks: tied runs share a rank "
        "and the next rank is skipped (1, 1, 3). Click a column header to sort a table. "
        f"<span class='oracle'>[{ORACLE_TAG}]</span> marks runs that read the scorer's "
        "targets: reference upper bounds, not results.</p>",
    ]
    if many:
        parts.append(
            "<p class='warning'><b>Not one ranking.</b> "
            f"{_esc(NOT_ONE_RANKING.format(count=len(groups)))}</p>"
        )
    for group in groups:
        parts.append(
            _group(
                out_dir,
                group,
                many,
                board,
                details,
                figures.get(group.name, []),
                weight,
                defenses,
                access,
            )
        )
    parts += [section.html for section in sections if section.html]
    parts.append(_usage(usage))
    if not skipped.empty:
        parts.append('<section id="skipped"><h2>Skipped logs</h2>')
        frame = skipped[["log", "model", "task", "reason", "detail"]]
        frame = frame.rename(columns=str.capitalize)
        parts.append(render_table(frame_table(frame)) + "</section>")
    parts.append('<section id="files"><h2>Files</h2><ul>')
    parts += [f'<li><a href="{_esc(f)}">{_esc(f)}</a></li>' for f in files]
    parts.append("</ul></section></main>")
    parts.append(f"<script>{SORT_SCRIPT}</script></body></html>")
    path = out_dir / "index.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
