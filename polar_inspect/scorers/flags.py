"""Per-sample flags a reader must see next to the scores: replies cut or empty, dialogues cut
(`truncated`, `empty`, `cut`: docs/scoring.md, "Truncated, empty and cut")."""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from polar_inspect.scorers.dialogue_read import scorable_dialogue
from polar_inspect.scorers.parity import dialogue_warnings

#: The flags' score keys.
REPLY_FLAG_KEYS = ("truncated", "empty", "cut")


@scorer(metrics={key: [mean()] for key in REPLY_FLAG_KEYS})
def reply_flags() -> Scorer:
    """Flags samples whose replies were cut or empty, or whose dialogue a limit cut short."""

    async def score(state: TaskState, target: Target) -> Score:
        _, record = scorable_dialogue(state)
        limits = record.reply_limits
        warnings = dialogue_warnings(record)
        return Score(
            value={
                "truncated": 1.0 if limits.truncated_rounds else 0.0,
                "empty": 1.0 if limits.empty_rounds else 0.0,
                "cut": 1.0 if record.cut_by_limit else 0.0,
            },
            explanation="\n\n".join(warnings) if warnings else "no reply cut or empty",
        )

    return score
