"""Rebuild the example report shown in the README, offline, from the reference agents.

    python docs/report/make_example.py [--out FOLDER]

Runs six reference agents (`polar/...`, no API key) as one `inspect eval-set` over a small
grid of test records (2 domains x 5 policy levels x 5 attack strategies), writes the report
with `polar-report`, and copies its mean surface next to this script (the README's ranking
figure is redrawn by tools/readme_figure.py). The scores are those
of scripted agents, not of language models: the pictures show the report's format
(`polar/oracle` reads the scorer's targets, so it is marked ORACLE and its bars are hatched).
Without `--out` the logs and report go to a new temporary folder; an `--out` folder must be
empty or one this script made before.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from inspect_ai import eval_set
from inspect_ai.model import get_model

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from polar_inspect.axes import ATTACK_TYPES, POLICY_TYPES  # noqa: E402
from polar_inspect.report import build_report  # noqa: E402
from tests.conftest import make_record  # noqa: E402

AGENTS = [
    ("polar/oracle", {}),
    ("polar/refuse", {}),
    ("polar/leaky", {}),
    ("polar/mixed", {}),
    ("polar/mixed", {"leak_policies": "P3,P4", "leak_attacks": "none"}),
    ("polar/mixed", {"leak_policies": "none", "leak_attacks": "S1,S4"}),
]


def main() -> None:
    """Build the logs and the report; copy the mean surface into docs/report/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder for logs and report")
    args = parser.parse_args()
    if args.out is None:
        args.out = Path(tempfile.mkdtemp(prefix="polar_example_"))
    mark = args.out / ".polar-example"
    if args.out.exists() and any(args.out.iterdir()) and not mark.exists():
        raise SystemExit(f"--out {args.out}: not empty and not made by this script; give another")
    for made in ("logs", "report", "cache"):
        shutil.rmtree(args.out / made, ignore_errors=True)
    args.out.mkdir(parents=True, exist_ok=True)
    mark.write_text("made by docs/report/make_example.py\n", encoding="utf-8")
    os.environ.setdefault("POLAR_CACHE_DIR", str(args.out / "cache"))
    records = [
        make_record(i * 25 + j, domain=domain, policy=policy, attack=attack)
        for i, domain in enumerate(("medical", "finance"))
        for j, (policy, attack) in enumerate((p, a) for p in POLICY_TYPES for a in ATTACK_TYPES)
    ]
    data = args.out / "grid.json"
    data.write_text(json.dumps(records), encoding="utf-8")
    models = [get_model(name, **model_args) for name, model_args in AGENTS]
    ok, _ = eval_set(
        "polar_inspect/privacy",
        model=models,
        task_args={"data": str(data)},
        log_dir=str(args.out / "logs"),
        display="none",
    )
    if not ok:
        raise SystemExit("the eval set did not finish")
    result = build_report([args.out / "logs"], args.out / "report")
    here = Path(__file__).resolve().parent
    figure = "surface_mean.png"  # the ranking is the README example's (tools/readme_figure.py)
    shutil.copyfile(args.out / "report" / "figures" / figure, here / f"example_{figure}")
    print(f"report: {args.out / 'report' / result.html}; surface copied to {here}")


if __name__ == "__main__":
    main()
