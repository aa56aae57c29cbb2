"""A card describes the file it was written with: its name, seed, counts, sha256s and the exact
command that rebuilds it, and never the repository's own files unless those are rebuilt."""

from __future__ import annotations

import gzip
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.axes import DOMAINS
from polar_inspect.generate import DEFAULT_SEED, build_dataset
from polar_inspect.generate.card import CardSubject, count_tables, render_card
from polar_inspect.generate.cli import main
from polar_inspect.generate.io import canonical_json, encode, sha256
from polar_inspect.generate.report import BuildReport

SELECTION = ["--seed", "7", "--domains", "legal", "--repetitions", "1", "--workers", "1"]
DATASETS = Path(__file__).resolve().parents[2] / "datasets"


@pytest.fixture(scope="module")
def user_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`polar-generate --seed 7 ... --out work/x.json.gz --card work/README.md`, run in a
    fresh folder with relative paths as a user types them."""
    folder = tmp_path_factory.mktemp("user")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        assert main([*SELECTION, "--out", "work/x.json.gz", "--card", "work/README.md"]) == 0
    return folder


def _card(folder: Path) -> str:
    return (folder / "work" / "README.md").read_text(encoding="utf-8")


def test_the_card_names_its_own_file_seed_and_selection(user_build: Path) -> None:
    card = _card(user_build)
    assert card.startswith("# POLAR-Bench-style dataset `x.json.gz`\n")
    assert "from seed 7" in card and "| seed | 7 |" in card
    assert "| domains | legal |" in card and "| repetitions | 1 per cell" in card
    assert "-T data=work/x.json.gz" in card


def test_the_card_never_points_at_the_repositorys_files(user_build: Path) -> None:
    card = _card(user_build)
    for repo_only in ("datasets/", "polar_bundled", "data=bundled", "The bundled POLAR-Bench"):
        assert repo_only not in card


def test_the_card_gives_both_sha256s_and_the_counts(user_build: Path) -> None:
    card = _card(user_build)
    written = (user_build / "work" / "x.json.gz").read_bytes()
    json_bytes = gzip.decompress(written)
    assert f"| sha256 of the JSON (uncompressed) | `{sha256(json_bytes)}` (" in card
    assert f"| sha256 of `x.json.gz` | `{sha256(written)}` ({len(written):,} bytes) |" in card
    assert "| records | 150 |" in card
    assert "| legal | 150 | 6 | 6 | 6 |" in card  # samples, forms, per cell, planned per cell
    assert "Cells short of their plan: none." in card
    assert "| P3 | 6 | 6 | 6 | 6 | 6 |" in card


def _commands(card: str) -> list[str]:
    block = re.search(r"Rebuild it.*?```bash\n(.*?)```", card, re.S)
    assert block, card
    return [line.split("   #")[0] for line in block.group(1).splitlines()]


def test_the_cards_commands_rebuild_the_same_file_and_card(
    user_build: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    before = {p: p.read_bytes() for p in (user_build / "work").iterdir()}
    rebuild, check = _commands(_card(user_build))
    assert rebuild == (
        "polar-generate --seed 7 --domains legal --repetitions 1 "
        "--out work/x.json.gz --card work/README.md --overwrite"
    )
    monkeypatch.chdir(user_build)
    assert main(shlex.split(rebuild)[1:]) == 0
    assert {p: p.read_bytes() for p in (user_build / "work").iterdir()} == before
    assert main(shlex.split(check)[1:]) == 0
    assert "sha256 matches the rebuilt JSON" in capsys.readouterr().err


@pytest.fixture(scope="module")
def small() -> tuple[list[dict[str, Any]], BuildReport]:
    return build_dataset(DEFAULT_SEED, "legal", repetitions=1, workers=1)


def _render(small: tuple[list[dict[str, Any]], BuildReport], **subject: Any) -> str:
    records, report = small
    data = canonical_json(records)
    fields = {"card": "c/README.md", "seed": DEFAULT_SEED, "domains": ["legal"], "repetitions": 1}
    subject_model = CardSubject(**(fields | subject))
    written = encode(records, ".jsonl") if subject_model.out.endswith(".jsonl") else data
    return render_card(records, report, data, written, subject_model)


def test_a_jsonl_card_gives_the_files_own_sha256_and_a_json_card_one_row(small) -> None:
    records, _ = small
    card = _render(small, out="c/x.jsonl")
    assert f"| sha256 of `x.jsonl` | `{sha256(encode(records, '.jsonl'))}`" in card
    assert "holds the same records as JSON Lines" in card
    card = _render(small, out="c/x.json")
    assert "| sha256 of `x.json` |" not in card
    assert card.count("sha256 of the JSON (uncompressed)") == 1


def test_paths_with_spaces_are_quoted_in_the_commands(small) -> None:
    card = _render(small, out="my data/x.json", card="my data/README.md")
    assert "--out 'my data/x.json' --card 'my data/README.md' --overwrite" in card
    assert "-T 'data=my data/x.json'" in card


def test_a_model_rendered_card_names_the_model_and_its_work_file(small) -> None:
    card = _render(
        small,
        out="c/m.json",
        renderer="model",
        model="openai/gpt-4o-mini",
        work="c/m.work.jsonl",
        repair_rounds=2,
    )
    assert "| renderer | `model` (`openai/gpt-4o-mini`) |" in card
    assert "templates, no model" not in card
    assert "--renderer model --model openai/gpt-4o-mini --work c/m.work.jsonl" in card
    assert "--repair-rounds 2" in card and "complete work file" in card
    assert "for up to 2 repair rounds" in card


def test_the_bundled_card_is_written_only_for_the_bundled_set(small) -> None:
    card = _render(small, out="/anywhere/polar_bundled.json.gz", bundled=True)
    assert card.startswith("# The bundled POLAR-Bench dataset")
    assert (
        f"polar-generate --seed {DEFAULT_SEED} --domains legal --repetitions 1 "
        "--out datasets/polar_bundled.json.gz --card datasets/README.md --overwrite"
    ) in card
    assert re.search(r"sha256 of the JSON \(uncompressed\) \| `[0-9a-f]{64}`", card)


def test_cells_short_of_their_plan_are_listed(small) -> None:
    records, _ = small
    subject = CardSubject(
        out="x.json", card="c.md", seed=DEFAULT_SEED, domains=["legal"], repetitions=1
    )
    first = records[0]["sample_id"]
    lines = count_tables([r for r in records if r["sample_id"] != first], subject)
    assert "| legal | 149 | 6 | 5-6 | 6 |" in lines
    assert "Cells short of their plan: legal P1 x S1 (5 of 6)." in lines


def test_a_build_that_kept_nothing_still_gets_a_true_card(small) -> None:
    _, report = small
    subject = CardSubject(
        out="x.json", card="c.md", seed=DEFAULT_SEED, domains=["legal"], repetitions=1
    )
    card = render_card([], report, canonical_json([]), canonical_json([]), subject)
    assert "| legal | 0 | 0 | 0 | 6 |" in card
    assert "Cells short of their plan: legal P1 x S1 (0 of 6)" in card
    assert "No record was kept" in card


@pytest.mark.slow
def test_the_committed_bundled_card_is_what_the_generator_writes(tmp_path: Path) -> None:
    """Rebuild the whole bundled set and render its card: the committed card is that text."""
    records, report = build_dataset(DEFAULT_SEED)
    data = canonical_json(records)
    subject = CardSubject(
        out=str(DATASETS / "polar_bundled.json.gz"),
        card=str(DATASETS / "README.md"),
        seed=DEFAULT_SEED,
        domains=list(DOMAINS),
        repetitions=5,
        bundled=True,
    )
    committed = (DATASETS / "README.md").read_text(encoding="utf-8")
    assert render_card(records, report, data, encode(records, ".json.gz"), subject) == committed
