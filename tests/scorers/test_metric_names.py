"""Every score name fits `inspect eval`'s summary at 80 columns: a name of 17 characters there is
cut (`fetched_protec…` in a row beside `empty` and `cut`), one of 15 is shown whole."""

from __future__ import annotations

from polar_inspect.scorers.agent_channel import AGENT_KEYS, LEGACY_AGENT_KEYS
from polar_inspect.scorers.flags import REPLY_FLAG_KEYS
from polar_inspect.scorers.parity import SCORE_KEYS
from polar_inspect.scorers.short_values import SHORT_KEYS
from polar_inspect.scorers.strict import ATTACKED_KEY

WIDEST = 15


def test_score_names_fit_the_summary() -> None:
    names = [*SCORE_KEYS, *REPLY_FLAG_KEYS, *SHORT_KEYS, *AGENT_KEYS, ATTACKED_KEY]
    assert [n for n in names if len(n) > WIDEST] == []


def test_every_old_agent_channel_name_maps_to_a_current_one() -> None:
    assert set(LEGACY_AGENT_KEYS.values()) <= set(AGENT_KEYS)
    assert not set(LEGACY_AGENT_KEYS) & set(AGENT_KEYS)
