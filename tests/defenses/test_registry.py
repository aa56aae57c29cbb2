"""The defense registry: parsing `-T defense=...`, and third-party defenses via entry points."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageAssistant

from polar_inspect.defenses import (
    ENTRY_POINT_GROUP,
    DefenseSpec,
    DefenseSpecError,
    DefenseStack,
    available_defenses,
    parse_defense,
)
from tests.conftest import make_record
from tests.helpers import by_id, defense_of, run
from tests.plugin_site import install_plugin

BUILTINS = {
    "policy_reminder",
    "ci_reasoning",
    "hardened_prompt",
    "spotlight",
    "minimize",
    "guard",
    "redact_oracle",
}


def test_builtins_are_registered() -> None:
    assert set(available_defenses()) == BUILTINS


@pytest.mark.parametrize("spec", [None, "none", " none ", "", ["none"]])
def test_none_means_no_defense(spec: object) -> None:
    assert parse_defense(spec) == []


def test_a_stack_keeps_its_order_and_prompt_files() -> None:
    assert parse_defense("guard, spotlight@my/spot.txt") == [
        DefenseSpec(name="guard"),
        DefenseSpec(name="spotlight", prompt="my/spot.txt"),
    ]
    assert [s.name for s in parse_defense(["minimize", "guard,redact_oracle"])] == [
        "minimize",
        "guard",
        "redact_oracle",
    ]


def test_unknown_duplicate_and_mistyped_stacks_are_refused() -> None:
    with pytest.raises(DefenseSpecError, match="unknown defense 'gaurd'.*available: none, "):
        parse_defense("gaurd")
    with pytest.raises(DefenseSpecError, match="listed twice"):
        parse_defense("guard,guard")
    with pytest.raises(DefenseSpecError, match="'none' means no defense and cannot be stacked"):
        parse_defense("none,guard")
    with pytest.raises(DefenseSpecError, match="string or a list of strings"):
        parse_defense(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'redact_oracle' has no prompt template"):
        DefenseStack(parse_defense("redact_oracle@x.txt"))


STAMP = '''
    from polar_inspect.defenses import Defense


    class Stamp(Defense):
        """Appends a stamp to every reply (a third-party output defense)."""

        name = "stamp"
        kind = "output"

        async def review_reply(self, ctx, draft):
            return draft + " [stamped]"
    '''


def _install_plugin(site: Path, name: str = "stamp") -> None:
    """A tiny installed distribution with one defense in the entry point group."""
    install_plugin(
        site,
        "polar_stamp_defense",
        STAMP,
        ENTRY_POINT_GROUP,
        {name: "polar_stamp_defense:Stamp"},
    )


def test_a_third_party_defense_registers_through_an_entry_point(
    write_records: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    _install_plugin(site)
    monkeypatch.syspath_prepend(str(site))
    assert "stamp" in available_defenses()
    data = write_records([make_record(0, turns=["Hello?"])])
    log = run(
        "polar_inspect/privacy",
        "polar/refuse",
        tmp_path / "logs",
        data=str(data),
        defense="spotlight,stamp",
    )
    (sample,) = by_id(log).values()
    sent = [m.text for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert sent == ["I'm sorry, but I can't help with that request. [stamped]"]
    assert log.eval.metadata["defense"]["stack"] == ["spotlight", "stamp"]
    assert defense_of(sample)["replies"][0]["changed_by"] == ["stamp"]


def test_an_entry_point_may_not_shadow_a_builtin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    _install_plugin(site, name="guard")
    monkeypatch.syspath_prepend(str(site))
    with pytest.raises(DefenseSpecError, match="'guard'.*taken by a built-in"):
        available_defenses()


@pytest.mark.parametrize(
    ("hooks", "said"),
    [
        ("async def review_reply(self, ctx, draft):\n    return None",
         "defense 'stamp': review_reply() returned NoneType None, not a text"),
        ("async def wrap_message(self, ctx, message):\n    return message",
         "defense 'stamp': wrap_message() returned coroutine"),
        ("def wrap_message(self, ctx, message):\n    return None",
         "defense 'stamp': wrap_message() returned NoneType None"),
    ],
)  # fmt: skip
def test_a_defense_hook_that_returns_no_text_is_one_line_naming_it(
    hooks: str, said: str, write_records: Callable[..., Path], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    site = tmp_path / "site"
    source = STAMP.split("        async def review_reply")[0] + textwrap.indent(hooks, " " * 8)
    install_plugin(site, "bad_stamp", source, ENTRY_POINT_GROUP, {"stamp": "bad_stamp:Stamp"})
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "bad_stamp", raising=False)
    data = write_records([make_record(0, turns=["Hello?"])])
    with pytest.raises(AssertionError) as failed:  # `run` asserts that the eval succeeded
        run("polar_inspect/privacy", "polar/refuse", tmp_path / "logs", data=str(data),
            defense="stamp")  # fmt: skip
    assert said in str(failed.value)
