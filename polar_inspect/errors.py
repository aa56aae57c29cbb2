"""Errors the user must fix, and how they reach the terminal: one message, no traceback.

`UserInputError` is a `click.ClickException`. Inspect's command line is a click program, so
an error of this kind raised while `inspect eval` builds a task (a bad `-T` parameter, a
template file, a data file) is printed by click as one line, `Error: <message>`, and the
command exits with status 1. Called from Python (`inspect_ai.eval(...)`), it is an ordinary
exception (also a `ValueError`) whose text is the same message. Nothing in the process is
patched for this: no exception hook, no exit handler.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import click


class UserInputError(click.ClickException, ValueError):
    """An error the user must fix (data, selection, template or parameter); the message says
    what is wrong and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)

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
