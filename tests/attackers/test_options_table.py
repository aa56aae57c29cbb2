"""docs/attackers.md's options table is the one the registry's Options models give."""

from __future__ import annotations

from pathlib import Path

from polar_inspect.attackers.options_table import DOC, END, START, options_table, write_table


def documented_table(doc: Path = DOC) -> str:
    """The table as docs/attackers.md holds it (between the marker lines)."""
    text = doc.read_text(encoding="utf-8")
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def test_the_documented_options_table_matches_the_code() -> None:
    assert documented_table() == options_table(), (
        "docs/attackers.md's options table is out of date: run "
        "`python -m polar_inspect.attackers.options_table --write`"
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
