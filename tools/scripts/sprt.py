#!/usr/bin/env python3
"""A sequential test (GSPRT) on the games of one or more `match.py` runs.

Usage:
    python3 tools/scripts/sprt.py DIR [DIR ...] [--engine Soppo] [--elo0 0] [--elo1 40]
        [--alpha 0.05] [--beta 0.05]

Reads each DIR/games.tsv written by `match.py` (two games an opening, one with each colour),
scores the games from the side of the engine whose name starts with --engine, and prints the
log-likelihood ratio of H1 (logistic Elo = elo1) against H0 (Elo = elo0) with Wald's bounds:
`accept H1`, `accept H0` or `continue`. The ratio is the Brownian approximation fishtest and
ShogiArena use (mean and variance of the score taken from the data). It is computed on the
pairs of games that share an opening (pentanomial: a pair scores 0, 0.5, 1, 1.5 or 2), because
the two games of an opening are not independent; the per-game (trinomial) figure is printed
beside it. The pairs' mean score and its 95 % interval (in Elo too) are printed
as well. There is no verdict before 13 pairs (one 26-game run): the variance comes from the
data, and a few pairs give none worth the name. Unlike a fixed-sample interval, the test may
be read after every run without inflating its error rates, provided elo0, elo1, alpha and beta
were fixed before the first game.
"""
import argparse
import csv
import math
import os
import sys


MIN_PAIRS = 13  # one 26-game match.py run


def elo_to_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def llr(counts, elo0, elo1):
    """GSPRT log-likelihood ratio for a histogram of scores spread evenly over [0, 1]."""
    total = sum(counts)
    if total == 0:
        return 0.0
    # An empty bin gets a tiny weight so that, e.g., all draws still have a variance.
    regular = [c if c > 0 else 1e-3 for c in counts]
    n = sum(regular)
    last = len(regular) - 1
    mean = sum(c / n * i / last for i, c in enumerate(regular))
    var = sum(c / n * (i / last - mean) ** 2 for i, c in enumerate(regular))
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (mean - (s0 + s1) / 2) * (s1 - s0) / var


def game_points(row, engine):
    """The engine's points in one game (1, 0.5 or 0), or None if it did not play it."""
    black = row["black"].startswith(engine)
    white = row["white"].startswith(engine)
    if black == white:
        return None
    result = row["result"]
    if result in ("1/2", "1/2-1/2"):  # match.py writes a draw as 1/2
        return 0.5
    if result not in ("1-0", "0-1"):
        return None
    return 1.0 if (result == "1-0") == black else 0.0


def read_dir(path, engine):
    """(trinomial [L, D, W], pentanomial [0, 0.5, 1, 1.5, 2], unpaired games) of one run."""
    tri = [0, 0, 0]
    penta = [0] * 5
    by_opening = {}
    with open(os.path.join(path, "games.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            points = game_points(row, engine)
            if points is None:
                continue
            tri[int(points * 2)] += 1
            by_opening.setdefault(row["opening"], []).append(points)
    unpaired = 0
    for games in by_opening.values():
        # An opening appears twice per run; a cut stopped after one game has no pair.
        while len(games) >= 2:
            penta[int((games.pop() + games.pop()) * 2)] += 1
        unpaired += len(games)
    return tri, penta, unpaired


def score_to_elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def interval(penta):
    """Mean score of the pairs (per game) and its 95 % normal interval, from the pair histogram."""
    n = sum(penta)
    points = [i / 4 for i in range(5)]
    mean = sum(c * p for c, p in zip(penta, points)) / n
    var = sum(c * (p - mean) ** 2 for c, p in zip(penta, points)) / n
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", help="match.py output directories")
    parser.add_argument("--engine", default="Soppo", help="name prefix of the engine scored")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=40.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    args = parser.parse_args()
    if args.elo1 <= args.elo0:
        sys.exit("elo1 must be greater than elo0")
    tri = [0, 0, 0]
    penta = [0] * 5
    unpaired = 0
    for d in args.dirs:
        t, p, u = read_dir(d, args.engine)
        tri = [a + b for a, b in zip(tri, t)]
        penta = [a + b for a, b in zip(penta, p)]
        unpaired += u
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    games = sum(tri)
    score = (tri[1] * 0.5 + tri[2]) / games if games else 0.0
    print(f"games {games}: W-D-L {tri[2]}-{tri[1]}-{tri[0]}, score {100 * score:.1f} %")
    print(f"pairs {sum(penta)} (0, 0.5, 1, 1.5, 2 points): {' '.join(map(str, penta))}"
          + (f"; {unpaired} games without their pair left out" if unpaired else ""))
    if sum(penta):
        mean, low, high = interval(penta)
        print(f"pairs estimate (95 %): score {100 * mean:.1f} % [{100 * low:.1f}, {100 * high:.1f}], "
              f"elo {score_to_elo(mean):+.0f} [{score_to_elo(low):+.0f}, {score_to_elo(high):+.0f}]")
    print(f"SPRT elo0 {args.elo0:g} elo1 {args.elo1:g} alpha {args.alpha:g} beta {args.beta:g}: "
          f"bounds [{lower:.2f}, {upper:.2f}]")
    l_penta = llr(penta, args.elo0, args.elo1)
    l_tri = llr(tri, args.elo0, args.elo1)
    # The ratio takes the variance from the data, which a handful of pairs cannot give: one
    # pair alone has none and would "accept" at once. No verdict before MIN_PAIRS pairs.
    if sum(penta) < MIN_PAIRS:
        verdict = f"continue (fewer than {MIN_PAIRS} pairs)"
    else:
        verdict = "accept H1" if l_penta >= upper else "accept H0" if l_penta <= lower else "continue"
    print(f"LLR {l_penta:.2f} (pairs; per game {l_tri:.2f}): {verdict}")


if __name__ == "__main__":
    main()
