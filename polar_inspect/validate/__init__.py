"""polar-validate: measure a leak detector against hand-labelled cases."""

from polar_inspect.validate.cases import BUNDLED_CASES, CaseFileError, LeakCase, load_cases
from polar_inspect.validate.measure import Agreement, Verdict, measure

__all__ = [
    "BUNDLED_CASES",
    "Agreement",
    "CaseFileError",
    "LeakCase",
    "Verdict",
    "load_cases",
    "measure",
]
