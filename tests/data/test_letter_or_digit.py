"""`has_letter_or_digit` (a regular expression, for the records' validation speed) agrees with
`str.isalnum` on every Unicode code point, and on strings mixing them."""

from __future__ import annotations

import sys

from polar_inspect.data.record_values import has_letter_or_digit


def test_agrees_with_isalnum_on_every_code_point() -> None:
    wrong = [
        code
        for code in range(sys.maxunicode + 1)
        if has_letter_or_digit(chr(code)) != chr(code).isalnum()
    ]
    assert wrong == []


def test_strings() -> None:
    assert not has_letter_or_digit("") and not has_letter_or_digit(" _-—\u00b7 ")
    assert (
        has_letter_or_digit("_\u0663_")
        and has_letter_or_digit("-- é")
        and has_letter_or_digit("中")
    )
