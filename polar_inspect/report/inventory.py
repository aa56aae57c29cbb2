"""Find Inspect logs, read their headers and decide which ones a report uses, or why not
(docs/report/README.md#what-the-report-reads)."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from fsspec.core import url_to_fs  # type: ignore[import-untyped]
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from pydantic import BaseModel

from polar_inspect.axes import LIVE_ATTACK
from polar_inspect.plugins import one_line
from polar_inspect.redaction import fingerprint, redact
from polar_inspect.register import register_entry
from polar_inspect.report import setup
from polar_inspect.report.read_cache import FRESH, is_uri, log_member
from polar_inspect.report.run_facts import DataInfo, SampleSet, sample_set
from polar_inspect.report.usage import RoleUsage, role_usage
from polar_inspect.run.agent_options import options_read
from polar_inspect.run.identity import RunIdentity, run_identity
from polar_inspect.run.metadata import (
    MetadataVersionError,
    RunMetadata,
    is_polar_metadata,
    legacy_identity,
    read_run_metadata,
)
from polar_inspect.scorers.agent_channel import AGENT_KEYS, LEGACY_AGENT_KEYS
from polar_inspect.scorers.flags import REPLY_FLAG_KEYS
from polar_inspect.scorers.parity import SCORE_KEYS
from polar_inspect.scorers.short_values import SHORT_KEYS
from polar_inspect.scorers.strict import ATTACKED_KEY

TASK_PREFIX = "polar_inspect/privacy"
LOG_SUFFIXES = (".eval", ".json")

KeepPolicy = Literal["newest", "all"]


class ReportInputError(ValueError):
    """A path given to the report does not exist or cannot hold logs."""


class RunHeader(setup.PromptFacts, setup.SamplingFacts):
    """One usable polar_inspect log, as read from its header (its prompts and sampling too)."""

    path: str
    model: str
    label: str
    identity: str
    task: str
    created: datetime
    epochs: int
    weight: float
    data: DataInfo
    s5_attacker: str
    selection: dict[str, Any]
    samples: SampleSet
    task_args: dict[str, Any]
    metrics: dict[str, dict[str, float]]
    scored_samples: int
    unfinished_samples: int
    group_key: str
    truncated_samples: int | None = None  # samples with a reply cut by the token limit
    empty_samples: int | None = None  # samples with an empty visible reply
    usage: list[RoleUsage] = []
    defense: str = "none"  # the defense stack's label: runs with different stacks never dup
    defense_oracle: bool = False
    base_label: str = ""  # the model's label (and agent setup) without the defense stack
    plain_label: str = ""  # the model's label alone
    trusted_agent: str = "none"  # `-T trusted_agent` ("none": the paper's model call)
    document_access: str = "prompt"  # `-T document_access`
    cut_samples: int | None = None  # samples whose dialogue an Inspect limit cut short
    #: Share of samples that met at least one real attack (the strict scorer's `attacked`).
    attacked: float | None = None
    short_values: int = 0  # target values too short to match reliably in the run's data
    short_value_samples: int = 0
    targets_not_in_document: int = 0  # target values their document lacks (data/target_checks)
    repeated_targets: int = 0  # target values listed twice in one list, counted once
    run_identity: RunIdentity | None = None  # everything that can change a number
    run_digest: str = ""  # digest of `run_identity`: equal digests are the same experiment

    @property
    def complete(self) -> bool:
        """Every sample finished and no dialogue was cut by a limit."""
        return not self.unfinished_samples and not self.cut_samples


class SkippedLog(BaseModel):
    """A log (or file) the report did not use, and why."""

    path: str
    reason: str
    detail: str
    model: str = ""
    task: str = ""


class Inventory(BaseModel):
    """Every file considered: the runs used and the logs skipped."""

    runs: list[RunHeader]
    skipped: list[SkippedLog]
    files_seen: int


#: The list of files a report wrote, kept in its `--out` folder (see `report.outdir`).
REPORT_MANIFEST = ".polar-report-files.json"
#: JSON files Inspect writes next to the logs of an eval set, and the report's own manifest
#: (a report may be written into a log folder): manifests, not logs.
EVAL_SET_FILES = {"logs.json", "eval-set.json", REPORT_MANIFEST}


def expand_inputs(inputs: Sequence[str | Path]) -> list[str]:
    """Files to consider for `inputs` (local paths or `s3://...` URIs), in order: a directory
    gives the logs Inspect lists in it by name, then any other `.json` file (Inspect lists only
    JSON logs with timestamped names), so that none is passed over unreported."""
    found: list[str] = []
    for item in map(str, inputs):
        if not is_uri(item):
            found += _files_in(item, *url_to_fs(str(Path(item).expanduser().resolve())))
            continue
        try:
            found += _files_in(item, *url_to_fs(item, **FRESH))
        except ReportInputError:
            raise
        except Exception as err:  # noqa: BLE001 - a store that cannot be listed (credentials...)
            why = one_line(err)
            raise ReportInputError(f"{item}: cannot be listed ({why}); {S3_CHECK}") from None
    return list(dict.fromkeys(found))


S3_CHECK = "check the URI, AWS_ENDPOINT_URL and the credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID)"


def _files_in(item: str, fs: Any, inner: str) -> list[str]:
    if fs.isdir(inner):
        listed = sorted(_name(info.name) for info in list_eval_logs(item, recursive=True))
        return listed + [_name(fs.unstrip_protocol(p)) for p in sorted(fs.find(inner)) if _other(p)]
    if fs.isfile(inner):
        return [_name(fs.unstrip_protocol(inner))]
    if is_uri(item):
        raise ReportInputError(f"{item}: no such bucket or prefix, or not reachable; {S3_CHECK}")
    raise ReportInputError(
        f"{item}: no such file or directory; give log files (.eval, .json) or the folder "
        "Inspect wrote them to (--log-dir)"
    )


def _other(path: str) -> bool:
    """A `.json` file that is no eval-set manifest (it may be a log Inspect does not list)."""
    return path.endswith(".json") and path.rsplit("/", 1)[-1] not in EVAL_SET_FILES


def _name(uri: str) -> str:
    """A log's location: its resolved local path, or its URI."""
    return uri if is_uri(uri) else str(Path(uri.removeprefix("file://")).resolve())


def model_label(log: EvalLog) -> str:
    """The model's display name: its name, plus its model args (long or nested ones elided)."""
    if not (args := redact(options_read(log.eval.model, log.eval.model_args or {}))):
        return log.eval.model

    def show(value: object) -> str:
        text = str(value)
        return text if isinstance(value, str | int | float | bool) and len(text) <= 40 else "…"

    shown = ", ".join(f"{k}={show(v)}" for k, v in sorted(args.items()))
    return f"{log.eval.model} ({shown})"


def model_identity(log: EvalLog) -> str:
    """The model and all its args, for telling runs of different models apart."""
    read = options_read(log.eval.model, log.eval.model_args or {})
    return f"{log.eval.model} {json.dumps(fingerprint(read), sort_keys=True, default=str)}"


def s5_attacker(log: EvalLog, meta: RunMetadata) -> str:
    """How S5 turns were produced: `live: <model>`, `replayed`, or `not used`; for a run with
    another attacker (`-T attacker=scripted|adaptive|...`), the log's own note on it; from the
    selected attacks and the model bound to the `attacker` role (`eval.model_roles`)."""
    configs = setup.attacker_configs(log)
    bound = ", ".join(c.model for c in configs)
    if meta.attacker.name != "paper":
        note = meta.attacker.note or meta.attacker.name
        return f"{note}; attacker role: {bound}" if bound else note
    if meta.attacks and LIVE_ATTACK not in meta.attacks:
        return "not used"
    return f"live: {bound}" if configs else "replayed"


ORACLE_TAG = "ORACLE"
CUT_TAG = "CUT"
NO_ATTACK_TAG = "NO ATTACK"


def setup_label(model: str, agent: str, access: str) -> str:
    """The model's label with its agent setup: `m`, or `m via react (fields)`."""
    return model if agent == "none" and access == "prompt" else f"{model} via {agent} ({access})"


def run_label(base: str, defense: str, oracle: bool) -> str:
    """A run's display name: the model, plus its defense stack (oracles marked as such)."""
    if defense == "none":
        return base
    return f"{base} + {defense}" + (f" [{ORACLE_TAG}]" if oracle else "")


def is_polar_log(log: EvalLog) -> bool:
    """True for logs written by polar_inspect tasks."""
    meta = log.eval.metadata or {}
    legacy = log.eval.task.startswith(TASK_PREFIX) and "data_source" in meta
    return is_polar_metadata(meta) or legacy


def _metrics(log: EvalLog) -> tuple[dict[str, dict[str, float]], int]:
    found: dict[str, dict[str, float]] = {}
    scored = 0
    scores = log.results.scores if log.results else []  # with several reducers, the mean's wins
    for score in sorted(scores, key=lambda s: s.reducer in (None, "mean")):
        key = LEGACY_AGENT_KEYS.get(score.name, score.name)
        if key in (*SCORE_KEYS, *REPLY_FLAG_KEYS, *SHORT_KEYS, *AGENT_KEYS, ATTACKED_KEY):
            found[key] = {name: float(m.value) for name, m in score.metrics.items()}
            scored = max(scored, score.scored_samples or 0)
    return found, scored


#: What decides which samples ran and how (not the trusted prompt: compared side by side).
SELECTION = {"subset", "domains", "policies", "attacks", "max_turns", "samples_selected",
             "samples_available"}  # fmt: skip


def _flagged_samples(metrics: dict[str, dict[str, float]], flag: str, scored: int) -> int | None:
    """Samples with a reply flag (`truncated`, `empty`): the flag's mean x samples."""
    share = metrics.get(flag, {}).get("mean")
    return None if share is None else round(share * scored)


def _group_key(
    meta: RunMetadata, data: DataInfo, attacker: str, attacker_prompts: str, samples: SampleSet
) -> str:
    parts: dict[str, Any] = {
        "data": [data.kind, data.sha256, data.revision],
        "selection": meta.model_dump(include=SELECTION),
        "samples": samples.key(),
        "comparability": meta.task_comparability_version,
    }
    if attacker != "not used":
        parts["s5_attacker"] = attacker
    if attacker.startswith("live"):
        parts["attacker_prompts"] = attacker_prompts  # they shape the live attack
    return json.dumps(parts, sort_keys=True)


def classify(path: str, log: EvalLog) -> RunHeader | SkippedLog:
    """Turn one log header into a usable run, or the reason to skip it."""
    model, task = log.eval.model, log.eval.task

    def skip(reason: str, detail: str) -> SkippedLog:
        return SkippedLog(path=path, reason=reason, detail=detail, model=model, task=task)

    if not is_polar_log(log):
        return skip("not a polar_inspect log", f"task {task!r} has no POLAR-Bench metadata")
    if log.status != "success":
        message = log.error.message.splitlines()[0][:200] if log.error else ""
        return skip(f"status {log.status}", message or "the evaluation did not finish")
    try:
        meta = read_run_metadata(log.eval.metadata or {}, register_entry().comparability_version)
    except MetadataVersionError as err:
        return skip("unreadable task version", str(err).splitlines()[0][:200])
    metrics, scored = _metrics(log)
    if missing := [k for k in SCORE_KEYS if "mean" not in metrics.get(k, {})]:
        return skip("no polar scores", f"results lack the mean of {', '.join(missing)}")
    data = DataInfo.model_validate(meta.data_source.model_dump())
    attacker, samples = s5_attacker(log, meta), sample_set(log)
    prompts, sampling = setup.prompt_facts(meta), setup.sampling_facts(log)
    results = log.results
    unfinished = (results.total_samples - results.completed_samples) if results else 0
    defense, oracle = meta.defense.label or "none", meta.defense.oracle
    agent = str(meta.config.get("trusted_agent") or "none")
    access = str(meta.config.get("document_access") or "prompt")
    base = setup_label(model_label(log), agent, access)
    identity = run_identity(log, meta.identity, legacy_identity(meta) if meta.is_legacy else {})
    return RunHeader(
        path=path,
        model=model,
        label=run_label(base, defense, oracle),
        base_label=base,
        plain_label=model_label(log),
        trusted_agent=agent,
        document_access=access,
        defense=defense,
        defense_oracle=oracle,
        identity=model_identity(log),
        task=task,
        created=datetime.fromisoformat(log.eval.created),
        epochs=log.eval.config.epochs or 1,
        weight=meta.weight,
        data=data,
        s5_attacker=attacker,
        selection=meta.model_dump(include=SELECTION),
        samples=samples,
        task_args=redact(
            {k: v for k, v in (log.eval.task_args_passed or {}).items() if v is not None}
        ),
        metrics=metrics,
        scored_samples=scored,
        unfinished_samples=max(0, unfinished),
        group_key=_group_key(meta, data, attacker, prompts.attacker_key, samples),
        **prompts.model_dump(),
        **sampling.model_dump(),
        truncated_samples=_flagged_samples(metrics, "truncated", scored),
        empty_samples=_flagged_samples(metrics, "empty", scored),
        cut_samples=_flagged_samples(metrics, "cut", scored),
        attacked=metrics.get("attacked", {}).get("mean"),
        short_values=meta.short_values.values,
        short_value_samples=meta.short_values.records,
        targets_not_in_document=meta.target_checks.values_not_in_document,
        repeated_targets=meta.target_checks.repeated_values,
        usage=role_usage(log),
        run_identity=identity,
        run_digest=identity.digest(),
    )


def read_header(path: str) -> RunHeader | SkippedLog:
    """Read one log's header (a `.eval` log's `header.json` alone: not its reductions, tens of
    MB for a full run) and classify it."""
    if not path.endswith(LOG_SUFFIXES):
        return SkippedLog(path=path, reason="not a log file", detail="not .eval/.json")
    try:
        with log_member(path, "header.json") as member:
            data = None if member is None else io.BytesIO(member.read())
        header = read_eval_log(data or path, header_only=True, format="json" if data else "auto")
    except Exception as err:  # any unreadable file is reported, not fatal
        detail = f"{type(err).__name__}: {err}".splitlines()[0][:200]
        return SkippedLog(path=path, reason="unreadable", detail=detail)
    return classify(path, header)
