"""Domain knowledge, one module per domain, looked up by name."""

from __future__ import annotations

from importlib import import_module

from polar_inspect.axes import DOMAINS
from polar_inspect.generate.domains.base import DomainSpec

_CACHE: dict[str, DomainSpec] = {}


def domain_spec(name: str) -> DomainSpec:
    """The `DomainSpec` of a benchmark domain (modules are imported on first use)."""
    if name not in DOMAINS:
        raise KeyError(f"unknown domain {name!r}; valid: {', '.join(DOMAINS)}")
    if name not in _CACHE:
        module = import_module(f"polar_inspect.generate.domains.{name}")
        spec: DomainSpec = module.SPEC
        if spec.name != name:
            raise ValueError(f"module for {name!r} defines domain {spec.name!r}")
        _CACHE[name] = spec
    return _CACHE[name]
