"""Every relative link of README.md and docs/ points at a file that exists, and every `#anchor` at
a heading of that file (GitHub's anchors: lowercase, punctuation dropped, spaces to hyphens)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
_FENCED = re.compile(r"```.*?```", re.DOTALL)
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor_of(heading: str) -> str:
    """GitHub's anchor for a Markdown heading's text."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (outside code blocks)."""
    text = _FENCED.sub("", page.read_text(encoding="utf-8"))
    return {anchor_of(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def test_anchor_of_follows_githubs_rule() -> None:
    assert anchor_of(" The paper's matcher (`parity`)") == "the-papers-matcher-parity"
    assert (
        anchor_of("Garbage-collector tuning (`-T gc_tuning`)")
        == "garbage-collector-tuning--t-gc_tuning"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for link in _LINK.findall(_FENCED.sub("", page.read_text(encoding="utf-8"))):
        if link.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists():
            broken.append(f"{link}: no such file")
        elif anchor and target.suffix == ".md" and anchor not in anchors(target):
            broken.append(f"{link}: no heading with that anchor")
    assert not broken, f"{page.relative_to(REPO)}: " + "; ".join(broken)
