"""What users put in model names, model arguments, file names, task arguments and error
messages is shown as text in every output: never as HTML, Markdown markup or mathtext."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai.log import EvalError, read_eval_log, write_eval_log
from markdown_it import MarkdownIt
from matplotlib.figure import Figure

from polar_inspect.report import build_report
from polar_inspect.report.markdown import md_table, md_text
from polar_inspect.report.plots import ranking_figure
from tests.report.conftest import ReportLogs

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "a|b",
    "*bold* _em_ __init__ top_p",
    "[click](http://evil.example)",
    "![pic](http://evil.example/x.png)",
    "$x^2$ costs $5",
    "back\\slash `code` ~~gone~~ &amp; &lt;b&gt;",
    "line\nbreak",
]


def _render(markdown: str) -> str:
    return MarkdownIt("commonmark").enable("table").enable("strikethrough").render(markdown)


class _Text(HTMLParser):
    """The tags and the text of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(fragment: str) -> _Text:
    parser = _Text()
    parser.feed(fragment)
    return parser


@pytest.mark.parametrize("value", HOSTILE)
def test_md_text_renders_exactly_the_value(value: str) -> None:
    rendered = _parse(_render(md_text(value)))
    assert rendered.tags == ["p"]  # no script, img, a, em, strong, code, del: text only
    assert "".join(rendered.text).strip() == value.replace("\n", " ")


def test_md_table_keeps_its_columns_and_escapes_cells() -> None:
    table = md_table(["Model", "Score"], [[value, "1.0"] for value in HOSTILE])
    rendered = _parse(_render(table))
    assert set(rendered.tags) == {"table", "thead", "tr", "th", "tbody", "td"}
    assert rendered.tags.count("td") == 2 * len(HOSTILE)  # `|` in a value splits no cell


@pytest.fixture(scope="module")
def hostile_report(report_logs: ReportLogs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report over logs whose model arguments, data file name, task arguments and error
    message carry markup."""
    root = tmp_path_factory.mktemp("hostile")
    (source,) = report_logs.epochs_dir.glob("*.eval")
    log = read_eval_log(str(source))
    log.eval.model_args = {"note": "<script>alert(1)</script>", "tag": "a|b $x$"}
    meta = dict(log.eval.metadata)
    meta["data_source"] = {**meta["data_source"], "path": "/data/<img src=x onerror=alert(2)>.json"}
    log.eval.metadata = meta
    log.eval.task_args_passed = {
        **(log.eval.task_args_passed or {}),
        "attack": "S1",
        "note": "<b>bold</b>|[x](http://evil.example)",
    }
    logs = root / "logs"
    logs.mkdir()
    write_eval_log(log, str(logs / "hostile.eval"))
    failed = read_eval_log(str(source), header_only=True)
    failed.status = "error"
    failed.error = EvalError(
        message="<script>alert(3)</script> failed", traceback="", traceback_ansi=""
    )
    write_eval_log(failed, str(logs / "failed.eval"))
    out = root / "report"
    build_report([logs], out, jobs=1, figures=False)
    return out


def test_markdown_files_show_user_values_as_text(hostile_report: Path) -> None:
    for path in sorted(hostile_report.glob("*.md")):
        rendered = _render(path.read_text(encoding="utf-8"))
        tags = set(_parse(rendered).tags)
        assert not tags & {"script", "img", "a", "b"}, path.name
        text = html.unescape(re.sub(r"<[^>]+>", "", rendered))
        if path.name in ("leaderboard.md", "report.md"):
            assert "polar/oracle (note=<script>alert(1)</script>, tag=a|b $x$)" in text
            assert "/data/<img src=x onerror=alert(2)>.json" in text
            assert "note=<b>bold</b>|[x](http://evil.example)" in text
    report = _render((hostile_report / "report.md").read_text(encoding="utf-8"))
    assert "<script>alert(3)</script> failed" in html.unescape(report)  # the skipped log
    assert "<script>" not in report


def test_the_page_shows_user_values_as_text(hostile_report: Path) -> None:
    page = (hostile_report / "index.html").read_text(encoding="utf-8")
    parsed = _parse(page)
    assert parsed.tags.count("script") == 1  # the page's own sorting script, nothing else
    assert parsed.tags.count("img") == 0  # no figures drawn, and no injected image
    assert "b" not in parsed.tags
    text = "".join(parsed.text)
    for shown in (
        "note=<script>alert(1)</script>",
        "/data/<img src=x onerror=alert(2)>.json",
        "<b>bold</b>|[x](http://evil.example)",
        "<script>alert(3)</script> failed",
    ):
        assert shown in text


def test_csv_keeps_the_values_as_they_are(hostile_report: Path) -> None:
    board = pd.read_csv(hostile_report / "leaderboard.csv")
    assert (
        board["model"].item()
        == "polar/oracle (note=<script>alert(1)</script>, tag=a|b $x$) [ORACLE]"
    )


def test_dollar_signs_in_figure_labels_are_not_mathtext(
    tmp_path: Path, drawn: list[Figure]
) -> None:
    """A label that is invalid mathtext draws as written instead of failing the report."""
    label = r"vendor/model (price=$\undefinedmacro{ and $5)"
    table = pd.DataFrame(
        [
            {
                "label": label,
                "rank": 1,
                **{
                    f"{k}{s}": 0.5
                    for k in ("privacy", "utility", "overall")
                    for s in ("", "_low", "_high")
                },
            }
        ]
    )
    ranking_figure(table, tmp_path, "r.png", 0.5, "T")
    [figure] = drawn
    ticks = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert ticks == [f"#1 {label}"]
