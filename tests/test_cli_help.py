"""Every command's --help, through its entry point: printed whole, with no formatting left in."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
SCRIPTS = tomllib.loads(PYPROJECT.read_text())["project"]["scripts"]


@pytest.mark.parametrize("command", sorted(SCRIPTS))
def test_help_has_no_unformatted_placeholders(command: str, capsys) -> None:  # noqa: ANN001
    module, _, name = SCRIPTS[command].partition(":")
    main = getattr(importlib.import_module(module), name)
    with pytest.raises(SystemExit) as stop:
        assert main(["--help"]) == 0  # a main that returns instead of exiting
        raise SystemExit(0)
    assert stop.value.code in (0, None)
    shown = capsys.readouterr().out
    assert command in shown
    # click prints help as written: a printf-style escape or placeholder would show as is
    assert not re.search(r"%%|%\(\w+\)s|%s\b", shown), shown
