"""Every module and file `polar_inspect/eval.yaml` names exists (its comments included): the
register and its readers follow these paths."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from polar_inspect.register import EVAL_YAML

REPO = Path(__file__).resolve().parents[1]
#: A repository path: `polar_inspect/...`, `tests/...`, `docs/...`, ending in a file suffix.
_PATH = re.compile(r"\b(?:polar_inspect|tests|docs|datasets)/[\w./-]*\w\.(?:py|md|json|yaml)\b")


def named_paths(text: str) -> set[str]:
    """The repository paths a text names."""
    return set(_PATH.findall(text))


def test_every_path_named_in_eval_yaml_exists() -> None:
    text = EVAL_YAML.read_text(encoding="utf-8")
    paths = named_paths(text) | {t["task_path"] for t in yaml.safe_load(text)["tasks"]}
    assert "polar_inspect/register.py" in paths and "polar_inspect/tasks.py" in paths
    missing = sorted(path for path in paths if not (REPO / path).is_file())
    assert missing == [], f"eval.yaml names files that do not exist: {missing}"


def test_a_stale_path_is_seen() -> None:
    assert named_paths("# polar_inspect/eval_metadata.py reads it") == {
        "polar_inspect/eval_metadata.py"
    }
    assert not (REPO / "polar_inspect/eval_metadata.py").exists()
