#!/usr/bin/env python3
"""The z bound for a running total that is checked more than once.

Usage:
    python3 tools/scripts/looks_bound.py 104 208 364 520 572 728 884 [--series 200000] [--alpha 0.025]

Simulates series of games between equal engines (each game a win or a loss with probability
1/2; draws ignored), computes z = (score - 0.5) / standard error at every look (the game counts
given), and prints how often z crosses 1.96 upwards at some look, and the bound that keeps
that to ALPHA (one-sided). Needs numpy.
"""
import argparse

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("looks", type=int, nargs="+", help="game counts at which the total was judged")
    parser.add_argument("--series", type=int, default=200000)
    parser.add_argument("--alpha", type=float, default=0.025)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    looks = sorted(args.looks)
    rng = np.random.default_rng(args.seed)
    wins = np.cumsum(rng.integers(0, 2, size=(args.series, looks[-1]), dtype=np.int8), axis=1, dtype=np.int32)
    zs = []
    for n in looks:
        score = wins[:, n - 1] / n
        se = np.sqrt(score * (1 - score) / n)
        zs.append((score - 0.5) / se)
    zmax = np.max(np.stack(zs), axis=0)
    print(f"{len(looks)} looks, {args.series} series: z > 1.96 at some look {100 * (zmax > 1.96).mean():.1f} %")
    print(f"bound for {100 * args.alpha:.1f} %: z = {np.quantile(zmax, 1 - args.alpha):.2f}")


if __name__ == "__main__":
    main()
