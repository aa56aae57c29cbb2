"""The shell commands of a documented code block, so tests run the documented commands as written.

A block is the first fenced code block after a marker line such as `<!-- test:local-model -->`,
in README.md or in a page of docs/ (`DOCS / "local-model.md"`).
Lines ending in a backslash are joined, comments and blank lines dropped; `export A=1 B=2` lines
become environment settings for the commands after them.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
DOCS = README.parent / "docs"


@dataclass
class ShellCommand:
    """One documented command: its text, its words and the environment exported before it."""

    line: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    background: bool = False


def readme_block(marker: str, readme: Path = README) -> list[str]:
    """The lines of the first fenced code block after the line `<!-- {marker} -->`."""
    lines = readme.read_text(encoding="utf-8").splitlines()
    tag = f"<!-- {marker} -->"
    if tag not in lines:
        raise AssertionError(f"{readme.name} has no {tag} line")
    block: list[str] = []
    inside = False
    for line in lines[lines.index(tag) + 1 :]:
        if line.startswith("```"):
            if inside:
                return block
            inside = True
        elif inside:
            block.append(line)
    raise AssertionError(f"{readme.name}: no closed code block after {tag}")


def readme_commands(marker: str, readme: Path = README) -> list[ShellCommand]:
    """The commands of a README block, with the environment each one sees."""
    env: dict[str, str] = {}
    commands: list[ShellCommand] = []
    pending = ""
    for raw in readme_block(marker, readme):
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if not line or line.startswith("#"):
            continue
        background = line.endswith("&")
        words = shlex.split(line.rstrip("&"))
        if words[0] == "export":
            env.update(word.split("=", 1) for word in words[1:])  # type: ignore[misc]
            continue
        commands.append(ShellCommand(line, words, dict(env), background))
    return commands
