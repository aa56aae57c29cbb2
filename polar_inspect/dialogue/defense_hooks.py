"""The dialogue's entry points into a defense stack, kept out of the steps themselves.

The dialogue makes four calls per sample (see `steps.Dialogue`):

1. `start_defenses` once before the first round: the per-sample context; its
   `before_dialogue` gives the document the trusted model is given (document defenses such as
   `minimize` run here);
2. `SampleDefenses.system_message` on the rendered system prompt (prompt defenses' addenda);
3. `SampleDefenses.user_turn` on each attacker message (spotlighting, reminders);
4. `defended_reply` after each trusted turn: the draft is reviewed (guards, redaction), the
   conversation keeps what was sent, and that message is what the dialogue records as
   delivered (`DialogueState.deliver_reply`) once every defense has run on it.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant
from inspect_ai.solver import TaskState

from polar_inspect.data.samples import SampleInfo
from polar_inspect.defenses.base import DefenseContext
from polar_inspect.defenses.stack import DefenseStack, SampleDefenses
from polar_inspect.text import visible_text


def start_defenses(stack: DefenseStack, state: TaskState, info: SampleInfo) -> SampleDefenses:
    """The stack applied to this sample; its `before_dialogue` gives the document the trusted
    model is given."""
    return SampleDefenses(stack, DefenseContext.for_sample(info, str(state.sample_id)))


async def defended_reply(state: TaskState, guarded: SampleDefenses) -> ChatMessageAssistant | None:
    """The message the attacker is sent once the defenses ran on the draft (None: no assistant
    message to send): the conversation's last message, the original (reasoning included) when
    no defense changed its visible text; the defense record keeps the draft."""
    last = state.messages[-1]
    if not isinstance(last, ChatMessageAssistant):
        return None
    draft = visible_text(last.text)
    sent = await guarded.after_reply(draft)
    if sent == draft:
        return last
    message = ChatMessageAssistant(content=sent, model=last.model, source="generate")
    state.messages[-1] = message
    return message
