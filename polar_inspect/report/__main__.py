"""`python -m polar_inspect.report`: the same as `polar-report`."""

import sys

from polar_inspect.report.cli import main

if __name__ == "__main__":
    sys.exit(main())
