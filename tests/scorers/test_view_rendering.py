"""What `inspect view` shows of a run: the headline it opens on, and explanations that render.

The viewer opens a log on its headline metric (the log's `results.headline`, which Inspect
resolves from the task's declared `HeadlineMetric`) and shows the scores of that scorer, and it
renders every score's explanation as Markdown: CommonMark with single newlines kept as line
breaks. A line after a list with no blank line between them is a lazy continuation of the
list's last bullet, so a heading such as `utility_strict 1.000` would show inside it. These
tests read a log as the viewer does; docs/report/README.md says how the viewer was checked in a
browser.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog
from markdown_it import MarkdownIt

from polar_inspect.tasks import HEADLINE
from tests.helpers import by_id, run

TASK = "polar_inspect/privacy"
#: How the viewer renders an explanation (markdown-it, CommonMark, `breaks: true`).
VIEWER_MARKDOWN = MarkdownIt("commonmark", {"breaks": True})


@pytest.fixture
def viewed_log(small_file: Path, tmp_path: Path) -> EvalLog:
    """A run with every scorer that writes a list: the strict detector (with reasoning-only
    leaks, from `polar/reasoning-leaky`) and the judge."""
    return run(
        TASK,
        "polar/reasoning-leaky",
        tmp_path / "logs",
        model_roles={"judge": "polar/scripted-judge"},
        data=str(small_file),
        judge=True,
    )


def test_a_log_opens_on_overall_with_privacy_and_utility(viewed_log: EvalLog) -> None:
    assert viewed_log.eval.headline_metric == HEADLINE
    results = viewed_log.results
    assert results is not None and results.headline is not None
    headline = results.headline
    assert (headline.scorer, headline.score, headline.metric) == ("polar_scorer", "overall", "mean")
    # the viewer's score panel lists the headline scorer's scores, each with mean and stderr
    shown = [s for s in results.scores if s.scorer == headline.scorer]
    assert [s.name for s in shown] == ["privacy", "utility", "overall"]
    assert all(set(s.metrics) == {"mean", "stderr"} for s in shown)


class _Blocks(HTMLParser):
    """The text of each list item, and of each paragraph outside any list."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[str] = []
        self.paragraphs: list[str] = []
        self._open: list[str] = []
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li" or (tag == "p" and "li" not in self._open):
            self._text = []
        if tag in ("li", "p", "ul", "ol"):
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("li", "p", "ul", "ol"):
            return
        self._open.pop()
        text = " ".join("".join(self._text).split())
        if tag == "li":
            self.items.append(text)
        elif tag == "p" and "li" not in self._open:
            self.paragraphs.append(text)

    def handle_data(self, data: str) -> None:
        self._text.append(data)


def rendered_blocks(explanation: str) -> _Blocks:
    """Render an explanation as the viewer does and split it into list items and paragraphs."""
    blocks = _Blocks()
    blocks.feed(VIEWER_MARKDOWN.render(explanation))
    return blocks


def test_rendered_blocks_catch_a_heading_inside_the_last_bullet() -> None:
    broken = rendered_blocks("privacy 1.0\n\n- none: a\n- none: b\nutility_strict 1.0")
    assert broken.items[-1] == "none: b utility_strict 1.0"


def test_every_explanation_renders_its_lists_and_headings_apart(viewed_log: EvalLog) -> None:
    seen: set[str] = set()
    for sample in by_id(viewed_log).values():
        assert sample.scores is not None
        for name, score in sample.scores.items():
            lines = [line.strip() for line in (score.explanation or "").splitlines()]
            bullets = [" ".join(line[2:].split()) for line in lines if line.startswith("- ")]
            others = [" ".join(line.split()) for line in lines if line and line[:2] != "- "]
            blocks = rendered_blocks(score.explanation or "")
            # each bullet is one list item, holding nothing else
            assert blocks.items == bullets, (name, sample.id)
            # every other line is in a paragraph of its own, outside the lists
            paragraphs = "\n".join(blocks.paragraphs)
            assert all(line in paragraphs for line in others), (name, sample.id)
            seen.update(others)
    headings = {line.split(" ")[0].rstrip(":") for line in seen}
    assert {"utility_strict", "reasoning-only", "protected", "allowed"} <= headings
    assert any(line.startswith("reasoning-only leaks: Anna Keller") for line in seen)
