"""Secrets never reach an output: one redaction for everything the package writes or shows.

A user's model arguments, base URLs and request headers can hold credentials
(`http://user:PW@host/v1`, `-M api_key=...`, `-M default_headers={"api-key": ...}`). Everything
polar_inspect writes (report files and figures, run labels, the run metadata and the sample
identity it puts in logs, messages) passes through `redact` first. It replaces:

- the user information of a URL (`scheme://user:password@host` -> `scheme://[redacted]@host`)
  and the value of a URL query parameter named like a secret, anywhere in a text;
- the value of a mapping entry whose name looks like a secret: a name with a word `key`,
  `apikey`, `token`, `secret`, `password` / `passwd` / `pwd`, `authorization` / `auth`,
  `credential(s)`, `cookie` or `signature` (case-insensitive, words split at `_ - .` and
  camelCase, so `api_key`, `apiKey`, `x-api-key`, `access_token`, `Authorization` match and
  `max_tokens` and `token_limit` do not: a word like `limit`, `max` or `count` makes the name
  a measure's);
- every value of a mapping entry named like headers (`headers`, `default_headers`,
  `extra_headers`...): header values are credentials as often as not;

in nested dicts, lists and tuples alike.

A run's identity must still tell two runs apart that differ only in a secret: `fingerprint`
replaces each secret by `[redacted sha256:<digest>]` (the digest of the secret, so the identity's
digest changes with it), and `redact` shows such a marker as `[redacted]` again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from typing import Any

REDACTED = "[redacted]"
#: Words that make an argument's name a secret's.
SECRET_WORDS = frozenset(
    {
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "authorization",
        "auth",
        "credential",
        "credentials",
        "cookie",
        "signature",
    }
)
#: Words that make a name a measure, not a secret (`token_limit`, `max_key_length`).
MEASURE_WORDS = frozenset({"limit", "limits", "count", "counts", "max", "min", "budget", "length",
                           "size", "type", "usage"})  # fmt: skip
_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?P<userinfo>[^/\s@?#\"']+)@")
_QUERY = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;#\s\"']+)=(?P<value>[^&;#\s\"']*)")
_MARKER = re.compile(r"\[redacted sha256:[0-9a-f]+\]")


def is_secret_name(name: str) -> bool:
    """Whether an argument, field or header name looks like a secret's (see the module)."""
    words = [w.lower() for w in _WORD_SPLIT.split(name) if w]
    if any(word in MEASURE_WORDS for word in words):
        return False
    return any(word in SECRET_WORDS for word in words) or name.lower().endswith(
        ("apikey", "api_key", "token", "password", "secret")
    )


def _is_headers_name(name: str) -> bool:
    return name.lower().replace("-", "_").endswith("headers")


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
        return redact_text(value) if secret is _hidden else _fingerprint_text(value)
    return value


def _entry(name: str, item: Any, secret: Callable[[Any], Any]) -> Any:
    """One mapping entry's value: every header's value hidden, a secret's hidden, else walked."""
    if _is_headers_name(name) and isinstance(item, Mapping):
        return {header: secret(v) for header, v in item.items()}
    if is_secret_name(name) and item is not None:
        return secret(item)
    return _walk(item, secret)


def _hidden(_value: Any) -> str:
    return REDACTED


def _digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode("utf-8")).hexdigest()[:16]


def _marker(value: Any) -> str:
    return f"[redacted sha256:{_digest(value)}]"


def _fingerprint_text(text: str) -> str:
    """URL userinfo and secret query values replaced by markers carrying their digests."""
    return _cover_secrets(text, _marker)


def redact(value: Any) -> Any:
    """`value` (a text, or nested dicts / lists) with every secret shown as `[redacted]`."""
    return _walk(value, _hidden)


def fingerprint(value: Any) -> Any:
    """`value` with every secret replaced by a marker carrying the secret's sha256 (for a
    run's identity: it changes with the secret and never shows it; `redact` hides the marker)."""
    return _walk(value, _marker)
