"""Names called from outside the package's own code, for the `dead` gate of .ci/gates.py.

Vulture reads this file with the package: a name used here counts as used there. Decorated
entry points (`@task`, `@scorer`, validators, `@builtin` ...) are declared in pyproject.toml
([tool.vulture] ignore_decorators), not here. One line per name, with who calls it.
"""

# ruff: noqa: B018
from polar_inspect import generate, report
from polar_inspect.prompts import TemplateKind

generate.__getattr__  # module attribute hook (PEP 562): `polar_inspect.generate.<name>`
report.__getattr__  # module attribute hook (PEP 562): `polar_inspect.report.<name>`
TemplateKind.model_post_init  # pydantic calls it after validation

from polar_inspect.report import cli as report_cli  # noqa: E402
from polar_inspect.report import sample_rows  # noqa: E402

report_cli.Lambdas.convert  # click calls a ParamType's convert
report_cli.Weight.convert  # click calls a ParamType's convert
report_cli.Jobs.convert  # click calls a ParamType's convert
sample_rows.full_sample_rows  # the reference path tests/report/test_read_parity.py checks against
