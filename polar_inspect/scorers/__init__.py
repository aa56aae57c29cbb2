"""Inspect scorers: the paper's privacy/utility/overall, the strict detector's, the optional
LLM judge's, the trusted agent's own channel (with `-T trusted_agent`), and the flags a reader
must see beside them. Each reads the sample's inputs and
its dialogue through `dialogue_read.scorable_dialogue`, which refuses a dialogue that never
happened."""

from polar_inspect.scorers.agent_channel import agent_channel_scorer
from polar_inspect.scorers.flags import reply_flags
from polar_inspect.scorers.judge import polar_judge_scorer
from polar_inspect.scorers.parity import parity_scores, polar_scorer
from polar_inspect.scorers.strict import polar_strict_scorer

__all__ = [
    "agent_channel_scorer",
    "parity_scores",
    "polar_judge_scorer",
    "polar_scorer",
    "polar_strict_scorer",
    "reply_flags",
]
