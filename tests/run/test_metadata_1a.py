"""Logs of task version 1-A (no `identity` in their eval metadata) still read into `RunMetadata`,
and a malformed field of one is a one-line `MetadataVersionError`, as for a later version."""

from __future__ import annotations

from typing import Any

import pytest

from polar_inspect.run.metadata import MetadataVersionError, legacy_identity, read_run_metadata

SHA = "ab" * 32


def _meta_1a(**changes: Any) -> dict[str, Any]:
    """The eval metadata a 1-A task wrote (its keys and shapes, tasks.py at 76fd57c)."""
    meta: dict[str, Any] = {
        "benchmark": "POLAR-Bench (arXiv 2605.19127)",
        "polar_inspect_version": "0.1.0",
        "full_task_version": "1-A",
        "task_comparability_version": 1,
        "task_interface_version": "A",
        "data_source": {"kind": "bundled", "path": "/d.json", "sha256": SHA, "revision": None},
        "subset": "all",
        "samples_available": 2500,
        "samples_selected": 5,
        "value_fields": {"records": 5},
        "domains": ["medical", "finance"],
        "policies": ["P1", "P2"],
        "attacks": ["S1", "S5"],
        "max_turns": None,
        "max_in_flight": 4,
        "judge": False,
        "gc": {"tuned": True},
        "weight": 0.5,
        "s5_attacker": "live: polar/adaptive-attacker",
        "attacker": "adaptive",
        "attacker_knowledge": "values",
        "attack_budget": 3,
        "attack_language": None,
        "prompts": {
            "system_prompt": {"source": "default", "sha256": "abc123", "text": "{document}"},
            "attacker_system_prompt": "my/attacker.txt",
        },
        "defense": {"label": "guard", "stack": ["guard"], "oracle": False, "roles": ["guard"]},
        "adaptive_prompts": {"adaptive_system_prompt": "default"},
        "truncated": "score",
        "trusted_model_config": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 1200},
    }
    return {**meta, **changes}


def test_a_1a_log_reads_into_the_typed_model() -> None:
    meta = read_run_metadata(_meta_1a(), known_comparability=1)
    assert meta.is_legacy and meta.full_task_version == "1-A"
    assert meta.data_source.sha256 == SHA and meta.samples_selected == 5
    assert (meta.domains, meta.policies, meta.attacks) == (
        ["medical", "finance"],
        ["P1", "P2"],
        ["S1", "S5"],
    )
    assert meta.attacker.name == "adaptive"
    assert meta.attacker.options == {"attacker_knowledge": "values", "attack_budget": 3}
    assert meta.attacker.note == "live: polar/adaptive-attacker"
    assert meta.defense.label == "guard" and meta.defense.roles == ["guard"]
    assert meta.prompts["system_prompt"].sha256 == "abc123"
    assert meta.prompts["attacker_system_prompt"].source == "my/attacker.txt"
    assert meta.prompts["attacker_system_prompt"].sha256 == ""
    assert "max_in_flight" not in meta.model_dump()  # a 1-A key the model does not know
    assert legacy_identity(meta)["templates"] == {
        "system_prompt": "abc123",
        "attacker_system_prompt": "my/attacker.txt",
    }


def test_a_1a_log_without_its_optional_keys_gets_the_defaults() -> None:
    meta = read_run_metadata(
        _meta_1a(attacker=None, domains=None, prompts=None, defense="none", weight=None),
        known_comparability=1,
    )
    assert meta.attacker.name == "paper" and meta.attacker.options == {}
    assert meta.domains == [] and meta.prompts == {} and meta.defense.label == "none"
    assert meta.weight == 0.5


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"data_source": {"kind": "bundled"}}, "data_source.path"),
        ({"defense": {"stack": 3}}, "defense.stack"),
    ],
)
def test_a_malformed_1a_field_is_one_line_naming_it(changes: dict[str, Any], where: str) -> None:
    with pytest.raises(MetadataVersionError, match=f"^eval metadata {where}: "):
        read_run_metadata(_meta_1a(**changes), known_comparability=1)
