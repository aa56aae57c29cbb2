"""Default prompt templates (text files with `{named}` placeholders) and their loader."""

from __future__ import annotations

import string
from importlib.resources import files
from pathlib import Path


class PromptTemplateError(ValueError):
    """A prompt template file is missing or uses placeholders it may not."""


def _default_text(name: str) -> str:
    return (files(__package__) / f"{name}.txt").read_text(encoding="utf-8")


def load_template(path: str | Path | None, default: str, allowed: set[str]) -> str:
    """Read a template file (or the packaged default `default`) and check its placeholders.

    Every `{name}` in the template must be in `allowed`; literal braces are written `{{ }}`.
    """
    if path is None:
        text, origin = _default_text(default), f"default template {default}.txt"
    else:
        file = Path(path).expanduser()
        if not file.is_file():
            raise PromptTemplateError(f"Prompt template file not found: {file}")
        text, origin = file.read_text(encoding="utf-8"), str(file)
    try:
        names = {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}
    except ValueError as err:
        raise PromptTemplateError(f"{origin}: malformed placeholder ({err})") from err
    unknown = sorted(names - allowed)
    if unknown:
        raise PromptTemplateError(
            f"{origin}: unknown placeholder(s) {', '.join('{' + n + '}' for n in unknown)}; "
            f"allowed: {', '.join('{' + n + '}' for n in sorted(allowed))}"
        )
    return text
