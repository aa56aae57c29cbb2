"""The dialogue solver's entry points into a defense stack, kept out of the solver itself.

The solver makes four calls per sample (see `conversation.polar_dialogue`):

1. `start_defenses` once before the first round: the per-sample context, and the document the
   trusted model is given (document defenses such as `minimize` run here);
2. `SampleDefenses.system_message` on the rendered system prompt (prompt defenses' addenda);
3. `SampleDefenses.user_turn` on each attacker message (spotlighting, reminders);
4. `defended_reply` after each trusted `generate`: the draft is reviewed (guards, redaction)
   and the conversation keeps what was sent, which the attacker and the scorer read.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant
from inspect_ai.solver import TaskState

from polar_inspect.data.samples import SampleInfo
from polar_inspect.defenses.base import DefenseContext
from polar_inspect.defenses.stack import DefenseStack, SampleDefenses
from polar_inspect.sample_context import current_dialogue, sample_facts
from polar_inspect.text import visible_text


async def start_defenses(
    stack: DefenseStack, state: TaskState, info: SampleInfo
) -> tuple[SampleDefenses, str]:
    """The stack applied to this sample, and the document the trusted model is given."""
    guarded = stack.start(DefenseContext.for_sample(info, str(state.sample_id)))
    # the sample's facts, for reference agents a defense calls (scripted guard/minimiser)
    token = current_dialogue.set(sample_facts(str(state.sample_id), info))
    try:
        document = await guarded.before_dialogue()
    finally:
        current_dialogue.reset(token)
    return guarded, document


async def defended_reply(state: TaskState, guarded: SampleDefenses, count: bool = True) -> str:
    """Count the trusted call (unless `count` is false: an agent turn counts its own calls),
    then pass its draft through the defenses.

    The conversation's last message becomes the sent reply (what the attacker and the scorer
    read); the defense record keeps the draft. Returns the reply text for the dialogue's history
    (the full text, reasoning included, when no defense changed it).
    """
    if count:
        guarded.count_trusted(state.output.usage)
    last = state.messages[-1]
    if not isinstance(last, ChatMessageAssistant):
        return ""
    draft = visible_text(last.text)
    sent = await guarded.after_reply(draft)
    if sent == draft:
        return last.text
    state.messages[-1] = ChatMessageAssistant(content=sent, model=last.model, source="generate")
    return sent
