"""docs/attackers.md's options table is the one the registry's Options models give; rewrite it
with `python -m tests.attackers.test_options_table`."""

from __future__ import annotations

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


def documented_table(doc: Path = DOC) -> str:
    """The table as docs/attackers.md holds it (between the marker lines)."""
    text = doc.read_text(encoding="utf-8")
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def test_the_documented_options_table_matches_the_code() -> None:
    assert documented_table() == options_table(), (
        "docs/attackers.md's options table is out of date: run "
        "`python -m tests.attackers.test_options_table`"
    )


def test_every_option_of_every_builtin_attacker_has_a_row_with_a_meaning() -> None:
    table = options_table()
    for option in ("attack_budget", "attacker_messages", "attacker_empty_reply"):
        assert f"`{option}`" in table
    rows = [row for row in table.splitlines()[2:] if "(none)" not in row]
    assert rows and all(row.rstrip(" |").split("|")[-1].strip() for row in rows)


def test_write_table_replaces_only_the_block(tmp_path: Path) -> None:
    doc = tmp_path / "attackers.md"
    doc.write_text(f"before\n{START}\nold\n{END}\nafter\n", encoding="utf-8")
    write_table(doc)
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("before\n") and text.endswith(f"{END}\nafter\n")
    assert documented_table(doc) == options_table()


if __name__ == "__main__":
    write_table()
