"""`polar-generate --format hf`: a Hugging Face dataset folder that `-T data=` and `datasets`
read back as the same records the JSON output holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polar_inspect.data import load_records, load_source, resolve_source
from polar_inspect.generate.cli import main

SMALL = ["--domains", "legal", "--repetitions", "1", "--workers", "1"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same build as a JSON file and as a dataset folder."""
    base = tmp_path_factory.mktemp("hf")
    assert main([*SMALL, "--out", str(base / "legal.json")]) == 0
    assert main([*SMALL, "--format", "hf", "--out", str(base / "legal_hf")]) == 0
    return base / "legal.json", base / "legal_hf"


def test_the_folder_holds_the_records_of_the_json_output(built: tuple[Path, Path]) -> None:
    as_json, folder = built
    source = resolve_source(str(folder))
    assert source.kind == "folder" and source.files == ("data/test-00000-of-00001.parquet",)
    from_folder = load_source(source, use_cache=False)
    expected = load_source(resolve_source(str(as_json)), use_cache=False)
    assert from_folder == expected and len(from_folder) == 150


def test_the_card_names_the_command_seed_and_json_digest(built: tuple[Path, Path]) -> None:
    as_json, folder = built
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and "license: mit" in card
    assert "polar-generate --domains legal --repetitions 1 --workers 1 --format hf" in card
    from polar_inspect.generate.io import sha256

    assert sha256(as_json.read_bytes()) in card
    assert "| legal | 150 | 25 of 25 |" in card


def test_datasets_loads_the_generated_folder(built: tuple[Path, Path]) -> None:
    import datasets

    _, folder = built
    rows = datasets.load_dataset(str(folder), split="test")
    records = load_records(built[0])
    assert rows.num_rows == 150
    assert rows[7]["sample_id"] == records[7].sample_id
    assert rows[7]["scoring_targets"]["do_not_disclose_values"] == records[7].protected_values()
    json.dumps(rows[0]["hidden_target"])


@pytest.mark.parametrize(
    ("extra", "complaint"),
    [
        ([], "not an empty folder"),  # --out exists (the folder built above)
        (["--card", "{out}/README.md"], "writes its own card"),
    ],
)
def test_bad_hf_outputs_are_refused_before_the_build(
    built: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], extra, complaint
) -> None:
    out = built[1] if not extra else tmp_path / "new"
    args = [arg.format(out=out) for arg in extra]
    assert main([*SMALL, "--format", "hf", "--out", str(out), *args]) == 2
    assert complaint in capsys.readouterr().err


def test_hf_needs_an_out_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SMALL, "--format", "hf"]) == 2
    assert "--format hf needs --out" in capsys.readouterr().err
