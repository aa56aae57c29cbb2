"""The model renderer's prompts: replaceable `string.Template` files (`prompts/*.txt`), the parts
chosen per layout, level and strategy (`prompts/fragments.json`) and the slots filled into them
(docs/generator.md lists the placeholders)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from string import Template

from polar_inspect.axes import ATTACK_LABELS, POLICY_LABELS
from polar_inspect.generate.checks import Texts
from polar_inspect.generate.domains.schema import labels
from polar_inspect.generate.symbolic import SymbolicRecord, derive_seed
from polar_inspect.generate.textgen import expand

PROMPT_NAMES = ("document", "policy", "task", "attacker", "repair")
_DEFAULT_DIR = Path(__file__).parent / "prompts"

#: The prompt parts chosen per layout, policy level and attack strategy.
FRAGMENTS: dict[str, dict[str, str]] = json.loads(
    (_DEFAULT_DIR / "fragments.json").read_text(encoding="utf-8")
)


def load_templates(prompt_dir: Path | None = None) -> dict[str, Template]:
    """The five prompt templates; files in `prompt_dir` replace the defaults of the same name."""
    templates = {}
    for name in PROMPT_NAMES:
        path = _DEFAULT_DIR / f"{name}.txt"
        if prompt_dir is not None and (prompt_dir / f"{name}.txt").is_file():
            path = prompt_dir / f"{name}.txt"
        templates[name] = Template(path.read_text(encoding="utf-8"))
    return templates


def templates_sha256(templates: dict[str, Template]) -> str:
    """One sha256 over the prompt templates' names and texts (a work file's prompt identity)."""
    digest = hashlib.sha256()
    for name in sorted(templates):
        digest.update(f"{name}\0{templates[name].template}\0".encode())
    return digest.hexdigest()


def check_prompt_dir(prompt_dir: Path) -> None:
    """ValueError for a `--prompts` path that is no folder, holds no template or a `.txt` whose
    name is not a template's (a misspelt one would be silently ignored)."""
    if not prompt_dir.is_dir():
        raise ValueError(f"--prompts {prompt_dir}: not a folder")
    names = sorted(p.stem for p in prompt_dir.glob("*.txt"))
    unknown = [n for n in names if n not in PROMPT_NAMES]
    known = ", ".join(f"{n}.txt" for n in PROMPT_NAMES)
    if unknown:
        raise ValueError(
            f"--prompts {prompt_dir}: {', '.join(f'{n}.txt' for n in unknown)} is no prompt "
            f"template; the names are {known}"
        )
    if not names:
        raise ValueError(f"--prompts {prompt_dir}: holds none of {known}")


def _value_lines(sym: SymbolicRecord) -> str:
    lines = []
    for f in sym.spec.fields:
        value = sym.values[f.name]
        for item in value if isinstance(value, list) else [value]:
            lines.append(f"- {f.label}: {item}")
    return "\n".join(lines)


def _fill(template: Template, slots: dict[str, str], name: str) -> str:
    try:
        return template.substitute(slots)
    except (KeyError, ValueError) as exc:
        raise ValueError(
            f"prompt template {name}.txt: unknown or malformed placeholder {exc}"
        ) from exc


def build_prompts(sym: SymbolicRecord, templates: dict[str, Template]) -> Texts:
    """Fill the four rendering prompts for one symbolic record."""
    spec, cell = sym.spec, sym.cell
    form = spec.form(cell.form)
    task = sym.task
    rng = random.Random(derive_seed(sym.record_seed, "model-prompts"))
    abstract = [f for f in spec.protected if f.abstraction][:2]
    level_slots = {
        "concepts": spec.concept_phrases,
        "conditions": " ".join(
            f"{f.abstraction} may replace the {f.label} only if {rng.choice(spec.conditions)}."
            for f in abstract
        ),
        "abstractions": " ".join(f"for the {f.label}, only {f.abstraction}." for f in abstract),
        "role": rng.choice(spec.roles),
    }
    slots = {
        "sample_id": cell.sample_id,
        "domain": cell.domain,
        "form_title": form.title.lower(),
        "layout_hint": FRAGMENTS["layout_hints"][form.layout].format(person=spec.person),
        "org": sym.context["org"],
        "author": form.author,
        "audience_clause": f" for the {form.audience}" if form.audience else "",
        "style": sym.style,
        "layout_complexity": sym.layout_complexity,
        "target_words": str(sym.target_words),
        "value_lines": _value_lines(sym),
        "distractor_lines": "\n".join(f"- {d.text}" for d in sym.distractors),
        "person": spec.person,
        "topic": task.topic,
        "allowed_labels": labels(spec.allowed),
        "protected_labels": labels(spec.protected),
        "all_labels": labels(spec.fields),
        "level_name": POLICY_LABELS[cell.policy],
        "level_instruction": FRAGMENTS["level_instructions"][cell.policy].format(**level_slots),
        "partial_clause": (
            ", and what only under a condition or in a general form"
            if cell.policy in ("P3", "P4")
            else ""
        ),
        "task_brief": expand(task.text, rng, {"person": spec.person, "org": sym.context["org"]}),
        "strategy_name": ATTACK_LABELS[cell.attack],
        "strategy_rules": FRAGMENTS["strategy_rules"][cell.attack].format(**level_slots),
        "turns": str(sym.planned_turns),
    }
    texts = {name: _fill(templates[name], slots, name) for name in PROMPT_NAMES if name != "repair"}
    return Texts(**texts)


def repair_prompt(
    templates: dict[str, Template], request: str, previous: str, problems: list[str]
) -> str:
    """The prompt asking the model to fix its previous answer."""
    slots = {
        "problems": "\n".join(f"- {p}" for p in problems),
        "request": request,
        "previous": previous,
    }
    return _fill(templates["repair"], slots, "repair")
