"""Shared pieces of the hostile suite: extracts of the bundled dataset, the task as a user
builds it, and the command lines run as a user runs them.

Every test here plays a user who gives the benchmark something wrong, by the route the issue
named or by one next to it, and asserts what the rules promise: a refusal in one line naming
the file, record, field or parameter; or, where the input is legal, that the number it
produces is honest (an error, a flag, a label), never a silent wrong figure.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from polar_inspect.data.sources import bundled_path
from polar_inspect.errors import UserInputError
from polar_inspect.tasks import privacy

BIN = Path(sys.executable).parent


@cache
def _bundled() -> tuple[dict[str, Any], ...]:
    with gzip.open(bundled_path(), "rt", encoding="utf-8") as handle:
        return tuple(json.load(handle))


def extract(
    domain: str = "medical", strengths: tuple[int, ...] = (1, 2, 3, 4, 5), per_cell: int = 1
) -> list[dict[str, Any]]:
    """Copies of the first `per_cell` bundled records of `domain` for each attack strength."""
    found: list[dict[str, Any]] = []
    for strength in strengths:
        cell = [
            r
            for r in _bundled()
            if r["domain"] == domain and r["metadata"]["attack_strength"] == strength
        ]
        found += copy.deepcopy(cell[:per_cell])
    return found


def write_json(path: Path, records: list[dict[str, Any]]) -> Path:
    """Write records as one JSON array and return the path."""
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return path


def write_text(path: Path, text: str) -> Path:
    """Write a UTF-8 text file and return the path."""
    path.write_text(text, encoding="utf-8")
    return path


def build(data: Path, **task_args: Any) -> Task:
    """Build `polar_inspect/privacy` as `inspect eval -T ...` would (no model is called)."""
    return privacy(data=str(data), **task_args)


def refusal(data: Path, *parts: str, **task_args: Any) -> str:
    """Build the task, expect a UserInputError naming every one of `parts`; return its text."""
    with pytest.raises(UserInputError) as caught:
        build(data, **task_args)
    message = str(caught.value)
    for part in parts:
        assert part in message, (part, message)
    return message


def one_line(message: str) -> str:
    """The message, checked to be one line (a data refusal lists its problems on lines below
    one heading line; a template or parameter error is exactly one line)."""
    assert "Traceback" not in message, message
    return message.splitlines()[0]


def evaluate(
    data: Path,
    model: str,
    log_dir: Path,
    model_roles: dict[str, Any] | None = None,
    **options: Any,
) -> EvalLog:
    """Run `polar_inspect/privacy` in this process (as `inspect_ai.eval`) and return its log.

    `options` whose names are `inspect_ai.eval` keywords (message_limit, limit...) go to the
    eval; the rest are task parameters."""
    eval_keywords = {"message_limit", "limit", "epochs", "model_args", "model_base_url",
                     "fail_on_error", "sample_id"}  # fmt: skip
    task_args = {k: v for k, v in options.items() if k not in eval_keywords}
    keywords = {k: v for k, v in options.items() if k in eval_keywords}
    (log,) = inspect_eval(
        "polar_inspect/privacy",
        model=model,
        model_roles=model_roles,
        task_args={"data": str(data), **task_args},
        log_dir=str(log_dir),
        display="none",
        **keywords,
    )
    return log


def command(name: str, *args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run one of the installed command lines (`inspect`, `polar-report`...) as a user does."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run(
        [str(BIN / name), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
