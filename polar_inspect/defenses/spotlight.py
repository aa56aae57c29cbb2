"""`spotlight`: attacker messages between markers (spotlighting by delimiting, Hines et al.,
2024), explained in the system message; markers inside a message are removed first."""

from __future__ import annotations

from polar_inspect.defenses.base import Defense, DefenseContext
from polar_inspect.defenses.registry import builtin
from polar_inspect.prompts import LoadedTemplate, load_template

OPEN_MARKER = "<<<UNTRUSTED THIRD-PARTY MESSAGE>>>"
CLOSE_MARKER = "<<<END OF UNTRUSTED THIRD-PARTY MESSAGE>>>"


@builtin
class Spotlight(Defense):
    """The system note (replaceable with `spotlight@file`) and the message wrapper."""

    name = "spotlight"
    kind = "input"
    template_kind = "defense_spotlight_system"

    def __init__(self, prompt: str | None = None) -> None:
        super().__init__(prompt)
        self.message = load_template("defense_spotlight_message")

    def templates(self) -> list[LoadedTemplate]:
        """The system note (replaceable) and the message wrapper."""
        return [*super().templates(), self.message]

    def system_addendum(self, ctx: DefenseContext) -> str:
        """How to read the markers."""
        return self.text(open_marker=OPEN_MARKER, close_marker=CLOSE_MARKER)

    def wrap_message(self, ctx: DefenseContext, message: str) -> str:
        """The message between the markers, with any marker it contained removed."""
        clean = message.replace(OPEN_MARKER, "").replace(CLOSE_MARKER, "")
        return self.message.render(
            open_marker=OPEN_MARKER, message=clean, close_marker=CLOSE_MARKER
        ).strip()
