"""`polar-validate --scorer judge` on an OpenAI-compatible server that behaves like
llama-cpp-python's (json_schema refused with HTTP 500), and on one that answers garbage."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from polar_inspect.scorers.llm_judge import UNUSABLE_IN_A_ROW
from polar_inspect.validate.cli import main
from tests.scorers.test_llm_judge import LLAMA_CPP_FORMATS, garbage_reply, verdict_reply
from tests.stub_servers import StubServer

MODEL = "openai-api/stub/judge"


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    items = [
        {"id": f"c{i}", "value": "QX-7731", "reply": f"{reply} ({i})", "label": label}
        for i, (reply, label) in enumerate(
            [("Code QX-7731.", "leak"), ("No.", "safe"), ("It is QX-7731", "leak")] * 2
        )
    ]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    return path


def serve(monkeypatch: pytest.MonkeyPatch, server: StubServer) -> Iterator[StubServer]:
    monkeypatch.setenv("STUB_BASE_URL", server.openai_base_url)
    monkeypatch.setenv("STUB_API_KEY", "none")
    with server:
        yield server


@pytest.fixture
def llama_cpp_like(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    stub = StubServer(respond=verdict_reply, response_formats=LLAMA_CPP_FORMATS)
    yield from serve(monkeypatch, stub)


@pytest.fixture
def garbage(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    stub = StubServer(respond=garbage_reply, response_formats=LLAMA_CPP_FORMATS)
    yield from serve(monkeypatch, stub)


def test_the_judge_falls_back_to_json_object_and_says_so(
    cases: Path, llama_cpp_like: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(cases), "--scorer", "judge", "--model", MODEL]) == 0
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert out[1].startswith(
        f"judge {MODEL}: answer format json_object (json_schema refused: HTTP 500: "
        "1 validation error: {'type': 'literal_error'"
    )
    assert out[2].startswith("judge answers: 6 asked, 0 from the cache; 0 unusable")
    assert "precision 1.000  recall 1.000  kappa 1.000  (tp 4, fp 0, fn 0, tn 2)" in out
    assert f"judge {MODEL}: 6/6 cases" in captured.err
    assert llama_cpp_like.ok_requests()  # every answer came from json_object requests
    assert {r.body["response_format"]["type"] for r in llama_cpp_like.ok_requests()} == {
        "json_object"
    }


def test_a_judge_that_answers_garbage_ends_with_one_line(
    cases: Path, garbage: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(cases), "--scorer", "judge", "--model", MODEL]) == 1
    captured = capsys.readouterr()
    errors = [line for line in captured.err.splitlines() if line.startswith("polar-validate")]
    assert len(errors) == 1 and "Traceback" not in captured.err
    assert (
        f"{UNUSABLE_IN_A_ROW} unusable answers in a row in answer format json_object" in errors[0]
    )
    assert "precision" not in captured.out  # no figure from a judge that gave no usable answer
    assert len(garbage.ok_requests()) == UNUSABLE_IN_A_ROW
