"""Write a synthetic file in the release format, sized like the real one (~230 MB, 7,852 records).

Every field the release has is filled (metadata, the four generated texts, scoring_targets,
hidden_target, source_document_inputs, four long rendering prompts, generation_meta), with
texts of realistic lengths. The text is seeded filler, not meaningful prose: the point is the
size and shape of the file, for load benchmarks.

    python benchmarks/make_release_sized_file.py OUT.json [--records 7852] [--megabytes 230]
        [--no-attack-setup] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from polar_inspect.axes import ATTACK_TURN_RANGES, ATTACK_TYPES, DOMAINS, POLICY_TYPES

RELEASE_RECORDS = 7852
RELEASE_BYTES = 230_445_483

# Task-relevant fields | protected fields, per domain (docs/data.md#field-names-per-domain).
FIELDS: dict[str, str] = {
    "customer_support": "issue_category product_area reported_problem customer_sentiment | "
    "name customer_email phone_number home_address payment_method_last4 internal_agent_notes",
    "cybersecurity": "incident_type affected_system_type observed_behavior severity_hint "
    "recommended_action | employee_name email phone ip_address device_id internal_hostname "
    "access_token security_question_answer internal_ticket_id",
    "education": "degree_program academic_standing research_interests relevant_courses | "
    "name student_id exact_gpa disciplinary_record mental_health_accommodation failed_courses",
    "finance": "employment_status monthly_income_band credit_score_band loan_purpose "
    "debt_to_income_band | name exact_dob account_number exact_monthly_income "
    "recent_transactions tax_id",
    "housing": "application_type income_band household_type desired_action | applicant_name "
    "email phone exact_dob home_address exact_monthly_income prior_eviction_history "
    "landlord_private_notes",
    "insurance": "policy_type claim_type coverage_band claim_status | policyholder_name email "
    "phone exact_dob policy_number claim_number medical_details risk_notes beneficiary_name",
    "legal": "case_type task_relevant_fact jurisdiction urgency_level | client_name email phone "
    "exact_dob case_number opposing_party_name private_legal_notes settlement_limit",
    "medical": "symptom duration preferred_time | name email phone exact_dob hospital_id employer",
    "recruitment": "current_role skills years_experience target_role | name email phone "
    "exact_dob current_employer university_name",
    "travel": "travel_purpose destination travel_date_window budget_band mobility_needs | "
    "traveler_name email phone exact_dob passport_number exact_itinerary hotel_address "
    "companion_name loyalty_number",
}
FORMS = ["email", "note", "chat transcript", "summary", "crm entry", "forwarded thread"]
FIRST = ["Lena", "Jonas", "Mia", "Luca", "Élise", "Noah", "Chiara", "Matteo", "Sofia", "Jürg"]
LAST = ["Keller", "Müller", "Frei", "Rossi", "Bernasconi", "Meier", "Dubois", "Schneider"]
PLACES = ["Zürich", "Genève", "Basel", "Lausanne", "Bern", "Lugano", "Winterthur", "St. Gallen"]
_VOCABULARY = (
    "the a of to and in for on with that this was is be by as at from it not are or have we "
    "they please note request client patient team review update follow case record office "
    "details schedule previous current report confirmed pending shared internal contact "
    "account summary process system service manager support access week month morning "
    "appointment reference approval document policy privacy information required additional "
    "Zürich café résumé naïve déjà müssen über’s quickly carefully regarding however therefore"
)
WORDS = _VOCABULARY.split()


def _prose(rng: random.Random, words: int) -> str:
    out: list[str] = []
    while words > 0:
        length = min(words, rng.randint(8, 22))
        sentence = rng.choices(WORDS, k=length)
        out.append(sentence[0].capitalize() + " " + " ".join(sentence[1:]) + ".")
        words -= length
    return " ".join(out)


def _value(rng: random.Random, field: str) -> str:
    digits = "".join(rng.choices("0123456789", k=8))
    if field.endswith("name") or field in ("name", "employer", "current_employer"):
        return f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    if "email" in field:
        return f"{rng.choice(FIRST).lower()}.{rng.choice(LAST).lower()}@example.ch"
    if "phone" in field:
        return f"+41 7{digits[0]} {digits[1:4]} {digits[4:8]}"
    if "dob" in field or "date" in field:
        return f"19{rng.randint(50, 99)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if field == "ip_address":
        return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    if "address" in field:
        return f"{rng.choice(LAST)}strasse {rng.randint(1, 99)}, {rng.choice(PLACES)}"
    if "income" in field or "limit" in field:
        return f"CHF {rng.randint(2, 30)}'{digits[:3]}"
    if field.endswith(("_id", "_number", "token")):
        return f"{field[:3].upper()}-{digits[:6]}"
    return _prose(rng, rng.randint(2, 6)).rstrip(".")


def _document(rng: random.Random, values: dict[str, str], words: int) -> str:
    sentences = [f"The {field.replace('_', ' ')} is {value}." for field, value in values.items()]
    filler = _prose(rng, words - 6 * len(sentences)).split(". ")
    for sentence in sentences:
        filler.insert(rng.randrange(len(filler) + 1), sentence.rstrip("."))
    return ". ".join(filler)


def make_record(index: int, *, attack_setup: bool, target_bytes: int, seed: int) -> dict[str, Any]:
    """One synthetic release record of about `target_bytes` bytes of JSON."""
    rng = random.Random(f"{seed}:{index}")
    domain = DOMAINS[index % len(DOMAINS)]
    policy, attack = list(POLICY_TYPES)[index // 10 % 5], list(ATTACK_TYPES)[index // 50 % 5]
    allowed_fields, protected_fields = (part.split() for part in FIELDS[domain].split("|"))
    allowed = {f: _value(rng, f) for f in allowed_fields}
    protected = {f: _value(rng, f) for f in protected_fields}
    low, high = ATTACK_TURN_RANGES[attack]
    turns = [_prose(rng, rng.randint(25, 60)) for _ in range(rng.randint(low, high))]
    form = rng.choice(FORMS)
    meta = {
        "domain": domain,
        "privacy_level": int(policy[1:]),  # the release's integers 1..5
        "privacy_type": POLICY_TYPES[policy],
        "task_type": f"{domain}_task_{index % 4}",
        "attack_type": ATTACK_TYPES[attack],
        "attack_strength": int(attack[1:]),
        "document_form": form,
        "style": rng.choice(["formal", "casual", "terse"]),
        "irrelevant_info_level": rng.choice(["low", "medium", "high"]),
        "signal_to_noise_ratio": round(rng.uniform(0.2, 0.9), 2),
        "layout_complexity": rng.choice(["simple", "sectioned", "threaded"]),
        "repetition": index % 5,
    }
    record: dict[str, Any] = {
        "sample_id": f"{domain}_{index:06d}",
        "domain": domain,
        "metadata": meta,
        "generated_texts": {
            "source_document_text": _document(rng, allowed | protected, rng.randint(650, 950)),
            "privacy_policy_text": _prose(rng, rng.randint(40, 100)),
            "task_instruction_text": _prose(rng, rng.randint(20, 50)),
            "attacker_prompt_text": json.dumps(turns, ensure_ascii=False),
        },
        "scoring_targets": {
            "allowed_values": list(allowed.values()),
            "do_not_disclose_values": list(protected.values()),
        },
        "hidden_target": {
            "withheld_fields": protected_fields,
            "allowed_fields": allowed_fields,
            "partially_allowed": {allowed_fields[0]: "only in general terms"},
            "gold_safe_values": allowed,
            "gold_sensitive_values": protected,
            "policy_alignment_reference": _prose(rng, 60),
        },
        "source_document_inputs": {
            "document_form": form,
            "task_relevant_fields": allowed,
            "private_fields_embedded": protected,
            "irrelevant_details": [_prose(rng, 15) for _ in range(rng.randint(2, 4))],
            "style_notes": _prose(rng, 30),
        },
        "prompts": {},
        "generation_meta": {
            "generator_model": "synthetic-llm-70b",
            "temperature": 0.7,
            "seed": seed,
            "repairs": [
                {"round": r, "issue": _prose(rng, 20), "previous_excerpt": _prose(rng, 80)}
                for r in range(rng.randint(0, 3))
            ],
            "verified": True,
        },
    }
    if attack_setup:
        spec = {"description": _prose(rng, 15), "attacker_goal": protected_fields}
        record["attack_setup"] = {"attack_spec": {"turns": len(turns), **spec}}
    # The four rendering prompts carry the rest of the size, as in the release.
    context = json.dumps(record["source_document_inputs"], ensure_ascii=False)
    names = ("document_prompt", "policy_prompt", "task_prompt", "attacker_prompt")
    record["prompts"] = {name: f"Record: {context}" for name in names}
    spare = target_bytes - len(json.dumps(record, ensure_ascii=False).encode())
    for name in names:
        record["prompts"][name] = (
            f"{_prose(rng, max(0, int(spare / 4 / 6.85)))}\n{record['prompts'][name]}"
        )
    return record


def write_release_file(
    path: Path,
    records: int = RELEASE_RECORDS,
    *,
    total_bytes: int = RELEASE_BYTES,
    attack_setup: bool = True,
    seed: int = 0,
) -> int:
    """Write `records` synthetic records as one JSON array; returns the file size in bytes."""
    rng = random.Random(seed)
    average = total_bytes // records
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".partial")
    with temporary.open("w", encoding="utf-8") as out:
        out.write("[\n")
        for index in range(records):
            size = int(average * rng.uniform(0.8, 1.2))
            record = make_record(index, attack_setup=attack_setup, target_bytes=size, seed=seed)
            out.write(("," if index else "") + json.dumps(record, ensure_ascii=False) + "\n")
        out.write("]\n")
    temporary.replace(path)
    return path.stat().st_size


def main(argv: list[str] | None = None) -> None:
    """Command line: write the file and print its size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--records", type=int, default=RELEASE_RECORDS)
    parser.add_argument("--megabytes", type=float, default=RELEASE_BYTES / 1e6)
    parser.add_argument("--no-attack-setup", action="store_true", help="omit attack_setup")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    size = write_release_file(
        args.out,
        args.records,
        total_bytes=int(args.megabytes * 1e6),
        attack_setup=not args.no_attack_setup,
        seed=args.seed,
    )
    elapsed = time.perf_counter() - started
    print(f"wrote {args.out}: {args.records} records, {size / 1e6:.1f} MB in {elapsed:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
