"""Scoring the tagger against hand-made labels: per-value confusion and micro-averaged F1.

Shared by the seed and dev-set tests so both report the same figures the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

Case = tuple[Sequence[str], Sequence[str]]  # (expected ids, ids the tagger gave)


def confusion(cases: Iterable[Case]) -> dict[str, Counter[str]]:
    """For each value: true positives, false positives and false negatives over all cases."""
    per_value: dict[str, Counter[str]] = {}
    for expected_ids, got_ids in cases:
        expected, got = set(expected_ids), set(got_ids)
        for value in got | expected:
            counts = per_value.setdefault(value, Counter())
            counts["tp" if value in got & expected else "fp" if value in got else "fn"] += 1
    return per_value


def micro_f1(per_value: dict[str, Counter[str]]) -> float:
    """F1 over every (paper, value) decision at once, so frequent values weigh more."""
    tp = sum(c["tp"] for c in per_value.values())
    fp = sum(c["fp"] for c in per_value.values())
    fn = sum(c["fn"] for c in per_value.values())
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def report(title: str, per_value: dict[str, Counter[str]]) -> str:
    """The figures as `pytest -s` prints them: the F1, then one line per value."""
    lines = [f"{title}: micro F1 {micro_f1(per_value):.3f}"]
    for value in sorted(per_value):
        c = per_value[value]
        lines.append(f"  {value:20} tp={c['tp']:3} fp={c['fp']:3} fn={c['fn']:3}")
    return "\n".join(lines)
