"""One trusted turn played by an Inspect `Agent` instead of a single model call: its reply,
its record (`AgentTurnRecord`) and the call a limit hits inside it; docs/agents.md ("What is
recorded")."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inspect_ai.agent import Agent, run
from inspect_ai.event import ModelEvent, ToolEvent
from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
)

from polar_inspect.data.samples import SampleInfo
from polar_inspect.detectors.match import contains_value
from polar_inspect.dialogue.document_tools import document_tools
from polar_inspect.dialogue.state import AgentStep, AgentTurnRecord
from polar_inspect.text import message_reasoning, visible_text
from polar_inspect.trusted_agents import added_messages

#: The transcript span each agent turn runs in.
AGENT_SPAN = "trusted agent"


@dataclass
class AgentTurn:
    """What one agent turn produced."""

    reply: ChatMessageAssistant  # the final reply (reasoning blocks kept, no tool calls)
    output: ModelOutput  # the agent's last model output (its stop reason)
    record: AgentTurnRecord


class TrustedAgentRunner:
    """The trusted agent of one sample, turn by turn (see the module)."""

    def __init__(self, agent: Agent, system: ChatMessageSystem, values: Sequence[str]) -> None:
        self.agent = agent
        self.history: list[ChatMessage] = [system]
        self.values = list(dict.fromkeys(values))
        self._final_id: str | None = None
        self._start = 0

    async def play(self, round_number: int, user_text: str) -> AgentTurn:
        """Run the agent on the attacker's message (as the defenses let it through)."""
        self.history.append(ChatMessageUser(content=user_text))
        known = {m.id for m in self.history}
        self._start = start = transcript().history.event_count
        state = await run(self.agent, self.history, name=AGENT_SPAN)
        calls = [e for e in transcript().history.events_from(start) if isinstance(e, ModelEvent)]
        new = added_messages(self.history, state.messages)
        reply, final_index = _final_reply(new, state.output)
        steps = [step for m in new[:final_index] for step in _steps(m)]
        returned = "\n\n".join(s.text for s in steps if s.kind == "tool_result")
        record = AgentTurnRecord(
            round=round_number,
            steps=steps,
            tool_calls=[s.tool for s in steps if s.kind == "tool_call"],
            fetched_values=[v for v in self.values if returned and contains_value(returned, v)],
            model_calls=len(calls),
        )
        # The agent's own system messages are its business: it adds them again each run.
        kept = [m for m in state.messages if m.id in known or not isinstance(m, ChatMessageSystem)]
        if final_index == len(new):  # the reply came from the output, not a message: add it
            kept.append(reply)
        self.history = kept
        self._final_id = reply.id
        return AgentTurn(reply=reply, output=state.output, record=record)

    def call_in_progress(self) -> str:
        """What the current turn was doing last: its model call or a tool call."""
        events = transcript().history.events_from(self._start)
        last = next((e for e in reversed(events) if isinstance(e, ModelEvent | ToolEvent)), None)
        if isinstance(last, ToolEvent):  # a model call logs its event as it starts
            return f"{AGENT_SPAN}: tool {last.function}"
        return f"{AGENT_SPAN}: model"

    def sent(self, text: str) -> None:
        """What the defenses sent instead of the agent's reply: its next turn sees that."""
        for index, message in enumerate(self.history):
            if message.id == self._final_id and visible_text(message.text) != text:
                self.history[index] = ChatMessageAssistant(content=text, source="generate")


def _final_reply(
    new: Sequence[ChatMessage], output: ModelOutput
) -> tuple[ChatMessageAssistant, int]:
    """The reply the third party receives, and its index among the new messages (len(new)
    when it is not one of them)."""
    for index in range(len(new) - 1, -1, -1):
        if isinstance(message := new[index], ChatMessageAssistant):
            if not message.tool_calls:
                return message, index
            break  # the agent ended on a tool call (a submit tool): its answer is the output's
    return ChatMessageAssistant(content=output.completion, source="generate"), len(new)


def _steps(message: ChatMessage) -> list[AgentStep]:
    """The recorded steps of one message the agent added before its final reply."""
    if isinstance(message, ChatMessageTool):
        text = message.error.message if message.error is not None else message.text
        return [AgentStep(kind="tool_result", tool=message.function or "", text=text)]
    if not isinstance(message, ChatMessageAssistant):
        return [AgentStep(kind="text", text=message.text)] if message.text else []
    steps: list[AgentStep] = []
    if reasoning := message_reasoning(message):
        steps.append(AgentStep(kind="reasoning", text=reasoning))
    if text := visible_text(message.text):
        steps.append(AgentStep(kind="text", text=text))
    for call in message.tool_calls or []:
        arguments = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
        steps.append(AgentStep(kind="tool_call", tool=call.function, text=arguments))
    return steps


def start_trusted_agent(
    factory: Callable[..., Agent], access: str, document: str, info: SampleInfo, system: str
) -> TrustedAgentRunner:
    """The sample's agent, built with the tools of its access mode (`document_tools`)."""
    agent = factory(tools=document_tools(access, document, info))
    values = [*info.protected_values, *info.allowed_values]
    return TrustedAgentRunner(agent, ChatMessageSystem(content=system), values)
