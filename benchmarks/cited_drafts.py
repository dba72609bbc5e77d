"""`paperscope cited` on drafts full of unclosed citations, timed at three sizes.

A draft with an unclosed `\\cite{` repeated (issue 46) made `cited` quadratic: x5,000
took 23 s, x10,000 90 s, x20,000 401 s. Each hostile text is read by
`index.citations.manuscripts.cited_keys` at 5,000, 10,000 and 20,000 repeats; the
ratio of each size's time to the 5,000 one's is printed beside it (linear: about 2 and
4; quadratic: 4 and 16). The torture test `tests/torture/test_manuscripts.py` holds the
work to a linear count of steps; this script measures the seconds.

    python benchmarks/cited_drafts.py
    python benchmarks/cited_drafts.py --sizes 5000 10000 20000 40000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from index.citations.manuscripts import cited_keys  # noqa: E402

# (syntax, what repeats): each an opener whose closer never comes.
DRAFTS = {
    "latex \\cite{": ("latex", "\\cite{"),
    "latex \\cite[": ("latex", "\\cite["),
    "latex \\cites{a}(": ("latex", "\\cites{a}("),
    "markdown <!--": ("markdown", "<!-- "),
    "org [cite:": ("org", "[cite:@a "),
    "org #+begin_src": ("org", "#+begin_src x\n"),
    "typst /*": ("typst", "/* "),
}


def cpu_seconds(text: str, syntax: str) -> float:
    started = time.process_time()
    cited_keys(text, syntax)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 10_000, 20_000])
    args = parser.parse_args()
    print(f"{'draft':<20}" + "".join(f"{f'x{n:,}':>18}" for n in args.sizes))
    for name, (syntax, unit) in DRAFTS.items():
        times = [cpu_seconds(unit * n, syntax) for n in args.sizes]
        base = max(times[0], 1e-6)
        cells = "".join(f"{f'{t:.3f} s ({t / base:.1f}x)':>18}" for t in times)
        print(f"{name:<20}{cells}")


if __name__ == "__main__":
    main()
