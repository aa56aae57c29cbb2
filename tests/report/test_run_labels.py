"""Run names say what ran: a reference agent's label and identity carry the `-M` options it
reads (defaults filled in), never those only another agent reads, so one `-M` list shared by an
eval-set neither mislabels an agent nor splits one experiment in two."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSpec

from polar_inspect.report.inventory import Inventory, RunHeader, model_identity, model_label
from polar_inspect.report.run_labels import resolve_duplicates
from polar_inspect.run.agent_options import AGENT_OPTIONS, options_read
from polar_inspect.run.identity import run_identity

SHARED = {"leak_policies": "P5", "leak_attacks": "S2"}  # the README's eval-set example


def _log(model: str, args: dict[str, Any] | None = None) -> EvalLog:
    spec = EvalSpec(
        created="2026-11-25T00:00:00+00:00",
        task="privacy_mini",
        dataset=EvalDataset(),
        model=model,
        model_args=args or {},
        config=EvalConfig(),
    )
    return EvalLog(eval=spec)


@pytest.mark.parametrize("agent", ["polar/oracle", "polar/leaky", "polar/refuse"])
def test_an_agent_is_not_labelled_with_options_it_ignores(agent: str) -> None:
    shared, plain = _log(agent, SHARED), _log(agent)
    assert model_label(shared) == agent
    assert model_identity(shared) == model_identity(plain)
    assert run_identity(shared, None, {}).digest() == run_identity(plain, None, {}).digest()


def test_the_agent_that_reads_the_options_shows_them_defaults_included() -> None:
    shared, plain = _log("polar/mixed", SHARED), _log("polar/mixed")
    label = "polar/mixed (leak_attacks=S2, leak_policies=P5)"
    assert model_label(shared) == model_label(plain) == label  # P5 and S2 are its defaults
    assert run_identity(shared, None, {}).digest() == run_identity(plain, None, {}).digest()
    other = _log("polar/mixed", {"leak_policies": "P3"})
    assert model_label(other) == "polar/mixed (leak_attacks=S2, leak_policies=P3)"
    assert (
        run_identity(other, None, {}).parts()["trusted model"]
        != (run_identity(plain, None, {}).parts()["trusted model"])
    )


def test_a_command_line_list_is_labelled_and_identified_as_its_text() -> None:
    listed, text = (
        _log("polar/mixed", {"leak_policies": ["P4", "P5"]}),
        _log("polar/mixed", {"leak_policies": "P4,P5"}),
    )
    assert (
        model_label(listed)
        == model_label(text)
        == "polar/mixed (leak_attacks=S2, leak_policies=P4,P5)"
    )
    assert run_identity(listed, None, {}).digest() == run_identity(text, None, {}).digest()


def test_other_models_keep_every_argument() -> None:
    args = {"leak_policies": "P5", "base": "x"}
    assert options_read("openai/gpt-4o", args) == args
    assert model_label(_log("openai/gpt-4o", args)) == "openai/gpt-4o (base=x, leak_policies=P5)"


def test_an_undeclared_option_is_kept_so_it_is_refused_not_hidden() -> None:
    assert options_read("polar/refuse", {"leak_polices": "P5"}) == {"leak_polices": "P5"}


def test_every_option_names_a_reference_agent() -> None:
    from polar_inspect.agents import AGENTS, JUDGE

    known = {*AGENTS, JUDGE}
    assert {o.agent for o in AGENT_OPTIONS.values()} <= known


#: Each test run's sample rows, as `resolve_duplicates` is given them (by path).
ROWS: dict[str, str] = {}


def _run(path: str, created: str, privacy: float, rows: str = "") -> RunHeader:
    ROWS[path] = rows
    return RunHeader.model_construct(
        path=path, model="m", task="t", label="m", base_label="m", plain_label="m",
        run_digest="same", group_key="g", prompt_key="p", created=datetime.fromisoformat(created),
        metrics={"privacy": {"mean": privacy}}, unfinished_samples=0, cut_samples=0, attacked=None,
    )  # fmt: skip


def _resolve(*runs: RunHeader) -> tuple[list[str], dict[str, tuple[str, str]]]:
    inventory = Inventory(runs=list(runs), skipped=[], files_seen=len(runs))
    found = resolve_duplicates(inventory, "newest", lambda run: ROWS[run.path])
    return [r.path for r in found.runs], {s.path: (s.reason, s.detail) for s in found.skipped}


def test_of_one_identity_the_newest_is_kept_and_the_message_says_why() -> None:
    kept, skipped = _resolve(_run("a.eval", "2026-11-25", 1.0), _run("b.eval", "2026-11-26", 0.8))
    assert kept == ["b.eval"]
    assert skipped == {"a.eval": ("duplicate", "the same run identity as the newer b.eval")}
    kept, skipped = _resolve(_run("a.eval", "2026-11-25", 1.0), _run("b.eval", "2026-11-25", 1.0))
    assert skipped["a.eval"] == ("duplicate", "the same run identity as b.eval")  # a copy


def test_copies_of_one_start_with_other_scores_are_all_skipped_never_picked_by_name() -> None:
    for first, second in (("a_orig.eval", "b_rescored.eval"), ("z_orig.eval", "b_rescored.eval")):
        runs = _run(first, "2026-11-25", 1.0), _run(second, "2026-11-25", 0.8)
        kept, skipped = _resolve(*runs)
        assert kept == [] and {reason for reason, _ in skipped.values()} == {
            "conflicting duplicates"
        }
        assert first in skipped[second][1] and "other scores" in skipped[first][1]


def test_copies_of_one_start_with_equal_headers_but_other_samples_conflict() -> None:
    # e.g. two samples' scores swapped: the same means, other breakdowns
    kept, skipped = _resolve(
        _run("a.eval", "2026-11-25", 1.0, "x"), _run("b.eval", "2026-11-25", 1.0, "y")
    )
    assert kept == [] and {reason for reason, _ in skipped.values()} == {"conflicting duplicates"}


def test_sample_rows_are_compared_only_for_copies_of_one_start() -> None:
    def unasked(run: RunHeader) -> str:
        raise AssertionError(f"rows read for {run.path}")

    runs = [_run("a.eval", "2026-11-25", 1.0), _run("b.eval", "2026-11-26", 1.0)]
    found = resolve_duplicates(Inventory(runs=runs, skipped=[], files_seen=2), "newest", unasked)
    assert [r.path for r in found.runs] == ["b.eval"]


def test_the_same_samples_chosen_by_limit_or_by_id_are_one_experiment() -> None:
    by_limit, by_id, fewer = _log("polar/leaky"), _log("polar/leaky"), _log("polar/leaky")
    by_limit.eval.dataset, by_limit.eval.config = (
        EvalDataset(sample_ids=[1, 2]),
        EvalConfig(limit=2),
    )
    by_id.eval.dataset = EvalDataset(sample_ids=[2, 1])
    by_id.eval.config = EvalConfig(sample_id=[2, 1])
    fewer.eval.dataset, fewer.eval.config = EvalDataset(sample_ids=[1]), EvalConfig(limit=1)
    first, second, third = (
        run_identity(log, None, {}).digest() for log in (by_limit, by_id, fewer)
    )
    assert first == second != third


def test_runs_scored_by_two_detector_versions_are_told_apart_by_them() -> None:
    from polar_inspect.run.identity import TaskIdentity

    def task(strict: str) -> TaskIdentity:
        return TaskIdentity(
            package_version="0.1.0",
            task_version="1-C",
            detectors={"parity": "1", "strict": strict},
            data_sha256="abc",
            subset="bundled",
            selection={},
            settings={},
            templates={},
        )

    log = _log("polar/mixed", SHARED)
    old, new = run_identity(log, task("1"), {}), run_identity(log, task("2"), {})
    assert old.digest() != new.digest()
    assert old.parts()["versions"] == "0.1.0 / task 1-C / parity 1, strict 1"
    assert new.parts()["versions"] == "0.1.0 / task 1-C / parity 1, strict 2"
