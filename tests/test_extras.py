"""The light install: the eval imports no extra, and a missing extra is named, not traced."""

from __future__ import annotations

import subprocess
import sys

import pytest

EXTRA_ONLY = ("matplotlib", "pandas", "faker")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_running_an_eval_imports_no_extra() -> None:
    code = (
        "import sys\n"
        "import polar_inspect._registry\n"
        "from polar_inspect.tasks import privacy_mini\n"
        "from polar_inspect.scorers.parity import polar_scorer\n"
        "task = privacy_mini()\n"
        "polar_scorer()\n"
        "print(len(task.dataset))\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {EXTRA_ONLY!r}))\n"
        "print(sorted(m for m in sys.modules if m.startswith(('polar_inspect.report',"
        " 'polar_inspect.generate'))))\n"
    )
    result = _python(code)
    assert result.returncode == 0, result.stderr
    count, extras, parts = result.stdout.splitlines()[-3:]
    assert count == "250"
    assert extras == "[]"
    assert parts == "[]"


@pytest.mark.parametrize(
    ("entry", "hidden", "extra"),
    [("report_main", "pandas", "report"), ("generate_main", "faker", "generate")],
)
def test_a_command_without_its_extra_names_it(entry: str, hidden: str, extra: str) -> None:
    code = (
        "import sys\n"
        f"sys.modules[{hidden!r}] = None  # as if not installed\n"
        f"from polar_inspect.extras import {entry}\n"
        f"sys.exit({entry}(['--help']))\n"
    )
    result = _python(code)
    assert result.returncode == 2
    assert f"needs the [{extra}] extra (missing: {hidden})" in result.stderr
    assert f"pip install 'polar_inspect[{extra}]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_library_without_its_extra_raises_a_named_import_error() -> None:
    code = (
        "import sys\n"
        "sys.modules['matplotlib'] = None\n"
        "import polar_inspect.report as report\n"
        "try:\n"
        "    report.build_report\n"
        "except ImportError as err:\n"
        "    print(type(err).__name__, err)\n"
    )
    result = _python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("MissingExtraError polar_inspect.report needs the [report]")


def test_commands_run_when_the_extras_are_installed() -> None:
    from polar_inspect.extras import generate_main, report_main

    with pytest.raises(SystemExit) as exit_info:
        report_main(["--help"])
    assert exit_info.value.code == 0
    with pytest.raises(SystemExit) as exit_info:
        generate_main(["--help"])
    assert exit_info.value.code == 0
