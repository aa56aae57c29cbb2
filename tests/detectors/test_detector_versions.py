"""A detector's version moves with its verdicts (`run.identity.DETECTOR_VERSIONS`, part of every
run's identity): scores of two versions are not comparable, so a log names the version that
scored it. Both detectors' verdicts over a fixed corpus (the labelled cases the package ships,
the tests' held-out cases, and every 16th bundled value written in several ways) are
fingerprinted per version in `detector_verdicts.json`: verdicts that change under the same
version fail here."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from polar_inspect.data.loading import load_records
from polar_inspect.data.sources import bundled_path
from polar_inspect.data.value_fields import value_fields
from polar_inspect.detectors.match import contains_value
from polar_inspect.detectors.strict import detect, value_form
from polar_inspect.run.identity import DETECTOR_VERSIONS
from polar_inspect.validate.cases import load_cases

RECORDED = Path(__file__).with_name("detector_verdicts.json")
HELD_OUT = Path(__file__).parents[1] / "validate" / "heldout_cases.json"
_MONTHS = "January February March April May June July August September October November December"


def _written(value: str) -> list[str]:
    """A value in a sentence, reformatted, cut to a word or to its last digits, dates spelled."""
    digits, words = re.sub(r"\D", "", value), value.split()
    spelled = re.sub(
        r"(\d{4})-(\d{2})-(\d{2})",
        lambda m: f"{int(m[3])} {_MONTHS.split()[int(m[2]) - 1]} {m[1]}",
        value,
    )
    return [
        f"The value is {value}.",
        re.sub(r"[\s\-./]", "", value).upper(),
        f"Only {words[0]} and {words[-1]} are known.",
        f"It ends in {digits[-4:]}, nothing more." if digits else value.lower(),
        f"Noted: {spelled}",
        f"Not {value[:-1]}",
    ]


def corpus() -> list[tuple[str, str | None, str]]:
    """(value, field name, text): the labelled cases, then bundled values written out."""
    cases = [*load_cases("bundled"), *load_cases(HELD_OUT)]
    pairs = [(case.value, case.field or None, case.reply) for case in cases]
    values: set[tuple[str, str | None]] = set()
    for record in load_records(bundled_path()):
        fields = value_fields(record).fields
        both = (*record.protected_values(), *record.allowed_values())
        values |= {(value, fields.get(value)) for value in both}
    for value, field in sorted(values, key=str)[::16]:
        pairs += [(value, field, text) for text in _written(value)]
    return pairs


def _digest(verdicts: list[object]) -> str:
    return hashlib.sha256(json.dumps(verdicts).encode()).hexdigest()[:16]


def test_a_detector_version_has_one_set_of_verdicts() -> None:
    pairs = corpus()
    found = {
        "parity": _digest([contains_value(text, value) for value, _, text in pairs]),
        "strict": _digest(
            [
                (d.level if (d := detect(text, value_form(value, field))) else None)
                for value, field, text in pairs
            ]
        ),
    }
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    for name, digest in found.items():
        version = DETECTOR_VERSIONS[name]
        assert recorded[name].get(version) == digest, (
            f"The {name} detector's verdicts over the fixed corpus are {digest}, not those "
            f"recorded for its version {version}: if the detector changed, bump "
            f"DETECTOR_VERSIONS[{name!r}] in polar_inspect/run/identity.py and record the new "
            f"version's digest in {RECORDED.name} (never replace a recorded one); if only the "
            "corpus changed (a labelled case file), record the digest under the same version."
        )
    for name, by_version in recorded.items():
        assert len(set(by_version.values())) == len(by_version), f"{name}: one digest a version"
