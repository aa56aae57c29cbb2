"""What a full POLAR-Bench run costs: model calls per role, exactly, and prompt sizes.

Calls are counted from the data with the dialogue solver's rules: a sample plays
min(planned turns, turn budget) rounds (its whole budget when a live attacker has no plan);
each round is one trusted-model call, and on S5 also one attacker call (when an attacker is
bound; fewer if it answers <STOP>). Input sizes are counted in words from the default prompt
templates filled with each sample, with the attacker's messages taken as the planned turns
and every trusted reply assumed to be `--reply-words` long (the real length depends on the
model). Tokens are words x `--tokens-per-word` (no tokenizer is needed; 1.35 is typical for
English prose with ids and numbers). Output tokens are bounded by the paper's caps.

`--check-mini` also runs `privacy_mini` offline (polar/refuse against polar/replay-attacker)
and compares the model calls in its log with the count for the same 250 samples.

    .venv/bin/python benchmarks/run_cost.py --data bundled
    .venv/bin/python benchmarks/run_cost.py --data official --check-mini
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _log_counts import count_samples_and_model_calls  # noqa: E402

from polar_inspect.attackers import ATTACKER_DEFAULTS  # noqa: E402
from polar_inspect.attackers.paper import PaperOptions, PaperTemplates  # noqa: E402
from polar_inspect.axes import LIVE_ATTACK  # noqa: E402
from polar_inspect.data.mini import select_mini  # noqa: E402
from polar_inspect.data.records import PolarRecord  # noqa: E402
from polar_inspect.data.samples import SampleInfo, record_to_sample  # noqa: E402
from polar_inspect.data.sources import load_source, resolve_source  # noqa: E402
from polar_inspect.prompts import load_template  # noqa: E402
from polar_inspect.tasks import TRUSTED_MODEL_CONFIG  # noqa: E402


class DialoguePrompts:
    """The default templates of the paper's setting, rendered per sample."""

    def __init__(self) -> None:
        self.trusted = load_template("trusted_system")
        self.paper = PaperTemplates(PaperOptions())

    def trusted_system(self, info: SampleInfo) -> str:
        return self.trusted.render(
            document=info.texts.source_document,
            policy=info.texts.privacy_policy,
            task=info.texts.task_instruction,
            domain=info.domain,
        )

    def attacker_system(self, info: SampleInfo) -> str:
        return self.paper.system.render(**self.paper.sample_fields(info))

    def attacker_opening(self, info: SampleInfo) -> str:
        return ""  # the authors' layout (the default) sends no opening message

    def attacker_round(self, info: SampleInfo, index: int, rounds: int) -> str:
        return self.paper.round_instruction(info, index, rounds)


def _words(text: str) -> int:
    return len(text.split())


class Cost:
    """Calls and input words per role, summed over samples."""

    def __init__(self) -> None:
        self.samples = self.trusted_calls = self.attacker_calls = 0
        self.trusted_words = self.attacker_words = 0


def add_sample(cost: Cost, info: SampleInfo, prompts: DialoguePrompts, reply_words: int) -> None:
    """Add one sample's calls and input words, with a live attacker on S5."""
    live = info.attack == LIVE_ATTACK
    planned = info.planned_turns
    rounds = min(len(planned), info.turn_budget) if planned else (info.turn_budget if live else 0)
    system = _words(prompts.trusted_system(info))
    attacker_system = _words(prompts.attacker_system(info)) if live else 0
    opening = _words(prompts.attacker_opening(info)) if live else 0
    history = 0  # words of the dialogue so far (attacker messages and replies)
    cost.samples += 1
    for index in range(rounds):
        message = _words(planned[index]) if index < len(planned) else reply_words
        if live:
            instruction = _words(prompts.attacker_round(info, index, rounds))
            cost.attacker_calls += 1
            cost.attacker_words += attacker_system + opening + history + instruction
        history += message
        cost.trusted_calls += 1
        cost.trusted_words += system + history
        history += reply_words


def count(records: Sequence[PolarRecord], reply_words: int) -> Cost:
    """The cost of running `records` with the default prompts."""
    prompts = DialoguePrompts()
    cost = Cost()
    for record in records:
        info = SampleInfo.model_validate(record_to_sample(record).metadata)
        add_sample(cost, info, prompts, reply_words)
    return cost


def report(name: str, cost: Cost, tokens_per_word: float) -> None:
    """Print one cost table."""
    trusted_cap = TRUSTED_MODEL_CONFIG.max_tokens or 0
    attacker_cap = ATTACKER_DEFAULTS.max_tokens or 0
    print(f"{name}: {cost.samples:,} samples")
    for role, calls, words, cap in (
        ("trusted model", cost.trusted_calls, cost.trusted_words, trusted_cap),
        ("attacker (S5)", cost.attacker_calls, cost.attacker_words, attacker_cap),
    ):
        tokens = words * tokens_per_word
        print(
            f"  {role:14s} {calls:>7,} calls  input ~{tokens / 1e6:6.1f} M tokens "
            f"({words / 1e6:.1f} M words)  output <= {calls * cap / 1e6:5.1f} M tokens "
            f"({cap} per call)"
        )


def check_mini(data: str, expected: Cost) -> None:
    """Run privacy_mini offline and compare the log's model calls with the count."""
    from inspect_ai import eval as inspect_eval

    with tempfile.TemporaryDirectory() as folder:
        (log,) = inspect_eval(
            "polar_inspect/privacy_mini",
            model="polar/refuse",
            model_roles={"attacker": "polar/replay-attacker"},
            task_args={"data": data},
            log_dir=folder,
            display="none",
        )
        samples, calls = count_samples_and_model_calls(log.location)
    predicted = expected.trusted_calls + expected.attacker_calls
    verdict = "matches" if (samples, calls) == (expected.samples, predicted) else "DIFFERS"
    print(
        f"privacy_mini measured: {samples} samples, {calls} model calls; counted: "
        f"{expected.samples} samples, {predicted} calls ({verdict})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Print the cost of a full run (and optionally check the count on privacy_mini)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="bundled", help="official, bundled or a file path")
    parser.add_argument("--reply-words", type=int, default=150)
    parser.add_argument("--tokens-per-word", type=float, default=1.35)
    parser.add_argument("--check-mini", action="store_true")
    args = parser.parse_args(argv)
    records = load_source(resolve_source(args.data))
    full = count(records, args.reply_words)
    report(f"privacy -T data={args.data}", full, args.tokens_per_word)
    mini = count(select_mini(records), args.reply_words)
    report("privacy_mini", mini, args.tokens_per_word)
    if args.check_mini:
        check_mini(args.data, mini)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
