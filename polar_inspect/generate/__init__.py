"""Build POLAR-Bench-style datasets offline: symbolic records, rendering, checks, repair.

`build_dataset(...)` builds records with the template renderer and returns them with a
checks report; `polar-generate` (`polar_inspect.generate.cli:main`) is the command line.
"""

from polar_inspect.generate.assemble import GENERATOR_NAME, GENERATOR_VERSION
from polar_inspect.generate.build import DEFAULT_SEED, build_dataset
from polar_inspect.generate.report import BuildReport

__all__ = [
    "DEFAULT_SEED",
    "GENERATOR_NAME",
    "GENERATOR_VERSION",
    "BuildReport",
    "build_dataset",
]
