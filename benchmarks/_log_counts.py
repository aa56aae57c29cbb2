"""Counting what an eval log holds, shared by the benchmark scripts."""

from __future__ import annotations

from inspect_ai.log import read_eval_log_samples


def count_samples_and_model_calls(log_location: str) -> tuple[int, int]:
    """The number of samples in a log and of model calls (model events) across them."""
    samples = calls = 0
    for sample in read_eval_log_samples(log_location, all_samples_required=False):
        samples += 1
        calls += sum(1 for event in sample.events if event.event == "model")
    return samples, calls
