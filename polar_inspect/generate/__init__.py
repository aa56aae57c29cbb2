"""Build POLAR-Bench-style datasets offline (docs/generator.md); needs the `[generate]` extra.

The names below are imported on first use, which says so clearly when the extra is missing.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from polar_inspect.extras import require_extra

if TYPE_CHECKING:
    from polar_inspect.generate.assemble import GENERATOR_NAME, GENERATOR_VERSION
    from polar_inspect.generate.build import DEFAULT_SEED, build_dataset
    from polar_inspect.generate.report import BuildReport

_EXPORTS = {
    "DEFAULT_SEED": "polar_inspect.generate.build",
    "GENERATOR_NAME": "polar_inspect.generate.assemble",
    "GENERATOR_VERSION": "polar_inspect.generate.assemble",
    "BuildReport": "polar_inspect.generate.report",
    "build_dataset": "polar_inspect.generate.build",
}

__all__ = ["DEFAULT_SEED", "GENERATOR_NAME", "GENERATOR_VERSION", "BuildReport", "build_dataset"]


def __getattr__(name: str) -> Any:
    """Import an exported name from its module on first access (needs `[generate]`)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    require_extra("generate", "polar_inspect.generate")
    return getattr(import_module(_EXPORTS[name]), name)
