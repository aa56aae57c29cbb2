"""An outside plug-in's or agent's code identity (docs/large-runs.md#run-identity)."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
from collections.abc import Iterable
from importlib.machinery import ModuleSpec
from importlib.metadata import packages_distributions, version
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

OWN_PACKAGE = "polar_inspect"


class CodeIdentity(BaseModel):
    """Where a plug-in's code comes from, and a digest of it."""

    model_config = ConfigDict(frozen=True)

    module: str  # the module that defines the plug-in (`my_pkg.attackers`)
    distribution: str | None = None  # the installed distribution providing its package
    version: str | None = None
    source_sha256: str  # of its package's sources (`source_sha256`)

    def describe(self) -> str:
        """E.g. `my-attackers 0.1 (my_pkg.attackers, source 1a2b3c4d5e6f)`."""
        dist = f"{self.distribution} {self.version} " if self.distribution else ""
        return f"{dist}({self.module}, source {self.source_sha256[:12]})"


def _source_of(spec: ModuleSpec) -> bytes:
    """A module's source bytes through its loader (a file, a zip member...); empty if none."""
    loader: Any = spec.loader
    origin = spec.origin
    if loader is None or origin in (None, "built-in", "frozen", "namespace"):
        return b""
    if (get_data := getattr(loader, "get_data", None)) is not None and origin is not None:
        with contextlib.suppress(OSError):
            return bytes(get_data(origin))
    get_source = getattr(loader, "get_source", None)
    source = get_source(spec.name) if get_source is not None else None
    return source.encode("utf-8") if isinstance(source, str) else b""


def _spec(module: str) -> ModuleSpec | None:
    try:  # a loaded module's own `__spec__` first
        return importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None


def source_sha256(module: str) -> str:
    """The sha256 of a plug-in's code: every `.py` file of its top-level package (the helper
    modules it imports too), else its module's source as its loader reads it (without one:
    of its name)."""
    top = _spec(module.partition(".")[0])
    folders = [Path(p) for p in (top.submodule_search_locations or [])] if top else []
    if any(folder.is_dir() for folder in folders):  # a package on disk
        return tree_sha256(folders, "*.py")
    spec = _spec(module)
    source = _source_of(spec) if spec is not None else b""
    return hashlib.sha256(source or module.encode("utf-8")).hexdigest()


def tree_sha256(folders: Iterable[Path], pattern: str = "*", salt: bytes = b"") -> str:
    """The sha256 of `salt` and of every file below `folders` matching `pattern` (bytecode
    caches aside), each with its path relative to its folder, in path order."""
    digest = hashlib.sha256(salt)
    found = sorted((f.relative_to(d).as_posix(), f) for d in folders for f in d.rglob(pattern))
    for name, path in found:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _distribution(module: str) -> tuple[str | None, str | None]:
    if not (names := packages_distributions().get(module.partition(".")[0], [])):
        return None, None
    name = sorted(names)[0]
    try:
        return name, version(name)
    except Exception:  # a distribution without a version: named, not versioned
        return name, None


def code_identity(
    obj: object, distribution: tuple[str, str | None] | None = None
) -> CodeIdentity | None:
    """The code identity of a class or function (None: polar_inspect's own, or a built-in);
    `distribution` (name, version): the one whose entry point gave it, when known."""
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str) or module.partition(".")[0] in (OWN_PACKAGE, "builtins"):
        return None  # the package's own code is versioned with the package
    name, dist_version = distribution or _distribution(module)
    return CodeIdentity(
        module=module, distribution=name, version=dist_version, source_sha256=source_sha256(module)
    )
