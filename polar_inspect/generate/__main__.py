"""`python -m polar_inspect.generate`: the same as `polar-generate`."""

import sys

from polar_inspect.generate.cli import main

sys.exit(main())
