#!/usr/bin/env python3
"""Relabel self-play games with GPS Shogi's quiescence scores, for `soppo-tools tune-eval`.

`soppo-tools selfplay` writes one game per row; its fifth column holds Soppo's searched score
before each move. This script replaces that column with GPS Shogi's (`gpsshell`'s `qsearch`)
score of the same positions, from the side to move's view, so that the evaluation can be
fitted to a second opinion from a stronger engine instead of to its own search. Only the
positions the tuner uses are sent to GPS (the position before each quiet move: a drop, or a
move that neither captures nor promotes); the others get a score beyond the tuner's
decided-score cut, so it skips them.

GPS's scale is not Soppo's (a rook in hand is about 2,000 of its units). Both scales are
measured the same way, as the logistic scale at which each engine's scores best predict the
games' results, and GPS's scores are multiplied by the ratio, so that a fitted evaluation keeps
Soppo's centipawns and the search's margins keep their meaning.

    python3 tools/scripts/label_with_gps.py games.tsv games-gps.tsv --jobs 2

Needs `cshogi` (pip) and `gpsshell` (Debian package `gpsshogi`).
"""

import argparse
import math
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import cshogi

SKIP = 100000  # beyond the tuner's decided-score cut
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def quiet_positions(row):
    """The game's positions before each quiet move: (ply, sfen, black to move)."""
    head, _, moves = row.split("\t")[0].partition(" moves ")
    board = cshogi.Board(head.removeprefix("sfen ").strip())
    out = []
    for ply, text in enumerate(moves.split()):
        move = board.move_from_usi(text)
        drop = cshogi.move_is_drop(move)
        quiet = drop or (board.piece(cshogi.move_to(move)) == cshogi.NONE and not cshogi.move_is_promotion(move))
        if quiet and not board.is_check():
            out.append((ply, board.sfen(), board.turn == cshogi.BLACK))
        board.push(move)
    return out


def gps_scores(sfens, binary):
    """GPS's qsearch score (Black's view) of every position, in order; None where it failed."""
    with tempfile.TemporaryFile("w+") as cmds:
        for sfen in sfens:
            cmds.write(f"position sfen {sfen}\nqsearch\n")
        cmds.seek(0)
        out = subprocess.run([binary], stdin=cmds, capture_output=True, text=True, check=False).stdout
    scores, current, ok = [], None, False
    lines = ANSI.sub("", out).splitlines()
    for i, line in enumerate(lines):
        if line.startswith("> position sfen"):
            ok = True
        elif "osl::" in line or "error" in line.lower():
            ok = False
        elif line.startswith("> qsearch"):
            value = lines[i + 1].strip() if i + 1 < len(lines) else ""
            current = int(value) if ok and re.fullmatch(r"-?\d+", value) else None
            scores.append(current)
    if len(scores) != len(sfens):
        sys.exit(f"gpsshell answered {len(scores)} of {len(sfens)} positions")
    return scores


def fit_scale(pairs):
    """The logistic scale K (per unit) at which scores best predict results (golden section)."""

    def loss(k):
        total = 0.0
        for score, result in pairs:
            p = min(max(1.0 / (1.0 + math.exp(-k * score)), 1e-9), 1 - 1e-9)
            total -= result * math.log(p) + (1 - result) * math.log(1 - p)
        return total / len(pairs)

    lo, hi = 1e-5, 1e-1
    for _ in range(80):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if loss(a) < loss(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def black_result(text):
    return {"black": 1.0, "white": 0.0, "draw": 0.5}.get(text.strip())


def write_labelled(path, rows, labels, factor):
    """The games again, each with a fifth column of scores: labels[(game, ply)] times factor,
    or SKIP where a ply has no label."""
    with open(path, "w") as out:
        for g, row in enumerate(rows):
            cols = row.split("\t")
            plies = len(cols[0].partition(" moves ")[2].split())
            column = [str(round(labels[(g, p)] * factor)) if (g, p) in labels else str(SKIP) for p in range(plies)]
            cols = (cols + [""] * 5)[:5] if len(cols) < 5 else cols
            cols[4] = ",".join(column)
            out.write("\t".join(cols) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games")
    ap.add_argument("out")
    ap.add_argument("--gps", default="/usr/games/gpsshell")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="only the first N games")
    args = ap.parse_args()

    rows = [l.rstrip("\n") for l in open(args.games) if l.strip() and not l.startswith("#")]
    if args.limit:
        rows = rows[: args.limit]
    games = [quiet_positions(r) for r in rows]
    flat = [(g, ply, sfen, black) for g, ps in enumerate(games) for ply, sfen, black in ps]
    print(f"{len(rows)} games, {len(flat)} quiet positions", file=sys.stderr)

    chunk = 5000
    batches = [flat[i : i + chunk] for i in range(0, len(flat), chunk)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda b: gps_scores([s for _, _, s, _ in b], args.gps), batches))
    scores = [s for batch in results for s in batch]

    # Both engines' scales from the same positions, side to move's view.
    ours, theirs = [], []
    labels = {}
    for (g, ply, _, black), gps in zip(flat, scores):
        if gps is None:
            continue
        cols = rows[g].split("\t")
        result = black_result(cols[2]) if len(cols) > 2 else None
        stm = gps if black else -gps
        labels[(g, ply)] = stm
        if result is None:
            continue
        r = result if black else 1 - result
        if len(cols) > 4:
            own = float(cols[4].split(",")[ply])
            if abs(own) < 3000:
                ours.append((own, r))
        if abs(stm) < 6000:
            theirs.append((stm, r))
    k_gps = fit_scale(theirs)
    k_ours = fit_scale(ours) if ours else k_gps
    ratio = k_gps / k_ours
    print(f"K: GPS {k_gps:.6f}, Soppo {k_ours:.6f}; GPS scores times {ratio:.4f}", file=sys.stderr)

    failed = sum(1 for s in scores if s is None)
    write_labelled(args.out, rows, labels, ratio)
    print(f"wrote {args.out}; {failed} positions GPS could not score", file=sys.stderr)


if __name__ == "__main__":
    main()
