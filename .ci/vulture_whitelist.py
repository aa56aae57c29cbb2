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

import click  # noqa: E402
import yaml  # noqa: E402

click.ParamType.convert  # click calls it on every option of a custom type (report, cost CLIs)
yaml.SafeLoader.construct_mapping  # PyYAML calls it; cost/sheet.py's strict loader overrides it

from polar_inspect.data import mini  # noqa: E402
from polar_inspect.typed_store import FastStoreModel  # noqa: E402

mini.expected_cells  # tests/generate/test_mini.py holds the mini pick against the whole grid
FastStoreModel._coerce_value  # overrides Inspect's StoreModel hook, which Inspect calls

from polar_inspect.dialogue import state  # noqa: E402

state.read_sample_record  # public: how users read a sample's record from a log (docs/results.md)

from polar_inspect.process_tuning import CollectorTuning  # noqa: E402

CollectorTuning.on_task_start  # Inspect calls its registered hooks (inspect_ai.hooks.Hooks)
CollectorTuning.on_task_end
CollectorTuning.on_run_start
CollectorTuning.on_run_end
