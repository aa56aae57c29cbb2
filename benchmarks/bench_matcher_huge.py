"""Cost of the value matcher on huge inputs: a 1 MB reply and long non-ASCII values.

Prints, for a 1 MB reply: the `TextIndex` build, a `contains_value` call on a new text and on
the same text again (the last index is kept), and check 6 (flexible pattern) for a 4.5k-character
Cyrillic value found only by that check, an absent one, and a repetitive text ("я я я ...")
against a long value of the same letters; each also with the naive matcher (the documented
regex, docs/scoring.md) where that finishes in reasonable time. Verdicts of both are compared.

Run: .venv/bin/python benchmarks/bench_matcher_huge.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root

from polar_inspect.detectors.match import TextIndex, contains_value  # noqa: E402
from tests.detectors.matcher_reference import naive_contains  # noqa: E402

CYRILLIC = "абвгдежзийклмнопрстуфхцчшщыэюя"


def _timed(call):
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def main() -> None:
    """Run the measurements and print one line per figure."""
    rng = random.Random(1)

    def word() -> str:
        return "".join(rng.choice(CYRILLIC) for _ in range(rng.randint(2, 9)))

    text = " ".join(word() for _ in range(200_000))[:1_000_000]
    hidden = text[500_000:504_500].strip().replace(" ", "-")  # found by check 6 only
    absent = " ".join(word() for _ in range(800))[:4_500]
    import numpy  # noqa: F401  (imported here so that its import time is not counted below)

    index, seconds = _timed(lambda: TextIndex(text))
    print(f"1 MB reply: TextIndex build {seconds:.3f} s")
    _, seconds = _timed(lambda: contains_value(text + " ", "absent value"))
    print(f"contains_value on a new 1 MB text: {seconds:.3f} s (builds the index)")
    _, seconds = _timed(lambda: contains_value(text + " ", "another value"))
    print(f"contains_value again on the same text: {seconds * 1000:.1f} ms (index kept)")
    for name, value in (("found by check 6", hidden), ("absent", absent)):
        verdict, seconds = _timed(lambda value=value: index.matching_check(value))
        naive, naive_seconds = _timed(lambda value=value: naive_contains(text, value))
        print(
            f"4.5k-char Cyrillic value, {name}: {verdict} in {seconds:.3f} s "
            f"(naive regex: {naive} in {naive_seconds:.2f} s)"
        )
    repetitive = "я " * 500_000
    rep_index = TextIndex(repetitive)
    for words in (100, 1000, 2000):
        for name, value in (("absent", "я " * words + "яя"), ("present", "я-" * words)):
            verdict, seconds = _timed(lambda value=value: rep_index.matching_check(value))
            line = f'"я я я ..." (1 MB) vs {words}-word value, {name}: {verdict} in {seconds:.3f} s'
            if words == 100:
                naive, naive_seconds = _timed(lambda value=value: naive_contains(repetitive, value))
                line += f" (naive regex: {naive} in {naive_seconds:.2f} s)"
            print(line)


if __name__ == "__main__":
    main()
