"""The trusted turn, chosen once per sample: the paper's single model call, or an Inspect agent.

Both have one shape (`TrustedTurn.play`): given the attacker's message as the defenses let it
through (already the conversation's last message), they leave the trusted party's draft as the
conversation's last message and its `ModelOutput` in `state.output`. `sent` tells the turn what
the defenses sent instead of its draft (an agent's next turn sees that), and `call` names the
call in progress for the record of a cut.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from inspect_ai.agent import Agent
from inspect_ai.solver import Generate, TaskState
from inspect_ai.util import store_as

from polar_inspect.batch_guard import answered
from polar_inspect.data.samples import SampleInfo
from polar_inspect.dialogue.agent_turn import AGENT_SPAN, TrustedAgentRunner, start_trusted_agent
from polar_inspect.dialogue.prompt_cache import breakpoint_messages
from polar_inspect.dialogue.state import TrustedAgentState

#: The call name of the paper's trusted model call (also its model role's name).
TRUSTED_CALL = "trusted"


class TrustedTurn(Protocol):
    """One trusted turn per round (see the module)."""

    name: str  # the step's name in the record: `trusted` or `trusted agent`

    async def play(self, state: TaskState, number: int) -> None:
        """Play round `number` (1-based): the draft becomes the conversation's last message."""
        ...

    def sent(self, text: str) -> None:
        """What the defenses sent instead of the draft."""
        ...

    def call(self) -> str:
        """The call in progress inside the turn (for the record of a cut)."""
        ...


class ModelTurn:
    """The paper's trusted turn: one `generate` on the conversation, with the authors' seed."""

    name = TRUSTED_CALL

    def __init__(
        self, generate: Generate, seed: Callable[[int], int], rounds: int, model: str
    ) -> None:
        self._generate = generate
        self._seed = seed  # 0-based round index -> the call's seed
        self._rounds = rounds  # the dialogue's rounds, for the prompt-cache policy
        self._model = model

    async def play(self, state: TaskState, number: int) -> None:
        """One model call on the whole conversation, with the prompt-cache policy's marks
        (`prompt_cache.breakpoint_messages`, docs/cost.md)."""
        state.messages, cache = breakpoint_messages(
            state.messages, number - 1, self._rounds, self._model
        )
        seed = self._seed(number - 1)
        after = await answered(self._generate(state, seed=seed, cache_prompt=cache))
        if after is not state:  # a wrapped generate may hand back another state object
            state.messages, state.output = after.messages, after.output

    def sent(self, text: str) -> None:
        """The conversation already holds what was sent (`steps._defended_reply`)."""

    def call(self) -> str:
        """Always the trusted model's call."""
        return TRUSTED_CALL


class AgentTurn:
    """A trusted turn played by an Inspect agent; its steps go to `TrustedAgentState`."""

    name = AGENT_SPAN

    def __init__(self, runner: TrustedAgentRunner, record: TrustedAgentState) -> None:
        self._runner = runner
        self._record = record

    async def play(self, state: TaskState, number: int) -> None:
        """Run the agent on the attacker's message; its final reply joins the conversation."""
        played = await self._runner.play(number, state.messages[-1].text)
        state.messages.append(played.reply)
        state.output = played.output
        self._record.turns = [*self._record.turns, played.record]

    def sent(self, text: str) -> None:
        """The agent's next turn sees what was sent, not its draft."""
        self._runner.sent(text)

    def call(self) -> str:
        """The agent's model call or tool call in progress."""
        return self._runner.call_in_progress()


def agent_turn(
    factory: Callable[..., Agent],
    agent_name: str | None,
    access: str,
    document: str,
    info: SampleInfo,
    system: str,
) -> AgentTurn:
    """The trusted agent of one sample, with the tools of its access mode."""
    record = store_as(TrustedAgentState)
    record.agent = agent_name
    record.document_access = access
    return AgentTurn(start_trusted_agent(factory, access, document, info, system), record)
