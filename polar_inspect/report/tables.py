"""Tables as data frames (x100) and as `TextTable`s, which both the Markdown files and the page
render (docs/report/README.md#the-page)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import InitVar, dataclass, field

import pandas as pd

from polar_inspect.axes import ATTACK_LABELS, POLICY_LABELS
from polar_inspect.report.inventory import RunHeader
from polar_inspect.report.markdown import md_table, md_text
from polar_inspect.report.oracles import oracle_reasons
from polar_inspect.report.stats import Group
from polar_inspect.report.stats import score_cell as ci_text
from polar_inspect.report.usage import tokens_per_sample
from polar_inspect.scorers.parity import SCORE_KEYS

CSV_DECIMALS = 6
#: Task arguments with a place of their own: `data` in the setup's data line, `defense` in
#: every run's label (`model + defense`).
ARGS_SHOWN_ELSEWHERE = ("data", "defense")


def _x100(value: float) -> float:
    return round(100 * float(value), CSV_DECIMALS)


def arg_text(value: object) -> str:
    """One task argument's value as typed after `-T key=`."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return ",".join(arg_text(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=str)
    return str(value)


def format_args(args: dict[str, object]) -> str:
    """Task arguments other than `data` as `k=v; k=v`, or `defaults`."""
    return "; ".join(f"{k}={arg_text(v)}" for k, v in args.items() if k != "data") or "defaults"


def leaderboard_frame(
    summary: pd.DataFrame, runs: Sequence[RunHeader], weight: float
) -> pd.DataFrame:
    """The leaderboard as CSV columns: group, rank, model, scores x100 with CI bounds, ..."""
    rows = []
    for row in summary.itertuples():
        run = runs[row.run]
        record: dict[str, object] = {"group": row.group, "rank": row.rank, "model": row.label}
        for key in SCORE_KEYS:
            for suffix, name in (("", ""), ("_low", "_ci_low"), ("_high", "_ci_high")):
                value = getattr(row, key + suffix)
                record[key + name] = _x100(value) if value == value else None
        reasons = oracle_reasons(run)
        record.update(
            weight=weight,
            log_weight=run.weight,
            n=row.n,
            errors=row.errors,
            errored_epochs=row.errored_epochs,
            epochs=row.epochs,
            s5_attacker=run.s5_attacker,
            prompt=run.prompt,
            sampling=run.sampling,
            sampling_caveat=run.sampling_caveat or "",
            attacker_sampling=run.attacker_sampling or "",
            truncated_samples=run.truncated_samples,
            empty_reply_samples=run.empty_samples,
            data_source=run.data.describe(),
            data_path=run.data.path,
            data_kind=run.data.kind,
            data_sha256=run.data.sha256,
            task=run.task,
            task_args=format_args(run.task_args),
            task_args_json=json.dumps(run.task_args, sort_keys=True, default=str),
            created=run.created.isoformat(),
            log=run.path,
            defense=run.defense,
            defense_oracle=run.defense_oracle,
            oracle=bool(reasons),
            oracle_reason="; ".join(reasons),
            vs_next=getattr(row, "vs_next", ""),
        )
        rows.append(record | tokens_per_sample(run.usage, row.n))
    return pd.DataFrame(rows)


#: Column titles of the three scores, in `SCORE_KEYS` order.
SCORE_TITLES = ("Privacy", "Utility", "Overall")


def score_cells(row: pd.Series, delta: bool = True, ci: str = "") -> list[Cell]:
    """A row's three scores (x100) with their CIs (columns `{score}{ci}_low`, `_high`) and
    `delta_*` changes, sorted by the score."""
    deltas = {k: row[f"delta_{k}"] if delta else math.nan for k in SCORE_KEYS}
    return [
        (ci_text(row[k], row[f"{k}{ci}_low"], row[f"{k}{ci}_high"], deltas[k]), float(row[k]))
        for k in SCORE_KEYS
    ]


#: A cell: its text, or `(text, sort key)` for a cell the page sorts by a number.
Cell = str | tuple[str, object]


def number(value: object, missing: str = "–", digits: int = 1) -> Cell:
    """A number's cell at `digits` decimals, sorted by its value; `missing` for None or NaN."""
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return missing
    return f"{value:.{digits}f}", float(value)  # type: ignore[arg-type]


def cell_text(cell: Cell) -> str:
    """A cell's text."""
    return cell if isinstance(cell, str) else cell[0]


def count(value: object) -> tuple[str, int]:
    """A whole number's cell (a rank, a sample count), sorted by its value."""
    return str(value), int(value)  # type: ignore[call-overload]


@dataclass
class TextTable:
    """A table of text cells (with sort keys) that Markdown and the page both render: a text
    cell sorts as text, a `(text, key)` cell by its key."""

    header: list[str]
    cells: InitVar[Sequence[Sequence[Cell]]]
    numeric: Collection[str] = ()
    nowrap: Collection[str] = ()
    rows: list[list[str]] = field(init=False)
    keys: list[list[object]] = field(init=False)

    def __post_init__(self, cells: Sequence[Sequence[Cell]]) -> None:
        self.rows = [[cell_text(c) for c in line] for line in cells]
        self.keys = [[None if isinstance(c, str) else c[1] for c in line] for line in cells]

    def markdown(self) -> str:
        """The table in GitHub-flavoured Markdown, every cell escaped."""
        return md_table(self.header, self.rows, self.numeric)


#: One per-run fact of a leaderboard row, as its cell.
RowFact = Callable[[pd.Series], Cell]


def _arg_values(row: pd.Series) -> dict[str, object]:
    args = json.loads(row["task_args_json"]) if row.get("task_args_json") else {}
    return {k: v for k, v in args.items() if k not in ARGS_SHOWN_ELSEWHERE}


def _arg_fact(key: str) -> RowFact:
    def value(r: pd.Series) -> str:
        args = _arg_values(r)
        return arg_text(args[key]) if key in args else "default"

    return value


def _count(value: object) -> str:
    return "–" if value is None or pd.isna(value) else str(int(value))  # type: ignore[arg-type, call-overload]


def limits_cell(row: pd.Series) -> str:
    """`truncated / empty` sample counts, `–` for logs that did not count them."""
    return f"{_count(row['truncated_samples'])} / {_count(row['empty_reply_samples'])}"


def _row_facts(rows: pd.DataFrame) -> list[tuple[str, RowFact]]:
    """The facts a leaderboard may show as columns, one per task argument given."""
    facts: list[tuple[str, RowFact]] = [
        ("Samples scored (n)", lambda r: count(r["n"])),
        ("Errored samples", lambda r: count(r["errors"])),
        ("Truncated / empty replies", limits_cell),
        ("Trusted prompt", lambda r: str(r["prompt"])),
        ("Sampling", lambda r: str(r["sampling"])),
    ]
    keys = dict.fromkeys(k for _, r in rows.iterrows() for k in _arg_values(r))
    return facts + [(f"-T {key}", _arg_fact(key)) for key in keys]


NUMERIC_FACTS = {"Samples scored (n)", "Errored samples"}


def leaderboard_view(rows: pd.DataFrame, weight: float) -> tuple[list[tuple[str, str]], TextTable]:
    """One group's leaderboard as shown: its shared facts and a table of what differs."""
    overall = f"Overall (λ={weight:g})"
    header = ["#", "Model", "Privacy", "Utility", overall]
    cells: list[list[Cell]] = []
    for _, r in rows.iterrows():
        model = str(r["model"]) + (" †" if r["sampling_caveat"] else "")
        cells.append([count(r["rank"]), model, *score_cells(r, delta=False, ci="_ci")])
    shared: list[tuple[str, str]] = []
    shared_args: list[str] = []
    for title, fact in _row_facts(rows):
        values = [fact(r) for _, r in rows.iterrows()]
        if len(set(texts := [cell_text(value) for value in values])) > 1:
            header.append(title)
            for line, value in zip(cells, values, strict=True):
                line.append(value)
        elif title.startswith("-T "):
            shared_args.append(f"{title.removeprefix('-T ')}={texts[0]}")
        elif texts:
            shared.append((title, texts[0]))
    if not rows.empty:
        shared.append(("Task arguments", "; ".join(shared_args) or "defaults"))
    numeric = {"#", "Privacy", "Utility", overall, *NUMERIC_FACTS} & set(header)
    return shared, TextTable(header, cells, numeric, nowrap={"Privacy", "Utility", overall})


def setup_facts(group: Group) -> list[tuple[str, str]]:
    """The group's setup lines (`Group.description`, `label: value`) as (Label, value) pairs."""
    parts = [line.partition(": ") for line in group.description]
    return [(label[:1].upper() + label[1:], value) for label, _, value in parts]


def breakdown_frame(rows: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """The breakdowns as CSV columns: group, model, axis, key, score, value x100, n."""
    frame = rows.join(summary.set_index("run")[["group", "label"]], on="run")
    frame["value"] = frame["value"].map(lambda v: _x100(v) if v == v else None)
    frame = frame.rename(columns={"label": "model"})
    return frame[["group", "model", "axis", "key", "score", "value", "n"]]


def key_title(axis: str, key: str) -> str:
    """A breakdown column's title: `S2 Yes/no narrowing`, `P3 Conditional`, or the domain."""
    if axis == "attack":
        return f"{key} {ATTACK_LABELS.get(key, '')}".strip()
    if axis == "policy":
        return f"{key} {POLICY_LABELS.get(key, '')}".strip()
    return key


def _breakdown_table(part: pd.DataFrame, axis: str, ranks: Mapping[str, int]) -> TextTable:
    """One axis and score of a group: a row per model of `ranks`, a column per key."""
    keys = list(dict.fromkeys(part["key"]))
    table = part.pivot_table(index="model", columns="key", values="value", aggfunc="first")
    header = ["#", "Model", *(key_title(axis, k) for k in keys)]
    rows: list[list[Cell]] = [
        [count(ranks[m]), m, *(number(table.get(k, {}).get(m)) for k in keys)]
        for m in ranks
        if m in table.index
    ]
    return TextTable(header, rows, {"#", *header[2:]})


def breakdown_tables(frame: pd.DataFrame, ranks: Mapping[str, int]) -> list[tuple[str, TextTable]]:
    """(title, model x key table) per axis and score of one group's breakdown."""
    return [
        (f"{score.capitalize()} by {axis} (x100)", _breakdown_table(part, axis, ranks))
        for axis in ("domain", "attack", "policy")
        for score in SCORE_KEYS
        if not (part := frame[(frame["axis"] == axis) & (frame["score"] == score)]).empty
    ]


def breakdown_markdown(frame: pd.DataFrame, group: Group, ranks: Mapping[str, int]) -> str:
    """One group's breakdown tables as Markdown."""
    parts = []
    for title, table in breakdown_tables(frame[frame["group"] == group.name], ranks):
        parts += [f"#### {title}", "", table.markdown(), ""]
    return "\n".join(parts)


def _surface_cell(part: pd.DataFrame, key: str) -> str:
    if key in part.index and part.at[key, "value"] is not None:
        return f"{part.at[key, 'value']:.1f} ({part.at[key, 'n']})"
    return "–"


def surface_markdown(frame: pd.DataFrame, group: Group, models: list[str]) -> str:
    """Per model, the 5x5 policy x attack privacy and utility tables ('value (n)')."""
    parts = []
    data = frame[(frame["group"] == group.name) & (frame["axis"] == "cell")]
    header = ["Policy / attack", *(f"{a} {label}" for a, label in ATTACK_LABELS.items())]
    for model in models:
        for score in ("privacy", "utility"):
            part = data[(data["model"] == model) & (data["score"] == score)].set_index("key")
            lines = [
                [f"{p} {label}", *(_surface_cell(part, f"{p}x{a}") for a in ATTACK_LABELS)]
                for p, label in POLICY_LABELS.items()
            ]
            heading = f"#### {md_text(model)}: {score} (x100, n samples)"
            parts += [heading, "", md_table(header, lines, header[1:]), ""]
    return "\n".join(parts)
