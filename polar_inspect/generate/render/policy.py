"""The template renderer's privacy policy (fields and concepts, never a value) and task."""

from __future__ import annotations

import random

from polar_inspect.generate.domains import common_knowledge
from polar_inspect.generate.domains.schema import FieldSpec, labels
from polar_inspect.generate.symbolic import SymbolicRecord, derive_seed
from polar_inspect.generate.textgen import expand, join_list, words

POLICY_WORDS = (40, 100)
TASK_WORDS = (20, 50)

PHRASING = common_knowledge().policy_phrasing


def _level_slots(
    sym: SymbolicRecord, chosen: list[FieldSpec], slots: dict[str, str], rng: random.Random
) -> None:
    """Add the slots only P3 (conditions), P4 (abstractions) and P5 (what is held) use."""
    spec, level = sym.spec, sym.cell.policy
    if level == "P3":
        slots["conditions"] = " ".join(
            expand(
                PHRASING.condition,
                rng,
                {
                    "condition": rng.choice(spec.conditions),
                    "abstraction": f.abstraction,
                    "label": f.label,
                },
            )
            for f in chosen
        )
    if level == "P4":
        parts = [f"for the {f.label}, only {f.abstraction}" for f in chosen]
        slots["abstractions"] = "; ".join(parts)
        slots["abstractions_sentence"] = (
            "For the "
            + "; for the ".join(f"{f.label}, only {f.abstraction} may be given" for f in chosen)
            + "."
        )
    if level == "P5":
        slots["held"] = (
            f"the {spec.person}'s {slots['protected']}" if rng.random() < 0.5 else slots["concepts"]
        )


def _one_policy(sym: SymbolicRecord, rng: random.Random) -> tuple[str, str]:
    spec, level = sym.spec, sym.cell.policy
    task = sym.task
    abstract = [f for f in spec.protected if f.abstraction]
    chosen = rng.sample(abstract, min(len(abstract), rng.choice((1, 2)))) if abstract else []
    rest = [f for f in spec.protected if f not in chosen]
    slots = {
        "allowed": labels(spec.allowed),
        "protected": labels(spec.protected),
        "person": spec.person,
        "topic": task.topic,
        "concepts": spec.concept_phrases,
        "rest": labels(rest) if level in ("P3", "P4") else "",
        "exact": join_list([f.label if "exact" in f.label else f"exact {f.label}" for f in chosen]),
    }
    _level_slots(sym, chosen, slots, rng)
    templates = PHRASING.levels[level]  # type: ignore[index]
    index = rng.randrange(len(templates))
    return expand(templates[index], rng, slots), f"policy/{level}/{index}"


def render_policy(sym: SymbolicRecord, attempt: int = 0) -> tuple[str, str]:
    """The policy for the record's level and its template id: the level's core statement,
    framed by an opening and a closing sentence while it stays within 40-100 words."""
    rng = random.Random(derive_seed(sym.record_seed, "policy", attempt))
    text, template = _one_policy(sym, rng)
    for _ in range(12):
        if words(text) <= POLICY_WORDS[1]:
            break
        text, template = _one_policy(sym, rng)
    slots = {"topic": sym.task.topic, "org": sym.context["org"], "person": sym.spec.person}
    for frame, place in ((PHRASING.intros, "intro"), (PHRASING.outros, "outro")):
        extra = expand(rng.choice(frame), rng, slots)
        longer = f"{extra} {text}" if place == "intro" else f"{text} {extra}"
        if rng.random() < 0.85 and words(longer) <= POLICY_WORDS[1]:
            text, template = longer, f"{template}+{place}"
    return text, template


def render_task(sym: SymbolicRecord, attempt: int = 0) -> tuple[str, str]:
    """The task instruction and its template id (a lead-in or tail keeps it at 20+ words)."""
    rng = random.Random(derive_seed(sym.record_seed, "task", attempt))
    text = expand(sym.task.text, rng, {"person": sym.spec.person, "org": sym.context["org"]})
    template = f"task/{sym.cell.domain}/{sym.task_id}"
    if rng.random() < 0.2:
        text = rng.choice(PHRASING.task_leads) + text[:1].lower() + text[1:]
        template += "+lead"
    if words(text) < TASK_WORDS[0] + 1 or rng.random() < 0.15:
        text = f"{text} {rng.choice(PHRASING.task_tails)}"
        template += "+tail"
    return text, template
