"""The identity's settings are derived from the whole run configuration: every `PolarConfig`
field is a setting unless `NOT_SETTINGS` declares it not one (docs/large-runs.md#run-identity)."""

from __future__ import annotations

from polar_inspect.run.assemble import NOT_SETTINGS, OMITTED_AT_DEFAULT, settings_of
from polar_inspect.run.config import PolarConfig
from polar_inspect.run.identity import digest_of


def test_every_config_field_is_a_setting_unless_declared_not_one() -> None:
    fields = set(PolarConfig.model_fields)
    assert fields >= NOT_SETTINGS and set(OMITTED_AT_DEFAULT) <= fields  # no stale names
    config = PolarConfig.from_task_args({"trusted_agent": "react", "document_access": "tool"})
    assert set(settings_of(config)) == (fields - NOT_SETTINGS) | {"trusted_model_config"}


def test_the_paper_setting_leaves_the_later_parameters_out() -> None:
    explicit = PolarConfig.from_task_args({"document_access": "prompt", "trusted_agent": None})
    settings = settings_of(explicit)
    assert not set(OMITTED_AT_DEFAULT) & set(settings)
    assert digest_of(settings) == digest_of(settings_of(PolarConfig.from_task_args({})))


def test_an_operational_parameter_leaves_the_settings_alone() -> None:
    plain = settings_of(PolarConfig.from_task_args({}))
    tuned = settings_of(PolarConfig.from_task_args({"max_in_flight": 3, "gc_tuning": False}))
    assert plain == tuned
    assert settings_of(PolarConfig.from_task_args({"weight": 0.3})) != plain
