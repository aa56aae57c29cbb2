"""One redaction for every output: URL userinfo, secret query values, header values and
arguments named like secrets, in nested values; fingerprints that differ with the secret."""

from __future__ import annotations

import json

import pytest

from polar_inspect.redaction import REDACTED, fingerprint, is_secret_name, redact, redact_text


@pytest.mark.parametrize(
    "name",
    ["api_key", "apiKey", "x-api-key", "API_KEY", "access_token", "Authorization", "password",
     "client_secret", "auth", "aws_secret_access_key", "Cookie", "key"],
)  # fmt: skip
def test_secret_names(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize(
    "name", ["max_tokens", "reasoning_tokens", "token_limit", "temperature", "monkey"]
)
def test_names_that_are_not_secrets(name: str) -> None:
    assert not is_secret_name(name)


def test_url_userinfo_and_secret_query_values_are_redacted_in_any_text() -> None:
    text = "base http://user:PW@host:8000/v1?api_key=abc&model=x and https://t0k@h/x"
    shown = redact_text(text)
    assert "PW" not in shown and "abc" not in shown and "t0k" not in shown
    assert "host:8000/v1" in shown and "model=x" in shown


def test_nested_arguments_and_headers_are_redacted() -> None:
    args = {
        "default_headers": {"X-Trace": "t-1", "api-key": "sk-live"},
        "client": {"Token": "abc", "options": [{"password": "pw"}, "http://u:p@h"]},
        "temperature": 0.5,
    }
    shown = json.dumps(redact(args))
    for secret in ("sk-live", "t-1", "abc", '"pw"', "u:p@"):
        assert secret not in shown
    assert "0.5" in shown and REDACTED in shown


def test_fingerprints_differ_with_the_secret_and_are_hidden_again_by_redact() -> None:
    one, two = fingerprint({"api_key": "sk-1"}), fingerprint({"api_key": "sk-2"})
    assert one != two and "sk-1" not in json.dumps(one)
    assert redact(one) == {"api_key": REDACTED}
    assert fingerprint("http://a:b@h/v1") != fingerprint("http://a:c@h/v1")
    assert redact_text(str(fingerprint("http://a:b@h/v1"))) == f"http://{REDACTED}@h/v1"
