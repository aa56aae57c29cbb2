"""The attackers' options as a Markdown table, read from the registry: kept in docs/attackers.md
between two marker lines (`python -m polar_inspect.attackers.options_table --write`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic.fields import FieldInfo

from polar_inspect.attackers.registry import available_attackers

START = "<!-- attacker-options:start -->"
END = "<!-- attacker-options:end -->"
DOC = Path(__file__).resolve().parents[2] / "docs" / "attackers.md"

#: How a validator of `polar_inspect.params` reads, by the name of its function.
_VALIDATED_AS = {
    "_whole": "whole number ≥ 1",
    "_template_path": "template file",
    "_flag": "true / false",
}


def _choices(annotation: Any) -> list[str] | None:
    if get_origin(annotation) is Literal:
        return [str(choice) for choice in get_args(annotation)]
    for part in get_args(annotation):  # Optional[Literal[...]]
        if get_origin(part) is Literal:
            return [str(choice) for choice in get_args(part)]
    return None


def _kind(info: FieldInfo) -> str:
    choices = _choices(info.annotation)
    if choices:
        return " \\| ".join(f"`{choice}`" for choice in choices)
    for item in info.metadata:
        name = getattr(getattr(item, "func", None), "__qualname__", "")
        for prefix, text in _VALIDATED_AS.items():
            if name.startswith(prefix):
                return text
    return getattr(info.annotation, "__name__", str(info.annotation))


def options_table() -> str:
    """One row per option of every built-in attacker (installed plug-ins document their own)."""
    rows = [
        "| attacker | option (`-T`) | values | default | meaning |",
        "|---|---|---|---|---|",
    ]
    for name, cls in available_attackers().items():
        if not cls.__module__.startswith("polar_inspect."):
            continue
        fields = cls.Options.model_fields
        if not fields:
            rows.append(f"| `{name}` | (none) | | | |")
        for option, info in fields.items():
            kind = _kind(info)
            default = f"`{info.default}`" if info.default is not None else "built-in"
            if info.default is None and kind != "template file":
                default = "(see meaning)"
            meaning = (info.description or "").replace("|", "\\|")
            rows.append(f"| `{name}` | `{option}` | {kind} | {default} | {meaning} |")
    return "\n".join(rows)


def write_table(doc: Path = DOC) -> None:
    """Rewrite the table in docs/attackers.md from the code."""
    text = doc.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    doc.write_text(f"{head}{START}\n{options_table()}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Print the table, or with --write put it into docs/attackers.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite docs/attackers.md")
    args = parser.parse_args(argv)
    if args.write:
        write_table()
    else:
        sys.stdout.write(options_table() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
