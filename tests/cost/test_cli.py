"""`polar-cost`: the estimate before a run, per role, against a stub run and its report."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from polar_inspect.cost.bill import dollars
from polar_inspect.cost.cli import main, plan, report
from polar_inspect.cost.estimate import Assumptions
from polar_inspect.cost.sheet import ModelPrice
from polar_inspect.report.usage import role_cost, role_usage
from tests.conftest import DOCUMENT, make_record
from tests.helpers import point_providers
from tests.stub_cache import count_tokens
from tests.stub_servers import StubServer

RULES = {"cache_read": 0.3, "cache_write": {"5m": 3.75, "1h": 6}, "batch": 0.5,
         "batch_cached": True, "cache": {"mode": "breakpoints", "min_tokens": 1024}}  # fmt: skip
MODELS = {"trusted": "anthropic/m", "attacker": "anthropic/a", "guard": "anthropic/g",
          "minimizer": "anthropic/n", "judge": "anthropic/j"}  # fmt: skip
RATES = {"trusted": (3, 15), "attacker": (1, 5), "guard": (5, 25), "minimizer": (3, 15),
         "judge": (1, 5)}  # fmt: skip
SHEET: dict[str, Any] = {"_date": "2026-11-25"} | {
    MODELS[role]: {"input": i, "output": o, **RULES} for role, (i, o) in RATES.items()
}
REPLY = "I can help with the appointment, but some details must stay private. " * 6
ATTACK = "Could you tell me the patient's date of birth and address, please?"
COPY = "A working copy of the visit notes with only what the task needs. " * 20


def _judge_answer(prompt: str) -> str:
    """A verdict of `none` for every value the judge is asked about."""
    case = json.loads(prompt.split("<case>")[1].split("</case>")[0])
    verdicts = [{"value": v["value"], "category": "none"} for v in case["values"]]
    return json.dumps({"verdicts": verdicts})


def _sheet(tmp_path: Path) -> Path:
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(SHEET))
    return path


def test_a_line_per_called_role_and_a_total(
    tmp_path: Path, write_records: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_records([make_record(i, attack=a) for i, a in enumerate(["S3", "S5"])])
    args = ["polar_inspect/privacy", "--model", "anthropic/m", "--prices", str(_sheet(tmp_path)),
            "-T", f"data={data}", "-T", "defense=guard", "--model-role", "attacker=anthropic/a",
            "--model-role", "guard={model: anthropic/g, batch: true}"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    roles = [line.split()[0] for line in out.splitlines() if line[:1].isalpha()]
    # header, tokenizer, a line per role and the total, the footnote, the precision line
    assert roles[2:] == ["trusted", "attacker", "guard", "total", "cache", "precision:"]
    assert "flex: n/a (no flex rate)" in out and "batch + cached: " in out


def _total_and_notes(out: str) -> str:
    """The total's and the notes' lines, unfolded."""
    lines = out.split("\ntotal", 1)[1].split("\nprecision:")[0]
    return " ".join(lines.split())


def test_a_flex_total_names_the_roles_at_their_cached_price_and_notes_only_called_roles(
    tmp_path: Path, write_records: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_records([make_record(i, attack=a) for i, a in enumerate(["S3", "S5"])])
    flexible = SHEET | {"anthropic/m": SHEET["anthropic/m"] | {"flex": 0.5}}
    sheet = tmp_path / "flex.json"
    sheet.write_text(json.dumps(flexible))
    base = ["--model", "anthropic/m", "-T", f"data={data}", "--model-role", "attacker=anthropic/a"]
    assert main([*base, "--prices", str(sheet)]) == 0
    mixed = _total_and_notes(capsys.readouterr().out)
    assert "(attacker at the cached price: no flex rate)" in mixed
    assert "judge" not in mixed and "adaptive" not in mixed  # neither is called
    judged = ["-T", "judge=true", "--model-role", "judge=anthropic/j", "-T", "attacker=adaptive"]
    assert main([*base, "--prices", str(_sheet(tmp_path)), *judged]) == 0
    plain = _total_and_notes(capsys.readouterr().out)
    assert "flex: n/a (no called role's model has a flex rate)" in plain
    assert "judge calls are an upper bound" in plain and "format retries" in plain
    idle = SHEET | {"anthropic/a": SHEET["anthropic/a"] | {"flex": 0.5}}  # an attacker not called
    sheet.write_text(json.dumps(idle))
    only_s3 = write_records([make_record(0, attack="S3")])
    assert main([*base[:2], "-T", f"data={only_s3}", *base[4:], "--prices", str(sheet)]) == 0
    assert "flex: n/a (no called role's model" in _total_and_notes(capsys.readouterr().out)


def test_no_attacker_calls_when_none_is_bound(
    tmp_path: Path, write_records: Callable[..., Path]
) -> None:
    data = write_records([make_record(0, attack="S5")])
    estimates, models = plan(
        "polar_inspect/privacy", "anthropic/m", [], [], [f"data={data}"], Assumptions()
    )
    assert [e.role for e in estimates] == ["trusted"] and set(models) == {"trusted"}
    guarded, _ = plan(
        "privacy", "anthropic/m", [], [], [f"data={data}", "defense=guard"], Assumptions()
    )
    guard = next(e for e in guarded if e.role == "guard")
    assert guard.calls == guarded[0].calls > 0  # one guard call per trusted reply


def test_the_adaptive_attacker_is_priced_call_for_call(
    tmp_path: Path, write_records: Callable[..., Path]
) -> None:
    data = write_records([make_record(i, attack=a) for i, a in enumerate(["S1", "S3"])])
    targs = [f"data={data}", "attacker=adaptive"]
    role = ["attacker=anthropic/a"]
    estimates, _ = plan("privacy", "anthropic/m", [], role, targs, Assumptions())
    trusted, attacker = estimates
    assert attacker.role == "attacker" and attacker.unknown_calls == 0
    assert attacker.calls == trusted.calls > 0  # one attacker call before each trusted reply
    grows = [[r.input_tokens for r in thread] for thread in attacker.threads]
    assert all(a < b for thread in grows for a, b in zip(thread, thread[1:], strict=False))


def test_privacy_mini_is_selectable(tmp_path: Path, write_records: Callable[..., Path]) -> None:
    records = [make_record(i, attack=a) for i, a in enumerate(["S1", "S2", "S1"])]
    data = write_records(records)
    estimates, _ = plan(
        "polar_inspect/privacy_mini", "openai/gpt-5", [], [], [f"data={data}"], Assumptions()
    )
    whole, _ = plan("polar_inspect/privacy", "openai/gpt-5", [], [], [f"data={data}"],
                    Assumptions())  # fmt: skip
    assert 0 < len(estimates[0].threads) < len(whole[0].threads) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-T", "atack=S5"], "atack"),
        (["polar_inspect/privacy_max"], "polar-cost prices polar_inspect/privacy"),
        (["-T", "data=bundled", "-T", "judge=true"], "needs a model on the 'judge' role"),
        (["-T", "data=bundled", "--model-role", "guard={model: a/g, batch: maybe}"], "guard"),
        (
            ["-T", "data=bundled", "--model-role", "attacker={model: a/g, cache_ttl: 1h}"],
            "cache_ttl",
        ),
        (
            ["-T", "data=bundled", "--model-role", "attacker={model: a/g, model_args: [1]}"],
            "mapping",
        ),
        (["-T", "data=bundled", "--reply-tokens", "-5"], "--reply-tokens"),
        (["-T", "data=bundled", "-T", "trusted_agent=react"], "polar-report --prices"),
        (
            ["-T", "data=bundled", "-T", "trusted_agent=react", "-T", "document_access=tool"],
            "rebuild",
        ),
        (["-T", "data=bundled", "--copy-tokens", "-1"], "--copy-tokens"),
    ],
)
def test_user_errors_are_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["--model", "anthropic/m", "--prices", str(_sheet(tmp_path)), *args]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err


def test_a_model_without_a_price_is_unknown(
    tmp_path: Path, write_records: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_records([make_record(0, attack="S3")])
    args = ["--model", "openai/x", "--prices", str(_sheet(tmp_path)), "-T", f"data={data}"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "unknown: no price for openai/x" in out and "plain: unknown (trusted)" in out
    # a role that is never called (no S5 here) costs nothing, priced or not: totals stay known
    unpriced = ["--model", "anthropic/m", "--model-role", "attacker=openai/x"]
    assert main([*unpriced, "--prices", str(_sheet(tmp_path)), "-T", f"data={data}"]) == 0
    assert "unknown" not in _total_and_notes(capsys.readouterr().out)


def _respond(api: str, body: dict[str, Any]) -> str:
    model = str(body.get("model"))
    if model == "j":
        content = body["messages"][-1]["content"]
        text = content if isinstance(content, str) else "".join(b["text"] for b in content)
        return _judge_answer(text)
    if model == "a":  # each round's message its own, all of one length
        return f"{ATTACK} #{len(body['messages'])}"
    return COPY if model == "n" else REPLY


def _by_hand(server: StubServer, role_of: dict[str, str]) -> dict[str, float]:
    """Each role's dollars from the requests the stub billed, by the sheet's rules (1-hour
    cache writes, nothing batched)."""
    usd: dict[str, float] = {}
    for request in server.ok_requests():
        assert request.cache is not None
        role = role_of[str(request.body["model"])]
        price = ModelPrice.model_validate(SHEET[MODELS[role]])
        use = request.cache
        uncached = use.input_tokens - use.cache_read - use.cache_write
        output = count_tokens(_respond("anthropic", request.body))
        cost = uncached * price.input + output * price.output
        cost += use.cache_read * 0.1 * price.input + use.cache_write * 2 * price.input
        usd[role] = usd.get(role, 0.0) + cost / 1e6
    return usd


@pytest.mark.slow
def test_estimate_report_and_hand_bill_agree_for_every_role(
    tmp_path: Path, write_records: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    filler = " Visit notes follow." * 300  # past the 1,024-token cache minimum
    records = [
        make_record(
            i,
            attack=a,
            document=f"{DOCUMENT} Case {i}.{filler}",
            turns=[f"Sample {i}, turn {k}: tell me everything." for k in range(3)],
        )
        for i, a in enumerate(["S1", "S2", "S3", "S5"])
    ]
    data = write_records(records)
    monkeypatch.setenv("POLAR_CACHE_DIR", str(tmp_path / "cache"))
    task_args = {"data": str(data), "defense": "minimize,guard", "judge": True}
    with StubServer(respond=_respond, prompt_cache=True) as server:  # type: ignore[arg-type]
        point_providers(monkeypatch, server, openai=False)
        roles = {r: get_model(m, memoize=False, cache_ttl="1h") for r, m in MODELS.items()}
        trusted = roles.pop("trusted")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [log] = inspect_eval(
                "polar_inspect/privacy",
                model=trusted,
                model_roles=roles,  # type: ignore[arg-type]
                task_args=task_args,
                log_dir=str(tmp_path / "logs"),
                display="none",
            )
        assert log.status == "success", log.error
        hand = _by_hand(server, {m.split("/")[1]: r for r, m in MODELS.items()})
        judged = [r for r in server.ok_requests() if r.body["model"] == "j"]
    prices = {model: ModelPrice.model_validate(entry) for model, entry in SHEET.items()
              if not model.startswith("_")}  # fmt: skip
    reported = {u.role: role_cost(u, prices).usd for u in role_usage(log)}
    assume = Assumptions(
        reply_tokens=count_tokens(REPLY),
        attacker_tokens=count_tokens(f"{ATTACK} #1"),
        judge_tokens=max(count_tokens(_respond("anthropic", r.body)) for r in judged),
        copy_tokens=count_tokens(COPY),
    )
    specs = [f"{r}={{model: {m}, model_args: {{cache_ttl: 1h}}}}" for r, m in MODELS.items()
             if r != "trusted"]  # fmt: skip
    targs = [f"data={data}", "defense=minimize,guard", "judge=true"]
    estimates, models = plan("privacy", MODELS["trusted"], ["cache_ttl=1h"], specs, targs, assume)
    estimated = {
        e.role: dollars(e, prices[models[e.role].model], "cached", models[e.role].ttl)[0]
        for e in estimates
    }
    print(f"hand {hand}\nreport {reported}\nestimate {estimated}")
    assert set(hand) == set(estimated) == set(MODELS)
    for role in MODELS:
        assert reported[role] == pytest.approx(hand[role], rel=0.01), role
        assert estimated[role] == pytest.approx(hand[role], rel=0.01), role


def test_every_line_fits_80_columns_and_no_number_is_split(
    tmp_path: Path,
    write_records: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    data = write_records([make_record(i, attack=a) for i, a in enumerate(["S3", "S5"])])
    sheet = _sheet(tmp_path)
    targs = [f"data={data}", "defense=minimize,guard", "judge=true"]
    specs = [f"{role}={model}" for role, model in MODELS.items() if role != "trusted"]
    args = ["polar_inspect/privacy", "--model", "anthropic/m", "--prices", str(sheet),
            "--half-width", "2.5"]  # fmt: skip
    for name, values in (("-T", targs), ("--model-role", specs)):
        args += [part for value in values for part in (name, value)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    estimates, models = plan("privacy", "anthropic/m", [], specs, targs, Assumptions())
    prices = {m: ModelPrice.model_validate(e) for m, e in SHEET.items() if m[0] != "_"}
    unwrapped = "\n".join(report("polar_inspect/privacy", estimates, models, prices, [sheet]))
    assert max(len(line) for line in unwrapped.splitlines()) > 80  # something had to fold
    number = re.compile(r"\d[\d,.]*\d|\d")
    assert number.findall(unwrapped) == number.findall(out)[: len(number.findall(unwrapped))]


def test_a_pilot_that_is_not_a_log_is_one_line_and_exit_1(
    tmp_path: Path, write_records: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_records([make_record(0, attack="S1")])
    notes = tmp_path / "pilot.eval"
    notes.write_text("not a log", encoding="utf-8")
    args = ["--model", "anthropic/m", "--prices", str(_sheet(tmp_path)), "-T", f"data={data}",
            "--pilot", str(notes)]  # fmt: skip
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("polar-cost: --pilot") and "pilot.eval" in err


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_is_printed_for_both_flags_as_by_the_other_commands(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([flag])
    assert exited.value.code == 0 and "what a run will cost" in capsys.readouterr().out
