"""Optional extras: which one a command needs, named in one line if missing (docs/install.md)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib import import_module

import click

#: The modules each extra provides (import names), checked before a command runs.
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "generate": ("faker",),
    "report": ("jinja2", "matplotlib", "pandas", "pyarrow"),  # pyarrow: inspect_ai.analysis
}


def _help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:  # exit 0 also outside click's standalone mode
        click.echo(ctx.get_help())
        raise SystemExit(0)


#: `-h/--help` for a command whose `main` runs click outside its standalone mode.
help_option = click.help_option("-h", "--help", callback=_help)


class MissingExtraError(ImportError):
    """A command needs an optional extra that is not installed."""


def require_extra(extra: str, what: str) -> None:
    """Raise MissingExtraError naming the extra and how to install it, if any part is missing."""
    missing = [name for name in EXTRA_MODULES[extra] if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingExtraError(
            f"{what} needs the [{extra}] extra (missing: {', '.join(missing)}). Install it "
            f"with: pip install 'polar_inspect[{extra}]' (in a clone: pip install -e '.[{extra}]')"
        )


def _run(extra: str, what: str, target: str, argv: Sequence[str] | None) -> int:
    try:
        require_extra(extra, what)
    except MissingExtraError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    module, function = target.split(":")
    return int(getattr(import_module(module), function)(argv))


def generate_main(argv: Sequence[str] | None = None) -> int:
    """`polar-generate`: the dataset generator's command line (needs `[generate]`)."""
    return _run("generate", "polar-generate", "polar_inspect.generate.cli:main", argv)


def report_main(argv: Sequence[str] | None = None) -> int:
    """`polar-report`: tables and figures from logs (needs `[report]`)."""
    return _run("report", "polar-report", "polar_inspect.report.cli:main", argv)
