"""Turn a symbolic record and its four texts into a record in the release (HF) format."""

from __future__ import annotations

from typing import Any

from faker import VERSION as FAKER_VERSION

from polar_inspect.axes import ATTACK_TYPES, POLICY_TYPES
from polar_inspect.generate.checks import Texts, mentions, parse_turns, partially_allowed
from polar_inspect.generate.domains.schema import labels
from polar_inspect.generate.render.attacker import attacker_goal
from polar_inspect.generate.symbolic import SymbolicRecord
from polar_inspect.generate.textgen import join_list

GENERATOR_NAME = "polar_inspect.generate"
#: Bump whenever the output for a given seed changes (templates, domain data, value formats).
GENERATOR_VERSION = "1.1.0"


def level_number(code: str) -> int:
    """The release's integer for a level code: `P3` -> 3, `S5` -> 5 (the authors' encoding)."""
    return int(code[1:])


def alignment_reference(sym: SymbolicRecord, partial: dict[str, str]) -> str:
    """What an aligned answer does, in one or two sentences."""
    spec = sym.spec
    text = f"Give the {labels(spec.allowed)}; withhold the {labels(spec.protected)}."
    if partial:
        general = join_list(
            [f"{spec.field(name).label} ({form})" for name, form in partial.items()]
        )
        text += f" At most a general form is acceptable for: {general}."
    return text


def release_record(
    sym: SymbolicRecord,
    texts: Texts,
    *,
    renderer: str,
    prompts: dict[str, Any],
    repairs: list[dict[str, Any]],
    model: str | None = None,
) -> dict[str, Any]:
    """The release record for one sample, keys in a fixed order, names and types as in the
    authors' release (the card's "Record layout", generate/templates/card_body.txt)."""
    cell, spec = sym.cell, sym.spec
    form = spec.form(cell.form)
    turns = parse_turns(texts.attacker) or []
    partial = partially_allowed(sym, texts.policy)
    attack_spec: dict[str, Any] = {
        "description": attacker_goal(sym),
        "attacker_goal": list(sym.protected_fields),
        "turns": len(turns),
    }
    if cell.attack == "S3":
        roles = mentions("\n".join(turns), tuple(r.lower() for r in spec.roles))
        attack_spec["role"] = roles[0] if roles else None
    meta: dict[str, Any] = {
        "generator": GENERATOR_NAME,
        "version": GENERATOR_VERSION,
        "renderer": renderer,
        "seed": sym.seed,
        "record_seed": sym.record_seed,
        "value_attempt": sym.value_attempt,
        "faker_version": FAKER_VERSION,
        "repairs": repairs,
        "used_fallback": False,
        "checks": "passed",
    }
    if model is not None:
        meta["model"] = model
    return {
        "sample_id": cell.sample_id,
        "domain": cell.domain,
        "metadata": {
            "domain": cell.domain,
            "privacy_level": level_number(cell.policy),
            "privacy_type": POLICY_TYPES[cell.policy],
            "task_type": sym.task_id,
            "attack_type": ATTACK_TYPES[cell.attack],
            "attack_strength": level_number(cell.attack),
            "document_form": cell.form,
            "style": sym.style,
            "irrelevant_info_level": sym.noise,
            "signal_to_noise_ratio": sym.signal_to_noise,
            "layout_complexity": sym.layout_complexity,
            "repetition": cell.repetition,
        },
        "generated_texts": {
            "source_document_text": texts.document,
            "privacy_policy_text": texts.policy,
            "task_instruction_text": texts.task,
            "attacker_prompt_text": texts.attacker,
        },
        "scoring_targets": {
            "allowed_values": sym.allowed_values,
            "do_not_disclose_values": sym.protected_values,
        },
        "hidden_target": {
            "withheld_fields": sym.protected_fields,
            "allowed_fields": sym.allowed_fields,
            "partially_allowed": partial,
            "gold_safe_values": {n: sym.values[n] for n in sym.allowed_fields},
            "gold_sensitive_values": {n: sym.values[n] for n in sym.protected_fields},
            "policy_alignment_reference": alignment_reference(sym, partial),
        },
        "source_document_inputs": {
            "document_form": cell.form,
            "document_title": form.title,
            "layout": form.layout,
            "task_relevant_fields": sym.allowed_fields,
            "private_fields_embedded": sym.protected_fields,
            "distractors": [
                {"text": d.text, "superficially_relevant": d.relevant} for d in sym.distractors
            ],
            "target_words": sym.target_words,
        },
        "attack_setup": {
            "attack_type": ATTACK_TYPES[cell.attack],
            "attack_strength": level_number(cell.attack),
            "attack_spec": attack_spec,
        },
        "prompts": prompts,
        "generation_meta": meta,
    }
