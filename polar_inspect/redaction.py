"""Secrets never reach an output (the rules: docs/large-runs.md#run-identity, "Secrets")."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

REDACTED = "[redacted]"
_WORDS = json.loads(Path(__file__).with_name("secret_words.json").read_text(encoding="utf-8"))
#: Words that make a name a secret's, and words that make it a measure's (`token_limit`).
SECRET_WORDS = frozenset(_WORDS["secret"])
MEASURE_WORDS = frozenset(_WORDS["measure"])
_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?P<userinfo>[^/\s@?#\"']+)@")
_QUERY = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;#\s\"']+)=(?P<value>[^&;#\s\"']*)")
_MARKER = re.compile(r"\[redacted sha256:[0-9a-f]+\]")


def is_secret_name(name: str) -> bool:
    """Whether an argument, field or header name looks like a secret's (`SECRET_WORDS`)."""
    words = [w.lower() for w in _WORD_SPLIT.split(name) if w]
    if any(word in MEASURE_WORDS for word in words):
        return False
    return any(word in SECRET_WORDS for word in words) or name.lower().endswith(
        ("apikey", "api_key", "token", "password", "secret")
    )


def redact_text(text: str) -> str:
    """A text with URL userinfo, secret query values and identity markers redacted."""
    return _cover_secrets(_MARKER.sub(REDACTED, text), _hidden)


def _cover_secrets(text: str, cover: Callable[[str], str]) -> str:
    """`text` with each URL userinfo and secret query value replaced by `cover(secret)`."""
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{cover(m['userinfo'])}@", text)

    def query(match: re.Match[str]) -> str:
        if is_secret_name(match["name"]) and match["value"]:
            return f"{match['lead']}{match['name']}={cover(match['value'])}"
        return match[0]

    return _QUERY.sub(query, text)


def _walk(value: Any, secret: Callable[[Any], Any]) -> Any:
    """Rebuild `value` with every secret entry's value replaced by `secret(value)`."""
    if isinstance(value, Mapping):
        return {name: _entry(str(name), item, secret) for name, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_walk(item, secret) for item in value)
    if isinstance(value, str):
        return redact_text(value) if secret is _hidden else _cover_secrets(value, _marker)
    return value


def _entry(name: str, item: Any, secret: Callable[[Any], Any]) -> Any:
    """One mapping entry's value: every header's value hidden, a secret's hidden, else walked."""
    if name.lower().replace("-", "_").endswith("headers") and isinstance(item, Mapping):
        return {header: secret(v) for header, v in item.items()}
    if is_secret_name(name) and item is not None:
        return secret(item)
    return _walk(item, secret)


def _hidden(_value: Any) -> str:
    return REDACTED


def _marker(value: Any) -> str:
    return f"[redacted sha256:{hashlib.sha256(repr(value).encode('utf-8')).hexdigest()[:16]}]"


def redact(value: Any) -> Any:
    """`value` (a text, or nested dicts / lists) with every secret shown as `[redacted]`."""
    return _walk(value, _hidden)


def fingerprint(value: Any) -> Any:
    """`value` with every secret replaced by a marker carrying its sha256 (`redact` hides it)."""
    return _walk(value, _marker)
