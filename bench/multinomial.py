"""One sampled token per row: `torch.multinomial(probs, 1)` against `playground.fastpath.multinomial.draw`.

    python bench/multinomial.py                 # 4 rows (a training group's block) and 32 (a held-out eval batch)
    python bench/multinomial.py --vocab 32000

Both draw from generators seeded alike; the script checks that they pick the same tokens, then prints one JSON line
per shape with the time of one call. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import cpu_name  # noqa: E402


def per_call(fn, calls: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vocab", type=int, default=49_152, help="SmolLM2's vocabulary by default")
    parser.add_argument("--rows", type=int, nargs="+", default=[4, 32])
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()

    import torch

    from playground.fastpath import multinomial

    for rows in args.rows:
        probs = torch.softmax(torch.randn(rows, args.vocab, generator=torch.Generator().manual_seed(0)) / 0.9, -1)
        ours, theirs = torch.Generator().manual_seed(1), torch.Generator().manual_seed(1)
        same = all(
            torch.equal(multinomial.draw(probs, ours), torch.multinomial(probs, 1, generator=theirs))
            for _ in range(50)
        )
        torch_s = per_call(lambda p=probs, g=theirs: torch.multinomial(p, 1, generator=g), args.calls)
        draw_s = per_call(lambda p=probs, g=ours: multinomial.draw(p, g), args.calls)
        print(
            json.dumps(
                {
                    "bench": "multinomial",
                    "rows": rows,
                    "vocab": args.vocab,
                    "torch_multinomial_ms": round(torch_s * 1e3, 3),
                    "draw_ms": round(draw_s * 1e3, 3),
                    "speedup": round(torch_s / draw_s, 2),
                    "same_tokens": same,
                    "fast_path": multinomial.exact(),
                    "threads": torch.get_num_threads(),
                    "cpu": cpu_name(),
                    "load_avg_1min": round(os.getloadavg()[0], 2),
                }
            )
        )


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
