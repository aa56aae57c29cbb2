"""The template renderer's source document: a layout (a `DocContext` in, the text out; facts
placed verbatim, filler drawn from the context's pools within its word budget) filled to the
record's target length."""

from __future__ import annotations

from collections.abc import Callable

from polar_inspect.generate.domains import common_knowledge
from polar_inspect.generate.render.parts import DocContext, Fact
from polar_inspect.generate.symbolic import SymbolicRecord
from polar_inspect.generate.textgen import deal, words

PHRASING = common_knowledge().document_phrasing


def _spread(fixed: list[str], filler: list[str]) -> list[str]:
    """Place filler evenly between the fixed sentences (no randomness, so lengths are stable)."""
    if not fixed:
        return list(filler)
    out: list[str] = []
    per_gap, extra = divmod(len(filler), len(fixed))
    position = 0
    for index, sentence in enumerate(fixed):
        out.append(sentence)
        take = per_gap + (1 if index < extra else 0)
        out.extend(filler[position : position + take])
        position += take
    return out


def _paragraphs(d: DocContext, sentences: list[str]) -> str:
    """Sentences as paragraphs of four to seven sentences."""
    size = 4 + d.rng.randrange(4)
    chunks = (sentences[i : i + size] for i in range(0, len(sentences), size))
    return "\n\n".join(" ".join(s for s in chunk if s) for chunk in chunks)


def _body(d: DocContext, facts: list[Fact], parts: int) -> list[str]:
    """`parts` sections of running text (the facts as sentences dealt among them, the
    distractors mixed in); long sections are broken into paragraphs."""
    chunks = [[d.phrase(f, "says") for f in chunk] for chunk in deal(facts, parts)]
    for distractor in d.sym.distractors:
        chunks[d.rng.randrange(parts)].append(distractor.text)
    return [
        _paragraphs(d, _spread(chunk, d.fill(d.narrative, parts - index)))
        for index, chunk in enumerate(chunks)
    ]


def _ordered(d: DocContext) -> list[Fact]:
    """Identity first, then everything else in a seeded order."""
    facts = d.facts()
    first = [f for f in facts if f.spec.group == "identity"][:1]
    return first + d.shuffle([f for f in facts if f not in first])


def _subject(d: DocContext) -> str:
    return d.x(d.form.subject) if d.form.subject else d.x("[Update|Follow-up|Request] - {org}")


def email(d: DocContext) -> str:
    """A single internal email from one staff member to a colleague."""
    facts = _ordered(d)
    listed: list[Fact] = []
    if d.sym.layout_complexity == "complex":
        listed, facts = facts[: len(facts) // 3], facts[len(facts) // 3 :]
    body = _body(d, facts, 3)
    parts = [
        f"From: {d.slots['staff']} <{d.slots['staff_email']}>",
        f"To: {d.slots['colleague']} <{d.slots['colleague_email']}>",
        d.x("Date: {weekday}, {date} {time}"),
        f"Subject: {_subject(d)}",
        "",
        d.greeting(),
        "",
        d.x(d.rng.choice(PHRASING.openers)) + " " + body[0],
    ]
    if listed:
        parts += [
            "",
            d.x("[Key details|The details at a glance]:"),
            d.listing([d.kv(f) for f in listed]),
        ]
    parts += ["", body[1], "", body[2], "", d.x(d.rng.choice(PHRASING.closings)), "", d.signoff()]
    parts += [d.slots["staff"], f"{d.slots['staff_role'].title()}, {d.slots['org']}"]
    if d.sym.style != "terse":
        parts.append(f"Tel. {d.slots['staff_phone']}")
    return "\n".join(parts)


def thread(d: DocContext) -> str:
    """Two or three emails, newest first, the older ones quoted below a separator."""
    facts = _ordered(d)
    count = 3 if len(facts) >= 9 else 2
    bodies = _body(d, facts, count)
    separator = (
        "---------- Forwarded message ----------"
        if "forward" in d.form.id
        else "-----Original message-----"
    )
    people = [
        (d.slots["staff"], d.slots["staff_email"]),
        (d.slots["colleague"], d.slots["colleague_email"]),
    ]
    messages = []
    for index, body in enumerate(bodies):
        sender, recipient = people[index % 2], people[(index + 1) % 2]
        opener = d.x(
            d.rng.choice(PHRASING.openers if index == count - 1 else PHRASING.thread_replies)
        )
        messages.append(
            "\n".join(
                [
                    f"From: {sender[0]} <{sender[1]}>",
                    f"To: {recipient[0]} <{recipient[1]}>",
                    d.x("Sent: {weekday} {date}")
                    + f" {8 + 2 * (count - index):02d}:{15 * index:02d}",
                    f"Subject: {'Re: ' * (count - 1 - index)}{_subject(d)}",
                    "",
                    d.greeting(recipient[0]),
                    "",
                    f"{opener} {body}",
                    "",
                    d.signoff(),
                    sender[0].split()[0],
                ]
            )
        )
    return f"\n\n{separator}\n".join(messages)


def note(d: DocContext) -> str:
    """A free-text note with a short header and, in richer layouts, a list of next steps."""
    facts = _ordered(d)
    steps, _ = d.narrative.take(45, overhead=0 if d.sym.layout_complexity == "simple" else 1)
    body = _body(d, facts, 3)
    header = [
        f"{d.form.title} - {d.slots['org']}",
        d.x("Author: {staff} ({staff_role}) | {date} {time}"),
        "",
    ]
    tail = ["", d.x("[Next steps|To do]:"), d.bullets(steps)] if steps else []
    return "\n".join(header + [body[0], "", body[1], "", body[2]] + tail)


def report(d: DocContext) -> str:
    """A structured summary: a key/value section for identity and contact, narrative elsewhere."""
    sections = list(d.form.sections) or ["Summary", "Details", "Notes"]
    admin = [f for f in d.facts() if f.spec.group in ("identity", "contact")]
    rest = d.shuffle([f for f in d.facts() if f not in admin])
    narrative_sections = [s for i, s in enumerate(sections) if i != 1]
    bodies = _body(d, rest, len(narrative_sections))
    title = d.form.title.upper() if d.sym.layout_complexity != "simple" else d.form.title
    lines = [title, d.x("{org} | prepared by {staff}, {staff_role} | {date}"), ""]
    for index, title in enumerate(sections):
        heading = d.heading(title)
        body = _admin_listing(d, admin) if index == 1 else bodies[narrative_sections.index(title)]
        lines += [heading, body, ""]
    return "\n".join(lines).rstrip()


def _admin_listing(d: DocContext, admin: list[Fact]) -> str:
    """The key/value section of identity and contact facts ("-" without any)."""
    return d.listing([d.kv(f) for f in admin]) if admin else "-"


def _dialogue(d: DocContext, facts: list[Fact], staff: str, person: str, stamp: bool) -> list[str]:
    """Question-and-answer lines for the facts with filler exchanges between them."""
    exchanges = [f"{d.phrase(f, 'asked')}\n{d.phrase(f, 'spoken')}" for f in facts]
    overhead = len(staff.split()) + len(person.split()) + (2 if stamp else 0)
    filler = d.fill(d.dialogue, 2, overhead)
    lines: list[str] = []
    clock = int(d.slots["time"][:2]) * 60 + int(d.slots["time"][3:]) + 1
    for exchange in _spread(exchanges, filler):
        for speaker, text in zip((staff, person), exchange.split("\n"), strict=True):
            prefix = f"[{clock // 60 % 24:02d}:{clock % 60:02d}] " if stamp else ""
            lines.append(f"{prefix}{speaker}: {text}")
            clock += d.rng.randrange(0, 2)
    return lines


def _transcript(
    d: DocContext, facts: list[Fact], staff: str, person: str, stamp: bool
) -> tuple[list[str], list[str]]:
    """The dialogue about the facts the person says, and the notes: the staff-only facts, the
    distractors and filler."""
    noted = [d.phrase(f, "says") for f in facts if f.spec.staff_only]
    talk = _dialogue(d, [f for f in facts if not f.spec.staff_only], staff, person, stamp)
    return talk, noted + [s.text for s in d.sym.distractors] + d.fill(d.narrative)


def chat(d: DocContext) -> str:
    """A timestamped chat transcript followed by the staff member's wrap-up note."""
    facts = _ordered(d)
    agent = f"{d.slots['staff_first']} ({d.slots['org']})"
    lines = [
        d.x(f"{d.form.title} - {d.form.channel or 'web chat'} - {{date}}"),
        f"Participants: {agent}, Visitor",
        "",
        f"[{d.slots['time']}] {agent}: "
        + d.x("[Hello|Hi|Good day], [how can I help you today|what can I do for you]?"),
    ]
    talk, notes = _transcript(d, facts, agent, "Visitor", stamp=True)
    lines += [*talk, "", d.x("[Wrap-up note|Agent summary] ({staff}):"), _paragraphs(d, notes)]
    return "\n".join(lines)


def call(d: DocContext) -> str:
    """A call transcript (speaker labels, no timestamps) and the call summary."""
    facts = _ordered(d)
    lines = [
        d.x(f"{d.form.title} - {{org}} - {{weekday}} {{date}}, {{time}}"),
        d.x(
            "Call handled by {staff} ({staff_role}); recording transcribed "
            "[automatically|by the team]."
        ),
        "",
        d.x("Agent: {org}, [good morning|hello], you're speaking with {staff_first}."),
    ]
    talk, notes = _transcript(d, facts, "Agent", "Caller", stamp=False)
    lines += [*talk, "", d.heading("Call summary"), _paragraphs(d, notes)]
    return "\n".join(lines)


def voicemail(d: DocContext) -> str:
    """A transcribed voicemail in the caller's own words, then the handling note."""
    facts = _ordered(d)
    spoken = [d.phrase(f, "spoken") for f in facts if not f.spec.staff_only]
    noted = [d.phrase(f, "says") for f in facts if f.spec.staff_only]
    closing = d.x(
        "[Okay, I think that's everything for now, thanks a lot.|Right, that's all, thank you."
        "|Thanks, bye.]"
    )
    transcript = _spread(spoken, d.fill(d.monologue, 2)) + [closing]
    minutes, seconds = divmod(40 + 4 * len(" ".join(transcript).split()) // 3, 60)
    lines = [
        d.x(f"{d.form.title} - {{org}}"),
        d.x("Received: {weekday} {date}, {time}") + f" | Length: {minutes}:{seconds:02d}",
        d.x(
            "Transcribed [automatically|by speech-to-text]; [minor errors possible|not proofread]."
        ),
        "",
        '"' + " ".join(transcript) + '"',
        "",
        d.x("[Handling note|Note by] {staff}:"),
        _paragraphs(d, _spread(noted + [s.text for s in d.sym.distractors], d.fill(d.narrative))),
    ]
    return "\n".join(lines)


def record(d: DocContext) -> str:
    """A CRM entry, ticket or profile: a field table, a description and an activity log."""
    facts = _ordered(d)
    tabled = facts[: (2 * len(facts)) // 3]
    described = facts[len(tabled) :]
    width = max(len(f.spec.key_label) for f in tabled) + 2
    table = [
        f"{(f.spec.key_label + ':').ljust(width)} {f.text}"
        if d.sym.layout_complexity == "complex"
        else d.kv(f)
        for f in tabled
    ]
    description = _spread([d.phrase(f, "says") for f in described], d.fill(d.narrative, 2))
    entries = _spread([s.text for s in d.sym.distractors], d.fill(d.narrative, 1, overhead=4))
    log = [
        d.x("{date} ")
        + d.x(d.rng.choice(PHRASING.log_verbs))
        + f" ({d.slots['staff_first']}): {sentence}"
        for sentence in entries
    ]
    sections = list(d.form.sections) or ["Fields", "Description", "Activity log"]
    return "\n".join(
        [
            d.x(f"{d.form.title} #{{n}}") + d.x("[0|1|2][4|7|9]"),
            d.x("Owner: {staff} | Created: {date} {time} | [Status: open|Status: in progress]"),
            "",
            d.heading(sections[0]),
            *table,
            "",
            d.heading(sections[1]),
            _paragraphs(d, description),
            "",
            d.heading(sections[2]),
            *log,
        ]
    )


def calendar(d: DocContext) -> str:
    """A calendar entry with attendees and a notes field."""
    body = _body(d, _ordered(d), 2)
    return "\n".join(
        [
            d.form.title,
            f"Title: {_subject(d)}",
            d.x("When: {weekday}, {date}, {time} ([20|30|45] min)"),
            d.x("Where: {org}, [room|consultation room|office] {n}"),
            f"Organiser: {d.slots['staff']} <{d.slots['staff_email']}>",
            f"Also invited: {d.slots['colleague']}",
            d.x("Reminder: [15 minutes|1 hour|1 day] before"),
            "",
            d.heading("Notes"),
            body[0],
            "",
            d.heading("Preparation"),
            body[1],
        ]
    )


LAYOUTS: dict[str, Callable[[DocContext], str]] = {
    layout.__name__: layout
    for layout in (email, thread, note, report, chat, call, voicemail, record, calendar)
}


def render_document(sym: SymbolicRecord, attempt: int = 0) -> tuple[str, str]:
    """The source document and its template id: rendered once without filler to measure it,
    then with the remaining word budget, to land at or under `sym.target_words`."""
    form = sym.spec.form(sym.cell.form)
    layout = LAYOUTS[form.layout]
    base = layout(DocContext(sym, form, attempt, budget=0))
    budget = sym.target_words - words(base)
    text = base
    for _ in range(3):
        if budget <= 0:
            break
        text = layout(DocContext(sym, form, attempt, budget=budget))
        if (excess := words(text) - sym.target_words) <= 0:
            break
        budget -= excess
    return text, f"document/{sym.cell.domain}/{form.id}@{form.layout}"
