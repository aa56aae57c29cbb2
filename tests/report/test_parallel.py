"""The report's worker pool (`--jobs N`, figures only) returns results in their jobs' order."""

from __future__ import annotations

from polar_inspect.report.parallel import default_jobs, run_jobs, worker_pool


def test_a_pool_returns_results_in_order() -> None:
    with worker_pool(2) as pool:
        assert pool is not None
        assert run_jobs(pool, abs, [-3, 1, -2, 0]) == [3, 1, 2, 0]
    with worker_pool(1) as none:
        assert none is None
        assert run_jobs(none, abs, [-1]) == [1]
    assert 1 <= default_jobs() <= 4
