"""Domain x policy and domain x attack tables against a plain aggregation of the same samples."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import pandas as pd

from polar_inspect.axes import DOMAINS
from polar_inspect.report.cross_section import CROSS_TABLES, cross_breakdown, cross_markdown


def _samples(seed: int = 3) -> pd.DataFrame:
    rng = random.Random(seed)
    rows = []
    for run in (0, 1):
        cells = itertools.product(
            DOMAINS, [f"P{i}" for i in range(1, 6)], [f"S{i}" for i in range(1, 6)]
        )
        for n, (domain, policy, attack) in enumerate(cells):
            for k in range(rng.randint(1, 3)):
                privacy = rng.choice([0.0, 0.25, 0.5, 1.0])
                utility = rng.choice([0.0, 1 / 3, 2 / 3, 1.0])
                rows.append(
                    {
                        "run": run,
                        "id": f"{domain}-{n}-{k}",
                        "domain": domain,
                        "policy": policy,
                        "attack": attack,
                        "privacy": privacy,
                        "utility": utility,
                        "overall": 0.5 * privacy + 0.5 * utility,
                    }
                )
    return pd.DataFrame(rows)


def _plain_means(samples: pd.DataFrame, row: str, column: str) -> dict[tuple, float]:
    """The aggregation as a plain loop: arithmetic mean over the samples of each cell."""
    sums: dict[tuple, list[float]] = defaultdict(list)
    for record in samples.to_dict("records"):
        for score in ("privacy", "utility", "overall"):
            sums[(record["run"], record[row], record[column], score)].append(record[score])
    return {key: sum(values) / len(values) for key, values in sums.items()}


def test_every_number_equals_a_plain_aggregation() -> None:
    samples = _samples()
    table = cross_breakdown(samples)
    assert len(table) == 2 * 2 * 10 * 5 * 3  # runs x tables x domains x levels x scores
    for row_axis, column_axis in CROSS_TABLES:
        expected = _plain_means(samples, row_axis, column_axis)
        part = table[table["table"] == f"{row_axis}_x_{column_axis}"]
        got = {(r.run, r.row, r.column, r.score): r.value for r in part.itertuples(index=False)}
        assert got.keys() == expected.keys()
        for key, value in expected.items():
            assert round(100 * got[key], 2) == round(100 * value, 2), key


def test_markdown_lists_domains_in_order() -> None:
    table = cross_breakdown(_samples())
    text = cross_markdown(table, 0, "domain_x_policy", "privacy")
    lines = text.splitlines()
    assert lines[0] == "| domain | P1 | P2 | P3 | P4 | P5 |"
    assert [line.split(" | ")[0].strip("| ") for line in lines[2:]] == list(DOMAINS)
    assert cross_markdown(table, 5, "domain_x_policy", "privacy") == ""
