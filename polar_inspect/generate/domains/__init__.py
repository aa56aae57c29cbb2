"""Domain knowledge by name: `<domain>.json` (data) plus its recipe in `recipes.py` (values),
validated on first use; a malformed file raises `KnowledgeFileError` naming the file and the key."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ValidationError

from polar_inspect.axes import DOMAINS
from polar_inspect.data.json_text import loads_tracking_repeats, repeated_keys
from polar_inspect.generate.domains import recipes
from polar_inspect.generate.domains.schema import (
    CommonKnowledge,
    DomainSpec,
    Vocabulary,
    resolve_field,
)

__all__ = [
    "RECIPES",
    "KnowledgeFileError",
    "build_domain_spec",
    "common_knowledge",
    "domain_spec",
    "read_knowledge",
]

#: Each domain's value recipe: the model of its file's `vocabulary` with `make_values`.
RECIPES: dict[str, type[Vocabulary]] = {
    "customer_support": recipes.CustomerSupport,
    "cybersecurity": recipes.Cybersecurity,
    "education": recipes.Education,
    "finance": recipes.Finance,
    "housing": recipes.Housing,
    "insurance": recipes.Insurance,
    "legal": recipes.Legal,
    "medical": recipes.Medical,
    "recruitment": recipes.Recruitment,
    "travel": recipes.Travel,
}


class KnowledgeFileError(ValueError):
    """A knowledge file (or its domain module) is missing or malformed."""


def _where(name: str) -> str:
    return f"polar_inspect/generate/domains/{name}.json"


def read_knowledge(name: str) -> dict[str, Any]:
    """The parsed `<name>.json` of this package (not yet validated; a repeated key is an error)."""
    path = resources.files(__package__) / f"{name}.json"
    try:
        data = loads_tracking_repeats(path.read_text(encoding="utf-8"))
        if repeated := sorted({key for _, key, _ in repeated_keys(data)}):
            raise ValueError(f"a key repeats in one object: {', '.join(repeated)}")
    except (OSError, ValueError) as exc:
        raise KnowledgeFileError(f"{_where(name)}: cannot read it ({exc})") from exc
    if not isinstance(data, dict):
        raise KnowledgeFileError(f"{_where(name)}: must hold a JSON object")
    return data


def _explain(error: ValidationError, section: str = "") -> str:
    """Pydantic's errors as `key.path: message` items, one line."""
    items = []
    for e in error.errors():
        where = ".".join(str(p) for p in (section, *e["loc"]) if p != "")
        items.append(f"{where or '(top level)'}: {e['msg']}")
    return "; ".join(items)


def _validate(name: str, model: type[BaseModel], data: Any, section: str = "") -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise KnowledgeFileError(f"{_where(name)}: {_explain(exc, section)}") from None


@cache
def common_knowledge() -> CommonKnowledge:
    """`common.json`: standard fields, default phrasing per kind, lexicons, generic prose."""
    return _validate("common", CommonKnowledge, read_knowledge("common"))


def _resolve_fields(name: str, data: dict[str, Any]) -> None:
    """Apply `like` templates (the domain's own `field_templates`, then the common ones)."""
    templates = {**common_knowledge().field_templates, **data.pop("field_templates", {})}
    for group in ("allowed", "protected"):
        if not isinstance(raws := data.get(group), list):
            continue
        try:
            data[group] = [resolve_field(f, templates) if isinstance(f, dict) else f for f in raws]
        except ValueError as exc:
            raise KnowledgeFileError(f"{_where(name)}: {group}: {exc}") from None


@cache
def domain_spec(name: str) -> DomainSpec:
    """The `DomainSpec` of a benchmark domain (read and validated on first use)."""
    if name not in DOMAINS:
        raise KeyError(f"unknown domain {name!r}; valid: {', '.join(DOMAINS)}")
    return build_domain_spec(name, read_knowledge(name))


def build_domain_spec(name: str, data: dict[str, Any]) -> DomainSpec:
    """Validate a domain's parsed knowledge and bind its values module (KnowledgeFileError)."""
    data = dict(data)
    if (vocabulary_model := RECIPES.get(name)) is None:
        raise KnowledgeFileError(
            f"domain {name!r} has no value recipe in polar_inspect/generate/domains/recipes.py"
        )
    vocabulary = _validate(name, vocabulary_model, data.pop("vocabulary", {}), "vocabulary")
    _resolve_fields(name, data)
    if data.setdefault("name", name) != name:
        raise KnowledgeFileError(f"{_where(name)}: name: says {data['name']!r}, not {name!r}")
    data["make_values"] = vocabulary.make_values
    return _validate(name, DomainSpec, data)
