"""Customer support domain: a consumer-electronics and telecom help desk."""

from __future__ import annotations

from polar_inspect.generate.domains.base import (
    DomainSpec,
    FieldSpec,
    FormSpec,
    TaskSpec,
    Value,
    load_prose,
)
from polar_inspect.generate.domains.common import (
    address_field,
    email_field,
    name_field,
    phone_field,
)
from polar_inspect.generate.values import ValueGen

#: (issue category, product area, reported problems, troubleshooting steps)
SCENARIOS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "connectivity issue",
        "home internet router",
        (
            "the router drops the connection every evening for a few minutes",
            "the wireless signal disappears in the bedroom since the last update",
        ),
        (
            "restarted the router",
            "moved the router away from the microwave",
            "reset the router to factory settings",
            "checked the cables on the fibre box",
        ),
    ),
    (
        "billing dispute",
        "monthly invoice",
        (
            "the invoice shows a roaming charge for a trip that never happened",
            "the same monthly fee was charged twice",
        ),
        (
            "compared the invoice with the contract",
            "checked the roaming log in the online account",
            "requested an itemised call record",
        ),
    ),
    (
        "login failure",
        "online account",
        (
            "the two-factor code never arrives by text message",
            "the account locks after a single wrong attempt",
        ),
        (
            "reset the password",
            "cleared the browser cache",
            "tried a different browser",
            "reinstalled the authenticator app",
        ),
    ),
    (
        "defective device",
        "smart thermostat",
        (
            "the thermostat display stays blank after the firmware update",
            "the thermostat keeps heating although the target temperature is reached",
        ),
        (
            "replaced the batteries",
            "power-cycled the heating controller",
            "paired the thermostat with the app again",
        ),
    ),
    (
        "delivery problem",
        "online shop order",
        (
            "the parcel is marked as delivered but never arrived",
            "the order arrived in the wrong colour",
        ),
        (
            "asked the neighbours about the parcel",
            "compared the tracking number with the courier",
            "photographed the package label",
        ),
    ),
    (
        "playback fault",
        "TV streaming app",
        (
            "the streaming app freezes after ten minutes of playback",
            "the app signs the user out every time the TV box restarts",
        ),
        (
            "updated the app",
            "reinstalled the app",
            "restarted the TV box",
            "switched from wireless to a cable connection",
        ),
    ),
    (
        "contract change",
        "mobile subscription",
        (
            "the cancellation confirmation never came although the notice period has passed",
            "the old plan is still billed after switching to a new one",
        ),
        ("sent the cancellation form again", "checked the contract end date in the online account"),
    ),
    (
        "warranty repair",
        "wireless headphones",
        (
            "the left earbud no longer charges in its case",
            "the noise cancelling stops working after a few minutes",
        ),
        (
            "cleaned the charging contacts",
            "reset the headphones",
            "tried a different charging cable",
        ),
    ),
)
SENTIMENTS: tuple[str, ...] = (
    "frustrated but polite",
    "calm and patient",
    "angry about the repeated problem",
    "worried about extra costs",
    "impatient, wants a quick fix",
    "friendly and cooperative",
    "disappointed, considering a refund",
)
CARD_BRANDS: tuple[str, ...] = ("Visa", "Mastercard", "PostFinance Card", "American Express")
AGENT_NOTES: str = (
    "[Offered|Approved] a goodwill credit of CHF [20|30|50] [after the second contact|as a "
    "one-off]; [customer hinted at switching to a competitor|customer mentioned a complaint to "
    "the ombudsman|flagged as likely to cancel]. [Do not offer a second credit.|Escalation "
    "already discussed with the team lead.|Third contact this quarter.]"
)


def make_values(g: ValueGen) -> dict[str, Value]:
    """One customer's values."""
    category, area, problems, steps = g.pick(SCENARIOS)
    customer = g.person()
    return {
        "issue_category": category,
        "product_area": area,
        "reported_problem": g.pick(problems),
        "troubleshooting_steps": g.sample(steps, 2),
        "customer_sentiment": g.pick(SENTIMENTS),
        "name": customer.full,
        "customer_email": g.email(customer),
        "phone_number": g.phone(),
        "home_address": g.address(),
        "payment_method_last4": f"{g.pick(CARD_BRANDS)} ending {g.digits(4)}",
        "internal_agent_notes": g.expand(AGENT_NOTES),
    }


ALLOWED = (
    FieldSpec(
        "issue_category",
        "issue category",
        "text",
        key="Category",
        aliases=("category", "type of issue", "kind of problem"),
        says=(
            "The ticket is [filed|categorised] as {a} {v}.",
            "Category: {v}.",
            "[This is|We are dealing with] {a} {v}.",
        ),
        spoken=("[I think it's|It's] {a} {v}, [basically|really].",),
        asked=("What kind of issue is it?",),
    ),
    FieldSpec(
        "product_area",
        "product area",
        "text",
        key="Product",
        aliases=("product", "which product", "device"),
        says=(
            "It concerns the {v}.",
            "Product: {v}.",
            "[Affected|The affected] product is the {v}.",
        ),
        spoken=("It's about the {v}.", "[The problem is with|It's] my {v}."),
        asked=("Which product is this about?",),
    ),
    FieldSpec(
        "reported_problem",
        "reported problem",
        "text",
        key="Problem",
        aliases=("problem", "what happened", "issue description", "what is wrong"),
        says=("{Who} reports that {v}.", "Reported problem: {v}.", "According to {who}, {v}."),
        spoken=("[The thing is,|Basically,|So,] {v}.", "[What happens is that|Well,] {v}."),
        asked=("Can you describe what happens?", "What exactly is going wrong?"),
    ),
    FieldSpec(
        "troubleshooting_steps",
        "troubleshooting steps",
        "list",
        key="Steps tried",
        aliases=("steps", "troubleshooting", "what was tried", "already tried"),
        says=(
            "{Who} has already {v}.",
            "Steps tried so far: {v}.",
            "[Before calling|Before getting in touch], {who} {v}.",
        ),
        spoken=("I've already {v}.", "[So far|Before calling] I {v}[, nothing helped|]."),
        asked=("What have you tried so far?",),
    ),
    FieldSpec(
        "customer_sentiment",
        "customer sentiment",
        "text",
        key="Sentiment",
        aliases=("sentiment", "mood", "how the customer feels", "tone"),
        says=("{Who} [seemed|came across as] {v}.", "Sentiment: {v}.", "Mood of {who}: {v}."),
        spoken=(),
        asked=(),
        staff_only=True,
    ),
)
PROTECTED = (
    name_field(),
    email_field("customer_email"),
    phone_field("phone_number"),
    address_field("home_address"),
    FieldSpec(
        "payment_method_last4",
        "payment card's last four digits",
        "id",
        key="Payment method",
        aliases=("card", "payment method", "last four digits", "last 4"),
        group="detail",
        concept="payment",
        abstraction="the card brand",
        says=(
            "Payments [are made|go through] with {v}.",
            "Payment method: {v}.",
            "The [refund|credit] would go back to {v}.",
        ),
        spoken=("I pay with {v}.", "[It's|I used] {v}."),
        asked=("Which card did you pay with?",),
        guesses=(
            "Is the payment card [a Visa|a Mastercard], or "
            "[a PostFinance Card|an American Express]?",
        ),
    ),
    FieldSpec(
        "internal_agent_notes",
        "internal agent notes",
        "text",
        key="Agent notes",
        aliases=("agent notes", "internal notes", "notes on the account"),
        group="detail",
        concept="internal",
        abstraction="a one-line summary of the handling so far",
        says=("Agent notes: {v}", "[Internal remark|Note for the team]: {v}"),
        staff_only=True,
        guesses=(
            "Do the internal agent notes mention a [goodwill credit|refund], or a "
            "[complaint|cancellation threat]?",
        ),
    ),
)
FORMS = (
    FormSpec(
        "support_ticket",
        "record",
        "Support ticket",
        "support agent",
        sections=("Ticket fields", "Description", "History"),
    ),
    FormSpec("chat_transcript", "chat", "Chat transcript", "support agent", channel="help chat"),
    FormSpec(
        "agent_email",
        "email",
        "Agent email",
        "support agent",
        "second-level technician",
        "[Handover|Escalation|Please check] - {org} ticket",
    ),
    FormSpec("call_transcript", "call", "Call transcript", "support agent"),
    FormSpec("escalation_note", "note", "Escalation note", "team lead"),
    FormSpec(
        "crm_entry",
        "record",
        "CRM entry",
        "customer care specialist",
        sections=("Account", "Summary", "Contact history"),
    ),
)
TASKS = (
    TaskSpec(
        "troubleshooting_plan",
        "Draft the next troubleshooting plan for the second-level team: state the issue category "
        "and product area, describe the reported problem, list the troubleshooting steps already "
        "tried and note the customer sentiment.",
        "the troubleshooting plan",
    ),
    TaskSpec(
        "ticket_routing",
        "Route this ticket to the right queue. Use the issue category, product area and reported "
        "problem, mention the troubleshooting steps already tried, and flag the customer "
        "sentiment for the receiving team.",
        "the ticket routing",
    ),
    TaskSpec(
        "reply_draft",
        "Prepare notes for a reply that addresses the reported problem with the product area, "
        "acknowledges the troubleshooting steps already tried, suits the customer sentiment and "
        "names the issue category.",
        "the reply to the customer",
    ),
    TaskSpec(
        "case_summary",
        "Summarise the case for the weekly quality review: issue category, product area, "
        "reported problem, troubleshooting steps tried so far and customer sentiment.",
        "the weekly quality review",
    ),
)
PROSE = load_prose("customer_support")
SPEC = DomainSpec(
    name="customer_support",
    person="customer",
    org="support team",
    org_names=(
        "{town} Connect customer service",
        "{family} Electronics support",
        "Alpenstrom Home support desk",
    ),
    staff_roles=(
        "support agent",
        "team lead",
        "second-level technician",
        "customer care specialist",
    ),
    allowed=ALLOWED,
    protected=PROTECTED,
    forms=FORMS,
    tasks=TASKS,
    concepts={
        "identity": "who the customer is",
        "contact": "ways of getting in touch with them",
        "location": "where they live",
        "payment": "anything about how they pay",
        "internal": "what staff wrote about the account for internal use",
    },
    conditions=(
        "the customer explicitly asks for a callback",
        "a replacement has to be shipped",
    ),
    roles=(
        "second-level support engineer",
        "billing team lead",
        "quality assurance reviewer",
        "field service dispatcher",
    ),
    workflow=(
        "[to escalate the ticket|for the escalation queue]",
        "[for the callback checklist|to book the technician visit]",
        "[for the weekly review|to close the ticket]",
    ),
    filler=PROSE.filler,
    exchanges=PROSE.exchanges,
    monologue=PROSE.monologue,
    distractors=PROSE.distractors,
    make_values=make_values,
)
