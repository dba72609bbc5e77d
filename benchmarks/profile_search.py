"""cProfile of paperscope's engine over the benchmark's keystroke mix, nothing else.

    python benchmarks/profile_search.py --cache-dir DIR [--kind phrase] [--stage prefix-1-2]

Run `bench.py --cache-dir DIR` first: this reuses its library files and index, so the
profile shows searching only (no generation, no build). `--kind`/`--stage` narrow the mix
to the requests a bench report flagged as slow.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench  # noqa: E402
import queries  # noqa: E402
import synth  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", required=True, help="the folder bench.py used")
    parser.add_argument("--kind", help="only this kind of script (see queries.SCRIPTS)")
    parser.add_argument("--stage", help="only this stage: prefix-1-2, prefix-3+, complete")
    parser.add_argument("--query", help="only requests with exactly this text (all kinds)")
    parser.add_argument("--top", type=int, default=30, help="functions to list")
    parser.add_argument("--sort", default="tottime", help="pstats sort key")
    parser.add_argument("--engine", default=bench.ENGINE, help="engine factory, module:function")
    args = parser.parse_args(argv)
    bench.ENGINE = args.engine
    from index.facets.taxonomy import load_taxonomy

    workdir = Path(args.cache_dir)
    library = synth.read_library(bench._library_files(workdir))
    engine = bench.open_engine(library, load_taxonomy(), workdir / "cache", rebuild=False)
    mix = [
        t
        for t in queries.typed_requests()
        if (args.kind is None or t.kind == args.kind)
        and (args.stage is None or t.stage == args.stage)
        and (args.query is None or t.request.query == args.query)
    ]
    if args.query is not None:  # the keystrokes before it, unprofiled, as when typing
        for typed in queries.typed_requests():
            if typed in mix:
                break
            engine.search(typed.request)
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for typed in mix:
        engine.search(typed.request)
    profiler.disable()
    elapsed = time.perf_counter() - started
    print(
        f"{len(mix)} requests, {elapsed * 1000:.0f} ms under the profiler "
        f"({len(library.papers)} papers)"
    )
    pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
