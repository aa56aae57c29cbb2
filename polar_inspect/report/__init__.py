"""Reports from polar_inspect logs (`polar-report`); names are imported on first use, so that
workers pay only for what they import and a missing `[report]` extra is named.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from polar_inspect.extras import require_extra

if TYPE_CHECKING:
    from polar_inspect.report.build import NoUsableLogsError, ReportResult, build_report
    from polar_inspect.report.inventory import ReportInputError

_EXPORTS = {
    "NoUsableLogsError": "polar_inspect.report.build",
    "ReportResult": "polar_inspect.report.build",
    "build_report": "polar_inspect.report.build",
    "ReportInputError": "polar_inspect.report.inventory",
}

__all__ = ["NoUsableLogsError", "ReportInputError", "ReportResult", "build_report"]


def __getattr__(name: str) -> Any:
    """Import an exported name from its module on first access."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    require_extra("report", "polar_inspect.report")
    return getattr(import_module(_EXPORTS[name]), name)
