"""Times Inspect's metric passes in an `inspect eval` process (`bench_eval_1a_vs_1b.py
--time-metrics` puts this folder on `PYTHONPATH`; it does nothing unless
`POLAR_METRIC_PASSES` names the file to write).

Inspect computes a task's metrics over every score so far in `eval_results`: while the run goes
(the live display, at most every 0.9 s and ten times its own time) and once at the end (the
log's results, whatever the display). Each pass deep-copies every sample's score once per
metric key. This wraps that function (Inspect-internal: a benchmark's probe, never the
package's) and writes, at exit, each pass's sample count and CPU seconds as JSON.
"""

from __future__ import annotations

import atexit
import json
import os
import time
from typing import Any

_OUT = os.environ.get("POLAR_METRIC_PASSES")


def _install(out: str) -> None:
    import inspect_ai._eval.task.run as run

    passes: list[dict[str, float]] = []
    original = run.eval_results

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            samples = kwargs.get("samples", args[0] if args else 0)
            passes.append({"samples": samples, "cpu_s": time.process_time() - started})

    run.eval_results = timed

    def write() -> None:
        with open(out, "w") as file:
            json.dump(passes, file)

    atexit.register(write)


if _OUT:
    _install(_OUT)
