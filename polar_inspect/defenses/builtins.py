"""Imports every built-in defense module, which registers it (listed by name)."""

from polar_inspect.defenses import guard, minimize, prompt_only, redact_oracle, spotlight  # noqa: F401
