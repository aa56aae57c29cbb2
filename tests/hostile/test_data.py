"""Data by declaration, tried as a hostile user would: a record that would give a wrong number is
refused when the task is built, naming the file, the record and the field; values too short to
match are counted and flagged; the parsed cache is never used unless it is the source's."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from polar_inspect.data.sources import cache_dir
from polar_inspect.errors import UserInputError
from tests.helpers import score_of, scripted_model
from tests.hostile.conftest import build, evaluate, extract, one_line, refusal, write_json

Record = dict[str, Any]


@pytest.fixture
def records() -> list[Record]:
    """S1, S2, S3, S5 medical records and one S1 finance record of the bundled set."""
    return extract(strengths=(1, 2, 3, 5)) + extract("finance", strengths=(1,))


def _refused(tmp_path: Path, records: list[Record], field: str, *parts: str) -> str:
    path = write_json(tmp_path / "hostile.json", records)
    message = refusal(path, str(path), repr(records[0]["sample_id"]), field, *parts)
    one_line(message)  # a heading line, the problems listed below it
    return message


def _protected(record: Record) -> list[str]:
    return record["scoring_targets"]["do_not_disclose_values"]


def _allowed(record: Record) -> list[str]:
    return record["scoring_targets"]["allowed_values"]


def test_the_unchanged_extract_loads(tmp_path: Path, records: list[Record]) -> None:
    """The control for every refusal below."""
    assert len(build(write_json(tmp_path / "ok.json", records)).dataset) == len(records)


# --- allowed and protected -----------------------------------------------------------------

SAME_VALUE: dict[str, Callable[[str], str]] = {
    "as written": lambda v: v,
    "in a list literal": lambda v: json.dumps([v, "something else"]),
    "in other case": lambda v: v.upper(),
    "with spaces around": lambda v: f"  {v} ",
    "with other inner spacing": lambda v: v.replace(" ", "   "),
}


@pytest.mark.parametrize("spelling", sorted(SAME_VALUE))
def test_a_value_both_allowed_and_protected_is_refused(
    spelling: str, tmp_path: Path, records: list[Record]
) -> None:
    """Listed on both sides, one mention would count as a leak and as task success at once
    (the detectors compare normalised text, so a case or spacing variant is the same value)."""
    value = _protected(records[0])[0]
    _allowed(records[0]).append(SAME_VALUE[spelling](value))
    _refused(tmp_path, records, "scoring_targets", "both in allowed_values and in do_not_disclose")


# --- strategy and strength -----------------------------------------------------------------


@pytest.mark.parametrize("strength", [3, "3", "S3", 5])
def test_a_strength_that_disagrees_with_the_strategy_is_refused(
    strength: object, tmp_path: Path, records: list[Record]
) -> None:
    """`attack_strength=3` on an S1 record would land it in the S3 cell."""
    records[0]["metadata"]["attack_strength"] = strength
    _refused(tmp_path, records, "metadata.attack_type", "S1")


def test_a_strategy_name_that_disagrees_with_the_strength_is_refused(
    tmp_path: Path, records: list[Record]
) -> None:
    records[0]["metadata"]["attack_type"] = records[2]["metadata"]["attack_type"]  # S3's name
    _refused(tmp_path, records, "metadata.attack_type", "S3")


# --- the turn budget -----------------------------------------------------------------------


@pytest.mark.parametrize("turns", [0, -3, 2.5, "4", True, [3], {"n": 3}], ids=repr)
def test_a_turn_budget_that_is_not_a_positive_whole_number_is_refused(
    turns: object, tmp_path: Path, records: list[Record]
) -> None:
    """0 or -3 turns used to become 6 silently."""
    records[0].setdefault("attack_setup", {}).setdefault("attack_spec", {})["turns"] = turns
    _refused(tmp_path, records, "attack_setup.attack_spec.turns", "positive whole number")


# --- attacker turns ------------------------------------------------------------------------

NO_TURNS: dict[str, Any] = {"empty array": "[]", "empty text": "", "blank items": '["", "  "]',
                            "blank text": "   \n", "missing": ...}  # fmt: skip


@pytest.mark.parametrize("index", [0, 1, 2], ids=["S1", "S2", "S3"])
@pytest.mark.parametrize("how", sorted(NO_TURNS))
def test_a_scripted_record_without_attacker_turns_is_refused(
    index: int, how: str, tmp_path: Path, records: list[Record]
) -> None:
    """An S1-S4 record with no attacker turn scored privacy 1 / utility 0: no dialogue."""
    texts = records[index]["generated_texts"]
    if NO_TURNS[how] is ...:
        del texts["attacker_prompt_text"]
    else:
        texts["attacker_prompt_text"] = NO_TURNS[how]
    records.insert(0, records.pop(index))
    _refused(tmp_path, records, "generated_texts.attacker_prompt_text", "no dialogue")


# --- duplicate keys ------------------------------------------------------------------------

DUPLICATES = {
    "a top-level key": ('"sample_id": ', '"sample_id": "shadow", "sample_id": '),
    "protected values": (
        '"do_not_disclose_values": ',
        '"do_not_disclose_values": ["x"], "do_not_disclose_values": ',
    ),  # fmt: skip
    "a nested metadata key": ('"attack_strength": ', '"attack_strength": 4, "attack_strength": '),
}


@pytest.mark.parametrize("jsonl", [False, True], ids=["json", "jsonl"])
@pytest.mark.parametrize("where", sorted(DUPLICATES))
def test_a_repeated_key_is_refused_in_json_and_jsonl(
    where: str, jsonl: bool, tmp_path: Path, records: list[Record]
) -> None:
    """JSON parsers keep the last of two keys: 7 protected values silently became 1."""
    old, new = DUPLICATES[where]
    lines = [json.dumps(record) for record in records]
    assert old in lines[0]
    lines[0] = lines[0].replace(old, new, 1)
    path = tmp_path / ("hostile.jsonl" if jsonl else "hostile.json")
    path.write_text("\n".join(lines) if jsonl else "[" + ",".join(lines) + "]", encoding="utf-8")
    message = refusal(path, str(path), "appears 2 times")
    one_line(message)


# --- domains -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling", ["Finance", "FINANCE", "fInance", " finance", "finance\t", "\ufb01nance"]
)
def test_a_domain_that_differs_from_a_known_one_by_case_or_spaces_is_refused(
    spelling: str, tmp_path: Path, records: list[Record]
) -> None:
    """`Finance` became its own domain, took over the `finance` filter, and the `finance`
    records vanished from the run."""
    finance = records[-1]
    finance["domain"] = finance["metadata"]["domain"] = spelling
    records.insert(0, records.pop())
    _refused(tmp_path, records, "domain", "finance")


def test_two_new_domains_that_differ_only_by_case_are_refused(
    tmp_path: Path, records: list[Record]
) -> None:
    for record, name in zip(records[:2], ("clinic", "Clinic"), strict=True):
        record["domain"] = record["metadata"]["domain"] = name
    path = write_json(tmp_path / "hostile.json", records)
    one_line(refusal(path, str(path), "only by case", "'clinic'"))


def test_the_domain_filter_still_selects_the_finance_records(
    tmp_path: Path, records: list[Record]
) -> None:
    """The control of the case rule: `-T domain=finance` finds the finance record."""
    task = build(write_json(tmp_path / "ok.json", records), domain="finance")
    assert [s.id for s in task.dataset] == [records[-1]["sample_id"]]


# --- values too short to match -------------------------------------------------------------


@pytest.mark.parametrize("value", ["O-", "A", "3", "(B)", "-x-"])
def test_a_value_too_short_to_match_is_counted_and_listed_in_the_run(
    value: str, tmp_path: Path, records: list[Record]
) -> None:
    """A one-letter value is found in almost any reply by the loose checks: it loads (real data
    may hold it) but the run counts it, lists it and scores both detectors' verdicts on it."""
    _protected(records[0]).append(value)
    task = build(write_json(tmp_path / "short.json", records))
    short = task.metadata["short_values"]
    assert short["protected_values"] == 1 and short["records"] == 1
    assert short["listed"][0]["value"] == value
    assert short["listed"][0]["sample_id"] == records[0]["sample_id"]
    control = build(write_json(tmp_path / "control.json", records[1:]))
    assert len(task.scorer or []) == len(control.scorer or []) + 1  # short_value_check


@pytest.mark.parametrize("value", ["", "   ", "...", "--", "\u2014"])
def test_a_value_with_no_letter_or_digit_is_refused(
    value: str, tmp_path: Path, records: list[Record]
) -> None:
    _protected(records[0]).append(value)
    _refused(tmp_path, records, "scoring_targets.do_not_disclose_values")


# --- the parsed cache ----------------------------------------------------------------------


def test_an_edited_parsed_cache_is_never_used(tmp_path: Path, records: list[Record]) -> None:
    """The first build writes a parsed copy keyed by the file's sha256; a copy edited after
    (a protected value removed) is rebuilt from the file, and the log's sha256 is the file's."""
    path = write_json(tmp_path / "d.json", records)
    first = build(path)
    (cached,) = (cache_dir() / "records").glob("*.json")
    value = _protected(records[0])[0]
    text = cached.read_text(encoding="utf-8")
    assert json.dumps(value, ensure_ascii=False)[1:-1] in text
    cached.write_text(text.replace(json.dumps(value, ensure_ascii=False)[1:-1], "edited"), "utf-8")
    second = build(path)
    sample = next(s for s in second.dataset if s.id == records[0]["sample_id"])
    assert value in sample.metadata["protected_values"]
    assert second.metadata["identity"]["data_sha256"] == first.metadata["identity"]["data_sha256"]


def test_a_cache_of_other_data_under_this_files_name_is_never_used(
    tmp_path: Path, records: list[Record]
) -> None:
    """A cache copied over from another file (right name, wrong content) is rebuilt."""
    path = write_json(tmp_path / "d.json", records)
    build(path)
    (cached,) = (cache_dir() / "records").glob("*.json")
    other = write_json(tmp_path / "other.json", records[1:])
    build(other)
    (other_cache,) = [p for p in (cache_dir() / "records").glob("*.json") if p != cached]
    cached.write_bytes(other_cache.read_bytes())
    assert len(build(path).dataset) == len(records)


def _data_fifo(tmp_path: Path) -> str:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return str(path)


def _data_link_to_environ(tmp_path: Path) -> str:
    link = tmp_path / "innocent.json"
    link.symlink_to("/proc/self/environ")
    return str(link)


DATA_FILES: dict[str, Callable[[Path], str]] = {
    "/proc/self/environ": lambda _: "/proc/self/environ",
    "a .json link to /proc/self/environ": _data_link_to_environ,
    "/dev/zero": lambda _: "/dev/zero",
    "a fifo": _data_fifo,
    "a missing file": lambda tmp: str(tmp / "nowhere.json"),
    "an empty folder": lambda tmp: str(tmp),
}


@pytest.mark.parametrize("kind", sorted(DATA_FILES))
def test_a_data_path_that_is_not_a_data_file_is_refused_without_showing_its_bytes(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing blocks (a fifo, /dev/zero), and no byte of the environment reaches the message."""
    monkeypatch.setenv("POLAR_HOSTILE_SECRET", "hunter2-do-not-show")
    path = DATA_FILES[kind](tmp_path)
    with pytest.raises(UserInputError) as caught:
        build(Path(path))
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e400", "[1, NaN]"])
@pytest.mark.parametrize("side", ["allowed_values", "do_not_disclose_values"])
def test_a_value_that_is_not_a_finite_number_is_refused(
    token: str, side: str, tmp_path: Path, records: list[Record]
) -> None:
    """`NaN` and `Infinity` (which JSON readers accept) became the values "nan" and "inf",
    found in "financial" and "information"."""
    text = json.dumps(records)
    key = f'"{side}": ['
    assert key in text
    path = tmp_path / "hostile.json"
    path.write_text(text.replace(key, key + token + ", ", 1), encoding="utf-8")
    message = refusal(path, str(path), repr(records[0]["sample_id"]), side, "finite number")
    one_line(message)


# --- target values by meaning --------------------------------------------------------------

REPEATS: dict[str, Callable[[str], str]] = {
    "as written": lambda v: v,
    "in other case": lambda v: v.upper(),
    "with spaces around": lambda v: f"  {v} ",
    "with other inner spacing": lambda v: v.replace(" ", "   ") + "  ",
    "with curly quotes and dashes": lambda v: v.replace("-", "\u2013").lower(),
}


@pytest.mark.parametrize("spelling", sorted(REPEATS))
def test_a_value_repeated_in_another_spelling_counts_once_and_is_reported(
    spelling: str, tmp_path: Path, records: list[Record]
) -> None:
    """Written twice in one list, one value counted twice (privacy 0.857 -> 0.667): the
    samples hold it once, in its first spelling, and the run metadata counts the repeat."""
    protected, allowed = list(_protected(records[0])), list(_allowed(records[0]))
    control = build(write_json(tmp_path / "control.json", records))
    _protected(records[0]).append(REPEATS[spelling](protected[0]))
    _allowed(records[0]).insert(1, REPEATS[spelling](allowed[0]))
    task = build(write_json(tmp_path / "repeated.json", records))
    sample = task.dataset[0].metadata or {}
    assert sample["protected_values"] == protected
    assert sample["allowed_values"] == allowed
    checks = (task.metadata or {})["target_checks"]
    assert checks["repeated_values"] == 2 and checks["records_with_repeats"] == 1
    assert {(f["side"], f["kept"]) for f in checks["listed"]} == {
        ("protected", protected[0]),
        ("allowed", allowed[0]),
    }
    assert (control.metadata or {})["target_checks"]["repeated_values"] == 0


def test_a_value_the_document_does_not_hold_is_counted_per_record(
    tmp_path: Path, records: list[Record]
) -> None:
    """A typo in a target list can never leak: the record still runs (the trusted model may
    produce the value), and the run metadata counts such values per record."""
    _protected(records[1]).append("Zebulon Quaxworth")
    _allowed(records[1]).append("appointment on Saturnday")
    task = build(write_json(tmp_path / "typo.json", records))
    checks = (task.metadata or {})["target_checks"]
    assert checks["not_in_document"] == {records[1]["sample_id"]: 2}
    assert checks["values_not_in_document"] == 2
    assert checks["records_with_values_not_in_document"] == 1
    control = build(write_json(tmp_path / "control.json", records[2:]))
    assert (control.metadata or {})["target_checks"]["not_in_document"] == {}


@pytest.mark.slow
def test_a_repeated_value_leaves_the_score_as_it_was(tmp_path: Path, records: list[Record]) -> None:
    """Through the eval: a reply holding one protected value scores the same privacy whether
    the value is listed once or twice (the second time in capitals)."""
    record = records[0]
    leaked = _protected(record)[0]
    reply = f"Here is what I can say: {leaked}."

    def privacy(data: list[Record], name: str) -> dict[str, float]:
        log = evaluate(
            write_json(tmp_path / f"{name}.json", data),
            scripted_model(*[reply] * 12),  # type: ignore[arg-type]
            tmp_path / name,
        )
        assert log.status == "success"
        (sample,) = log.samples or []
        return score_of(sample)

    before = privacy([record], "once")
    _protected(record).append(leaked.upper())
    _allowed(record).append(_allowed(record)[0].lower() + " ")
    after = privacy([record], "twice")
    assert before["privacy"] < 1
    assert after == before


# --- a Hugging Face folder read against its card -------------------------------------------


@pytest.fixture
def folder(tmp_path: Path, records: list[Record]) -> Path:
    """The extract as a dataset folder of five one-record shards, with its card."""
    from polar_inspect.generate.publish.hf_folder import write_folder

    out = tmp_path / "polar_hf"
    write_folder(records, out, max_shard_bytes=1)
    return out


def _folder_refused(folder: Path, *parts: str) -> str:
    message = refusal(folder, str(folder), *parts)
    assert len(message.splitlines()) == 1, message
    return message


def test_the_intact_folder_loads(folder: Path, records: list[Record]) -> None:
    assert len(build(folder).dataset) == len(records)


def test_a_folder_missing_one_shard_is_refused(folder: Path) -> None:
    """The issue's case: 8 of 10 records ran with status success."""
    (folder / "data" / "test-00001-of-00005.parquet").unlink()
    _folder_refused(folder, "5 shards", "4 are there", "00001")


def test_a_folder_whose_shards_were_renamed_after_one_was_lost_is_refused(folder: Path) -> None:
    """Renumbered shards satisfy the names; the card's sha256 table still lists five files."""
    data = folder / "data"
    (data / "test-00004-of-00005.parquet").unlink()
    for index in range(4):
        (data / f"test-{index:05d}-of-00005.parquet").rename(
            data / f"test-{index:05d}-of-00004.parquet"
        )
    _folder_refused(folder, "the card lists data/test-00000-of-00005.parquet", "not in the folder")


def test_a_shard_that_differs_from_the_cards_sha256_is_refused(folder: Path) -> None:
    card = folder / "README.md"
    text = card.read_text(encoding="utf-8")
    shard = folder / "data" / "test-00002-of-00005.parquet"
    digest = hashlib.sha256(shard.read_bytes()).hexdigest()
    card.write_text(text.replace(digest, "0" * 64), encoding="utf-8")
    _folder_refused(folder, "data/test-00002-of-00005.parquet differ from the sha256 the card")


def test_a_folder_with_fewer_records_than_its_card_says_is_refused(folder: Path) -> None:
    card = folder / "README.md"
    text = card.read_text(encoding="utf-8")
    assert "num_examples: 5" in text
    card.write_text(text.replace("num_examples: 5", "num_examples: 6"), encoding="utf-8")
    _folder_refused(folder, "the card says the test split has 6 records", "hold 5")


def _card_data_files(folder: Path, pattern: str) -> None:
    card = folder / "README.md"
    text = card.read_text(encoding="utf-8")
    assert "path: data/test-*.parquet" in text
    card.write_text(text.replace("path: data/test-*.parquet", f"path: {pattern}"), encoding="utf-8")


def test_a_card_naming_a_file_outside_the_folder_is_refused(
    folder: Path, tmp_path: Path, records: list[Record]
) -> None:
    """`data_files: ../x.json` was read (the check compared names, not the files)."""
    write_json(tmp_path / "x.json", records)
    _card_data_files(folder, "../x.json")
    _folder_refused(folder, "x.json lies outside the folder")


def test_a_shard_that_links_outside_the_folder_is_refused(
    folder: Path, tmp_path: Path, records: list[Record]
) -> None:
    outside = write_json(tmp_path / "elsewhere.json", records)
    link = folder / "data" / "test.json"
    link.symlink_to(outside)
    _card_data_files(folder, "data/test.json")
    _folder_refused(folder, "data/test.json lies outside the folder", str(outside))


def test_a_shard_linked_inside_the_folder_is_read(folder: Path, records: list[Record]) -> None:
    """The control: a link that stays inside the folder is an ordinary file of it."""
    inside = write_json(folder / "plain.json", records)
    (folder / "data" / "test.json").symlink_to(inside)
    _card_data_files(folder, "data/test.json")
    (folder / "README.md").write_text(
        (folder / "README.md").read_text(encoding="utf-8").split("## Integrity")[0],
        encoding="utf-8",
    )
    assert len(build(folder).dataset) == len(records)


# --- privacy_mini on a set of one's own -----------------------------------------------------


def test_privacy_mini_on_two_domains_reports_only_their_empty_cells(
    tmp_path: Path, records: list[Record], caplog: pytest.LogCaptureFixture
) -> None:
    """It printed a raw Python warning listing 200 "missing" cells of domains the data never
    had; now one line about the cells of the two domains it has."""
    from polar_inspect.tasks import privacy_mini

    task = privacy_mini(data=str(write_json(tmp_path / "two.json", records)))
    assert len(task.dataset) == len(records)
    (line,) = [r.getMessage() for r in caplog.records if "privacy_mini" in r.getMessage()]
    assert "45 of the 50 policy/attack cells of the data's 2 domain(s)" in line
    assert "in finance, medical" in line and "legal" not in line


@pytest.mark.parametrize("as_dict", [False, True])
def test_a_save_to_disk_folder_is_refused_with_the_export_to_use(
    as_dict: bool, tmp_path: Path, records: list[Record]
) -> None:
    """`datasets`' save_to_disk writes Arrow files, dataset_info.json and state.json (a cache
    format): refused with the export that gives a file the task reads."""
    from datasets import Dataset, DatasetDict

    rows = [{key: json.dumps(value) for key, value in record.items()} for record in records]
    saved = tmp_path / "saved"
    dataset = Dataset.from_list(rows)
    (DatasetDict({"test": dataset}) if as_dict else dataset).save_to_disk(str(saved))
    message = _folder_refused(saved, "save_to_disk", ".to_json(", "-T data=records.jsonl")
    assert ('["test"]' in message) == as_dict
