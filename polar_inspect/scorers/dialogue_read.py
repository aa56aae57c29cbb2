"""What every scorer reads of a sample, through one check: a dialogue that never happened is
never scored (`NothingToScoreError`), and only what was delivered is (docs/scoring.md, "What is
scored")."""

from __future__ import annotations

from inspect_ai.solver import TaskState

from polar_inspect.data.samples import SampleInfo, sample_info
from polar_inspect.dialogue.state import DialogueState
from polar_inspect.typed_store import read_only

#: What the user can do about each reason a dialogue never happened.
_ADVICE = {
    "attacker_unparsable": "the attacker model's answers could not be read even as plain text: "
    "bind a stronger attacker model",
    "attacker_empty": "the attacker model answered with nothing: bind a stronger attacker model",
    "attacker_no_attack": "the attacker model copied its instructions or its answer format "
    "instead of attacking (DialogueState.not_attacks): bind a stronger attacker model",
    "attacker_stop": "the live attacker answered <STOP> before its first message",
    "attacker_done": "the adaptive attacker said it was done before its first message",
    "no_turns": "the sample has no attacker turns and no live attacker: fix the record",
    "limit": "an Inspect limit (--message-limit, --token-limit, --time-limit, --working-limit) "
    "or a cancellation ended the sample before the first reply was delivered: raise it",
}


class NothingToScoreError(RuntimeError):
    """The trusted model never answered: the sample cannot be scored."""


class UndeliveredRecordError(RuntimeError):
    """A sample played before the delivered record existed (rescoring an older log)."""


def delivered_dialogue(state: TaskState) -> DialogueState:
    """The sample's dialogue as delivered (`DialogueState`, read from its store); an older
    log's record of replies without the delivered ones is refused, never scored as silence."""
    record = read_only(DialogueState, state.store)
    if record.replies and not record.delivered:
        raise UndeliveredRecordError(
            f"sample {state.sample_id}: its dialogue was played by an older polar_inspect that "
            "did not record what was delivered, so it cannot be scored again: run the "
            "evaluation again (inspect eval), or read its scores from the log as they are"
        )
    return record


def scorable_dialogue(state: TaskState) -> tuple[SampleInfo, DialogueState]:
    """The sample's inputs and dialogue, or NothingToScoreError (see the module)."""
    info = sample_info(state)
    record = delivered_dialogue(state)
    if record.never_answered:
        reason = record.stop_reason or "limit"
        advice = _ADVICE.get(reason, "")
        raise NothingToScoreError(
            f"sample {state.sample_id}: the trusted model never answered an attacker turn "
            f"(stop reason: {reason}{'; ' + advice if advice else ''}), so there is nothing to "
            "score. The sample is left out of the scores and counted as an error; run "
            "`inspect eval-retry` on the log to try it again, or pass --fail-on-error with a "
            "fraction to let the rest of the run finish."
        )
    if not info.protected_values or not info.allowed_values:
        raise NothingToScoreError(
            f"sample {state.sample_id}: cannot score: a sample needs at least one protected "
            "and one allowed value"
        )
    return info, record
