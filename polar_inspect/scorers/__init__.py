"""Inspect scorers (docs/scoring.md); each reads the sample through
`dialogue_read.scorable_dialogue`."""

from polar_inspect.scorers.agent_channel import agent_channel_scorer
from polar_inspect.scorers.flags import reply_flags
from polar_inspect.scorers.judge import polar_judge_scorer
from polar_inspect.scorers.parity import parity_scores, polar_scorer
from polar_inspect.scorers.strict import polar_strict_scorer

__all__ = ["agent_channel_scorer", "parity_scores", "polar_judge_scorer", "polar_scorer",
           "polar_strict_scorer", "reply_flags"]  # fmt: skip
