"""A tiny installed distribution on a temporary site folder, for testing entry-point plug-ins."""

from __future__ import annotations

import textwrap
from pathlib import Path


def install_plugin(
    site: Path, package: str, source: str, group: str, entries: dict[str, str]
) -> None:
    """Write `package` (its `__init__.py` is `source`) and a dist-info declaring `entries`
    (entry point name -> `module:object`) in `group`; put `site` on sys.path to install it."""
    folder = site / package
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {package.replace('_', '-')}\nVersion: 0.1\n",
        encoding="utf-8",
    )
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[{group}]\n{lines}", encoding="utf-8")
