"""Prompt templates: every kind declared once (`TEMPLATE_KINDS`), one loader every template goes
through (`load_template`), the same rules for a default and a user's file (docs/templates.md)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import string
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from polar_inspect.errors import UserInputError

#: The largest template file accepted (the packaged ones are under 4 KiB).
MAX_TEMPLATE_BYTES = 256 * 1024
_ALLOWED_CONTROLS = {"\n", "\r", "\t"}


class PromptTemplateError(UserInputError):
    """A prompt template file cannot be used: not a readable text file, or placeholders it may
    not have, or without one it must have."""


class TemplateKind(BaseModel):
    """What one kind of template is for, and the placeholders it needs and may use."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    default: str  # the packaged file's stem in polar_inspect/prompts/ (JSON: the name if unsaid)
    purpose: str
    required: frozenset[str] = frozenset()
    allowed: frozenset[str] = frozenset()  # the required ones and these
    #: An empty file is meaningful (e.g. no opening message); otherwise it is refused.
    may_be_empty: bool = False


#: Every template the package uses, by kind name (declared in `template_kinds.json`).
TEMPLATE_KINDS: dict[str, TemplateKind] = {
    name: TemplateKind(name=name, default=entry.pop("default", name), **entry)
    for name, entry in json.loads(
        (files(__package__) / "template_kinds.json").read_text(encoding="utf-8")
    ).items()
}


class LoadedTemplate(BaseModel):
    """One template as a run uses it: its kind, where it came from, its text and hash."""

    model_config = ConfigDict(frozen=True)

    kind: str
    source: str  # "default" or the path the user gave
    sha256: str  # of the text (UTF-8), full length
    text: str

    def render(self, **values: object) -> str:
        """The text with its placeholders filled in (every placeholder needs a value)."""
        return self.text.format(**values)

    def literal_parts(self) -> list[str]:
        """The template's own words: the text between its placeholders (`{{` read as `{`),
        without anything a placeholder is filled with."""
        return [part for part, _, _, _ in string.Formatter().parse(self.text) if part.strip()]


def prompt_hash(text: str) -> str:
    """The full sha256 (hex) of a template text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_text(stem: str) -> str:
    """The text of the packaged template file `stem` (e.g. `trusted_system`)."""
    return (files(__package__) / f"{stem}.txt").read_text(encoding="utf-8")


def placeholders(text: str, origin: str = "template") -> set[str]:
    """The placeholder names of a template text; PromptTemplateError for any other field."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as err:
        raise PromptTemplateError(
            f"{origin}: malformed placeholder ({err}); write literal braces as {{{{ and }}}}"
        ) from err
    names: set[str] = set()
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        shown = f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
        if not name.isidentifier():
            raise PromptTemplateError(
                f"{origin}: placeholder {shown} is not a plain name; use a name such as "
                "{document} (positional fields, attributes and indexes are not allowed)"
            )
        if spec or conversion:
            raise PromptTemplateError(
                f"{origin}: placeholder {shown} has a format spec or conversion; write "
                "{" + name + "} alone (specs and conversions change what the model is shown "
                "without it being visible in the template)"
            )
        names.add(name)
    return names


def _read_text_file(path: str) -> str:
    """The text of a user's template file, or PromptTemplateError saying why not."""
    file = Path(path).expanduser()
    try:
        info = file.stat()
        if stat.S_ISDIR(info.st_mode):
            raise PromptTemplateError(f"Prompt template {file} is a folder; give a text file")
        if not stat.S_ISREG(info.st_mode):
            raise PromptTemplateError(
                f"Prompt template {file} is not an ordinary file (a device, pipe or socket); "
                "give a text file"
            )
        if info.st_size > MAX_TEMPLATE_BYTES:
            raise PromptTemplateError(
                f"Prompt template {file} has {info.st_size:,} bytes; a template may have at "
                f"most {MAX_TEMPLATE_BYTES:,}"
            )
        with open(file, "rb") as handle:
            data = handle.read(MAX_TEMPLATE_BYTES + 1)
    except FileNotFoundError:
        raise PromptTemplateError(f"Prompt template file not found: {file}") from None
    except OSError as err:
        raise PromptTemplateError(
            f"Prompt template {file} cannot be read ({err.strerror or err})"
        ) from None
    if len(data) != info.st_size:
        # a file whose size the system does not know (/proc, /sys) or that changes while read
        raise PromptTemplateError(
            f"Prompt template {file} is not an ordinary text file (its size is "
            f"{info.st_size} bytes but {len(data)} were read: a /proc or /sys file, or one "
            "being written); copy the template into a file of its own"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PromptTemplateError(
            f"Prompt template {file} is not UTF-8 text (byte {err.start}): save it as UTF-8"
        ) from None
    bad = next((c for c in text if (c < " " and c not in _ALLOWED_CONTROLS) or c == "\x7f"), None)
    if bad is not None:
        raise PromptTemplateError(
            f"Prompt template {file} holds the control character {ord(bad):#04x} at offset "
            f"{text.index(bad)}: a template is plain text"
        )
    return text


def _braced(names: Iterable[str]) -> str:
    return ", ".join("{" + name + "}" for name in sorted(names))


def load_template(kind: str, path: str | os.PathLike[str] | None = None) -> LoadedTemplate:
    """Read the template of `kind` from `path` (None: the packaged default) and check it."""
    spec = TEMPLATE_KINDS[kind]
    if path is None:
        text, origin, source = default_text(spec.default), f"default {spec.default}.txt", "default"
    else:
        text, origin, source = _read_text_file(os.fspath(path)), os.fspath(path), os.fspath(path)
    origin = f"{origin} ({spec.purpose})"
    if not text.strip() and not spec.may_be_empty:
        raise PromptTemplateError(f"{origin}: the template is empty")
    names, allowed = placeholders(text, origin), spec.allowed | spec.required
    if unknown := sorted(names - allowed):
        raise PromptTemplateError(
            f"{origin}: unknown placeholder(s) {_braced(unknown)}; "
            f"allowed: {_braced(allowed) or 'none'} (write literal braces as {{{{ and }}}})"
        )
    if missing := sorted(spec.required - names):
        raise PromptTemplateError(
            f"{origin}: the required placeholder(s) {_braced(missing)} are missing; this "
            f"template must use {_braced(spec.required)}"
        )
    return LoadedTemplate(kind=spec.name, source=source, sha256=prompt_hash(text), text=text)
