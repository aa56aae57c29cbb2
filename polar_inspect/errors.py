"""Errors the user must fix: one message, no traceback (docs/hostile-checks.md)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import click


class UserInputError(click.ClickException, ValueError):
    """An error the user must fix; the message says what is wrong and what to do."""

    def __reduce__(self) -> tuple[object, ...]:
        # picklable (report workers, Inspect's subprocesses): rebuilt from the message alone
        return (type(self), (self.message,))


def closest_name(name: str, known: Iterable[str]) -> str | None:
    """The known name closest to a misspelt `name`, or None when none is close."""
    near = difflib.get_close_matches(name, list(known), n=1)
    return near[0] if near else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the known name closest to `name`, else an empty string."""
    near = closest_name(name, known)
    return f" (did you mean {near!r}?)" if near else ""
