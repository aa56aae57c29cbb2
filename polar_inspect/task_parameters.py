"""A task variant takes `privacy`'s parameters through `parameters_of` (docs/architecture.md)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import docstring_parser

from polar_inspect.errors import UserInputError

F = TypeVar("F", bound=Callable[..., Any])


def args_doc(function: Callable[..., Any], names: Iterable[str]) -> str:
    """The `Args:` entries of `function`'s docstring for `names`, in docstring order."""
    wanted = set(names)
    entries = [
        f"    {param.arg_name}: " + (param.description or "").replace("\n", "\n        ")
        for param in docstring_parser.parse(inspect.getdoc(function) or "").params
        if param.arg_name.lstrip("*") in wanted
    ]
    return "Args:\n" + "\n".join(entries) if entries else ""


def _refuse_fixed(task_name: str, names: list[str]) -> None:
    if names:
        listed = ", ".join(names)
        raise UserInputError(
            f"Task parameter {listed}: the task {task_name} fixes {listed} itself, so the value "
            f"given would be ignored; leave it out, or run polar_inspect/privacy with "
            f"{' '.join(f'-T {name}=...' for name in names)}"
        )


def parameters_of(
    base: Callable[..., Any], *, drop: Iterable[str] = (), defaults: Mapping[str, Any] | None = None
) -> Callable[[F], F]:
    """Give a `**task_args` function `base`'s parameters minus `drop`, with other `defaults`;
    it is called with every kept parameter, defaults filled in (an unknown name: TypeError)."""
    dropped = set(drop)
    new_defaults = dict(defaults or {})
    base_signature = inspect.signature(base)
    if unknown := (dropped | set(new_defaults)) - set(base_signature.parameters):
        raise ValueError(f"{base.__name__} has no parameter(s) {sorted(unknown)}")
    kept = [
        p.replace(default=new_defaults.get(name, p.default))
        for name, p in base_signature.parameters.items()
        if name not in dropped
    ]
    signature = base_signature.replace(parameters=kept)
    variadic = [p.name for p in kept if p.kind is inspect.Parameter.VAR_KEYWORD]

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def with_defaults(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            for name in variadic:  # `**unknown` names are passed on as they came
                extra = arguments.pop(name, {})
                _refuse_fixed(function.__name__, sorted(dropped & set(extra)))
                arguments.update(extra)
            return function(**arguments)

        with_defaults.__signature__ = signature  # type: ignore[attr-defined]
        del with_defaults.__wrapped__  # Inspect reads the signature above, not the original's
        summary = inspect.getdoc(function) or ""
        doc = args_doc(base, (p.name for p in kept))
        with_defaults.__doc__ = f"{summary}\n\n{doc}" if doc else summary
        return with_defaults  # type: ignore[return-value]

    return decorate
