"""The dialogue solver: checks that the roles the run needs are bound before any model call, then
plays `steps.Dialogue`, a limit or a cancellation recorded as its cut (docs/architecture.md)."""

from __future__ import annotations

from inspect_ai.solver import Generate, Solver, TaskState, solver

from polar_inspect.dialogue.cut import recording_cut
from polar_inspect.dialogue.roles import check_roles
from polar_inspect.dialogue.steps import Dialogue
from polar_inspect.run.setup import RunSetup
from polar_inspect.typed_store import DeferredWrites

__all__ = ["TruncatedReplyError", "polar_dialogue"]


class TruncatedReplyError(RuntimeError):
    """With `truncated=fail`: a trusted reply hit the token limit or came back empty."""


@solver
def polar_dialogue(setup: RunSetup, deferred: DeferredWrites | None = None) -> Solver:
    """Play one POLAR-Bench dialogue: attacker turns as user messages, trusted replies via
    generate (or an agent), defenses around each trusted turn (see the module).

    Args:
        setup: The run's setup (configuration, templates, defenses, attacker), built once by
            the task.
        deferred: The task's, whose cleanup is `deferred.cleanup`: the record is written
            after the scorers (docs/architecture.md); None: when the dialogue ends.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        bound = check_roles(setup)  # before any model call: nothing is paid for in vain
        dialogue = Dialogue(setup, state, bound)
        try:
            with recording_cut(dialogue.record, dialogue.call_in_progress):
                await dialogue.open(state, generate)
                await dialogue.play(state)
            dialogue.finish()
        except BaseException:
            if dialogue.record.cut is not None:  # cut: Inspect scores what was delivered
                dialogue.finish()
            raise
        finally:
            dialogue.save(deferred)
        limits = dialogue.record.reply_limits
        if setup.config.truncated == "fail" and limits.affected:
            raise TruncatedReplyError(
                f"sample {state.sample_id}: trusted replies hit the token limit in rounds "
                f"{limits.truncated_rounds or 'none'} and were empty in rounds "
                f"{limits.empty_rounds or 'none'} (truncated=fail). Raise --max-tokens, or "
                "pass -T truncated=score to score such replies as they are."
            )
        return state

    return solve
