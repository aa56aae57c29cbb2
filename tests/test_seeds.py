"""Per-call seeds as the authors' evaluator derives them (docs/paper-setting.md)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from inspect_ai.event import ModelEvent
from inspect_ai.model import get_model

from polar_inspect.seeds import PAPER_BASE_SEED, CallSeeds, request_model_name, stable_seed
from tests.conftest import make_record
from tests.helpers import by_id, run, scripted_model
from tests.stub_servers import StubServer


def _documented(*parts: object, base: int = PAPER_BASE_SEED) -> int:
    """The rule as written: sha256("a::b::...")[:8] as a number, plus the base, mod 2**31."""
    text = "::".join(str(p) for p in parts)
    return (int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) + base) % 2**31


def test_the_seed_follows_the_documented_rule() -> None:
    assert stable_seed("medical_000001", "gpt-4o", "model_a", "scripted", 1) == _documented(
        "medical_000001", "gpt-4o", "model_a", "scripted", 1
    )
    assert stable_seed("x", base=7) == _documented("x", base=7)
    seeds = CallSeeds(sample_id="s", trusted_model="a", attacker_model="b")
    assert seeds.trusted("adaptive", 2) == _documented("s", "a", "model_a", "adaptive", 2)
    assert seeds.attacker(3) == _documented("s", "a", "b", "model_b", "adaptive", 3)


def test_each_trusted_call_carries_its_seed(write_records, tmp_path: Path) -> None:
    records = [make_record(0, attack="S2", turns=["One?", "Two?"])]
    log = run(
        "polar_inspect/privacy",
        scripted_model("a", "b"),
        tmp_path / "logs",
        data=str(write_records(records)),
    )
    sample = by_id(log)["medical_000000"]
    seeds = [e.config.seed for e in sample.events if isinstance(e, ModelEvent)]
    # scripted turns count the messages so far: 1 after the first turn, 3 after the second
    assert seeds == [
        _documented("medical_000000", "model", "model_a", "scripted", 1),
        _documented("medical_000000", "model", "model_a", "scripted", 3),
    ]


#: Inspect routes to an OpenAI-compatible server, and the model name each request carries.
ROUTES = [
    ("openai-api/svc/org/m", "org/m"),  # docs/local-model.md's route: the service name dropped
    ("together/org/m", "org/m"),
    ("vllm/org/m", "org/m"),
    ("ollama/m", "m"),
    ("openai/gpt-x", "gpt-x"),
]


@pytest.mark.parametrize(("route", "sent"), ROUTES)
def test_the_seed_names_the_model_as_the_request_does(route: str, sent: str) -> None:
    model = get_model(route, base_url="http://127.0.0.1:9/v1", api_key="local")
    assert request_model_name(model) == sent
    assert request_model_name(get_model("mockllm/model")) == "model"


@pytest.mark.slow
@pytest.mark.parametrize(("route", "sent"), ROUTES)
def test_every_route_sends_the_authors_seed(
    route: str, sent: str, write_records, tmp_path: Path
) -> None:
    """Each request's seed is the authors' derivation from the `model` the request carries."""
    records = [make_record(0, attack="S2", turns=["One?", "Two?"])]
    with StubServer() as server:
        model = get_model(route, base_url=server.openai_base_url, api_key="local")
        run("polar_inspect/privacy", model, tmp_path / "logs", data=str(write_records(records)))
        requests = server.ok_requests()
    assert [r.model for r in requests] == [sent, sent]
    assert [r.body.get("seed") for r in requests] == [
        _documented("medical_000000", sent, "model_a", "scripted", 1),
        _documented("medical_000000", sent, "model_a", "scripted", 3),
    ]
