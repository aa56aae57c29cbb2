"""Domain knowledge is data: one validated JSON file per domain plus its value recipe."""

from __future__ import annotations

import ast
import copy
import inspect
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from polar_inspect.axes import DOMAINS
from polar_inspect.generate.domains import (
    RECIPES,
    KnowledgeFileError,
    build_domain_spec,
    common_knowledge,
    domain_spec,
    read_knowledge,
    recipes,
)
from polar_inspect.generate.domains.schema import KINDS, Layout, Vocabulary
from polar_inspect.generate.render.layouts import LAYOUTS
from polar_inspect.generate.values import ValueGen


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_domain_file_loads_and_its_values_fill_exactly_its_fields(domain: str) -> None:
    spec = domain_spec(domain)
    assert spec.name == domain and spec.about
    for seed in range(40):
        values = spec.make_values(ValueGen(seed))
        assert list(values) == [f.name for f in spec.fields]
        assert all(
            v and (isinstance(v, str) or all(isinstance(x, str) for x in v))
            for v in values.values()
        )


def test_the_recipes_module_holds_only_value_recipes() -> None:
    """No field, form, task or word list is written in code: those are the JSON files'. The
    module has imports and pydantic models of vocabularies, nothing else."""
    source = inspect.getsource(recipes)
    statements = ast.parse(source).body[1:]  # after the docstring
    others = []
    for node in statements:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.ClassDef) and issubclass(getattr(recipes, node.name), BaseModel):
            continue
        others.append(f"line {node.lineno}: {type(node).__name__}")
    assert not others, f"recipes.py holds more than value recipes: {others}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_domain_recipe_holds_only_its_vocabulary_and_make_values(domain: str) -> None:
    recipe = RECIPES[domain]
    assert issubclass(recipe, Vocabulary) and issubclass(recipe, BaseModel)
    node = ast.parse(inspect.getsource(recipe)).body[0]
    assert isinstance(node, ast.ClassDef)
    methods = [n.name for n in node.body if isinstance(n, ast.FunctionDef)]
    assert methods == ["make_values"]
    assert len(inspect.getsource(recipe).splitlines()) < 90


def test_the_layout_and_kind_names_the_schema_accepts_are_the_ones_the_renderer_has() -> None:
    assert set(get_args(Layout)) == set(LAYOUTS)
    assert set(common_knowledge().kind_phrasing) == set(KINDS)


def test_a_like_template_gives_the_standard_field_and_the_file_overrides_its_name() -> None:
    email = domain_spec("customer_support").field("customer_email")
    standard = common_knowledge().field_templates["email"]
    assert email.label == standard["label"] and email.kind == "email"
    assert email.aliases == tuple(standard["aliases"])
    technical = domain_spec("cybersecurity").field("device_id")
    assert technical.staff_only and technical.concept == "technical"
    assert technical.label == "device ID"


def _medical() -> dict[str, Any]:
    return copy.deepcopy(read_knowledge("medical"))


def _refused(data: dict[str, Any], *expected: str) -> str:
    with pytest.raises(KnowledgeFileError) as info:
        build_domain_spec("medical", data)
    message = str(info.value)
    assert message.startswith("polar_inspect/generate/domains/medical.json: "), message
    for part in expected:
        assert part in message, message
    return message


def test_a_misspelt_key_is_refused_naming_file_and_place() -> None:
    data = _medical()
    data["allowed"][0]["alias"] = ["typo"]
    _refused(data, "allowed.0.alias", "Extra inputs")


def test_a_protected_field_without_a_policy_concept_is_refused() -> None:
    data = _medical()
    del data["concepts"]["employment"]
    _refused(data, "'employer' has no concept")


def test_an_unknown_layout_kind_or_template_is_refused() -> None:
    data = _medical()
    data["forms"][0]["layout"] = "fax"
    _refused(data, "forms.0.layout")
    data = _medical()
    data["allowed"][0]["kind"] = "colour"
    _refused(data, "allowed.0.kind")
    data = _medical()
    data["protected"][0]["like"] = "passport"
    _refused(data, "protected:", "unknown template 'passport'")


def test_a_missing_word_list_is_refused_in_the_vocabulary_section() -> None:
    data = _medical()
    del data["vocabulary"]["symptoms"]
    _refused(data, "vocabulary.symptoms", "Field required")


def test_repeated_field_names_and_missing_relevant_distractors_are_refused() -> None:
    data = _medical()
    data["allowed"].append(dict(data["allowed"][0]))
    _refused(data, "field names repeat", "symptom")
    data = _medical()
    for distractor in data["distractors"]:
        distractor["superficially_relevant"] = False
    _refused(data, "superficially relevant distractor")


def test_a_key_repeated_in_a_knowledge_file_is_an_error(tmp_path, monkeypatch) -> None:
    import polar_inspect.generate.domains as domains

    class Files:
        def __truediv__(self, name: str):
            path = tmp_path / name
            path.write_text('{"person": "patient", "person": "client"}', encoding="utf-8")
            return path

    monkeypatch.setattr(domains.resources, "files", lambda package: Files())
    with pytest.raises(KnowledgeFileError, match="a key repeats in one object: person"):
        read_knowledge("medical")
