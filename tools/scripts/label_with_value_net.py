#!/usr/bin/env python3
"""Relabel self-play games with a value network's judgement, for `soppo-tools train-net`.

Like `label_with_gps.py`, but the second opinion is the value head of miniosl's pretrained
policy/value network (`eval.onnx`, shipped in the `miniosl` wheel on PyPI; Team GPS's
BSD-style licence). Its value of a position, a win probability for the side to move that it
computes without searching, predicted the results of our own self-play games better than our
8,000-node search and than GPS Shogi's quiescence scores (docs/BENCHMARKS.md, session 33).
The network's outputs are used as data only; nothing of it enters Soppo.

Each position before a quiet move (a drop, or a move that neither captures nor promotes, the
mover not in check) gets the network's value v (−1..1, side to move's view), written as the
score atanh(v) · S in the fifth column. S makes both scales agree: it is the ratio of the
logistic scales at which atanh(v) and Soppo's own searched scores best predict the games'
results, so that a fitted evaluation keeps Soppo's centipawns. The other positions get a
score beyond the tuners' decided-score cut, so they are skipped. The network also sees the
last seven moves before each position (its history planes), taken from the game.

    python3 tools/scripts/label_with_value_net.py games.tsv games-vn.tsv --jobs 2

Needs `pip install -r tools/scripts/requirements-label.txt` (cshogi, miniosl, onnxruntime).
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

# miniosl's package imports torch at start-up; its C++ module alone is all this needs.
import minioslcc

from label_with_gps import black_result, fit_scale, quiet_positions, write_labelled

# Values are clipped here before atanh: beyond it the score is past any cut the tuners use.
CLIP = 0.9999


def default_model():
    """`eval.onnx` from the installed miniosl wheel (found without importing the package)."""
    import importlib.util

    spec = importlib.util.find_spec("miniosl")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("miniosl is not installed (pip install -r tools/scripts/requirements-label.txt)")
    return str(Path(next(iter(spec.submodule_search_locations))) / "pretrained" / "eval.onnx")


def features(row, plies):
    """The network's input planes of the positions before the given plies of one game."""
    head, _, moves = row.split("\t")[0].partition(" moves ")
    head = head.strip()
    usi = head if head == "startpos" else "sfen " + head.removeprefix("sfen ").strip()
    initial, current = minioslcc.usi_state(usi), minioslcc.usi_state(usi)
    wanted, out, history = set(plies), {}, minioslcc.MoveVector()
    for ply, text in enumerate(moves.split()):
        if ply in wanted:
            out[ply] = initial.export_features(history)
        move = current.to_move(text)
        history.append(move)
        current.make_move(move)
    return [out[p] for p in plies]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games")
    ap.add_argument("out")
    ap.add_argument("--model", default=None, help="ONNX policy/value network (default: miniosl's eval.onnx)")
    ap.add_argument("--jobs", type=int, default=2, help="inference threads")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--limit", type=int, default=0, help="only the first N games")
    ap.add_argument("--scale", type=float, default=0.0, help="S given (as printed by an earlier run) instead of fitted")
    args = ap.parse_args()

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = args.jobs
    session = ort.InferenceSession(args.model or default_model(), opts, providers=["CPUExecutionProvider"])

    rows = [l.rstrip("\n") for l in open(args.games) if l.strip() and not l.startswith("#")]
    if args.limit:
        rows = rows[: args.limit]
    games = [quiet_positions(r) for r in rows]
    total = sum(len(g) for g in games)
    print(f"{len(rows)} games, {total} quiet positions", file=sys.stderr)

    values = {}  # (game, ply) -> value, side to move's view
    pending, keys = [], []

    def flush():
        if pending:
            out = session.run(None, {"input": np.stack(pending).astype(np.float32)})[1][:, 0]
            values.update(zip(keys, out.tolist()))
            pending.clear()
            keys.clear()

    for g, (row, quiet) in enumerate(zip(rows, games)):
        plies = [ply for ply, _, _ in quiet]
        for ply, planes in zip(plies, features(row, plies)):
            pending.append(planes)
            keys.append((g, ply))
        if len(pending) >= args.batch:
            flush()
        if g % 500 == 499:
            print(f"  {g + 1} games, {len(values)} positions", file=sys.stderr)
    flush()

    # Both scales from the same positions, side to move's view.
    ours, theirs, labels = [], [], {}
    black_to_move = {(g, ply): black for g, quiet in enumerate(games) for ply, _, black in quiet}
    for (g, ply), v in values.items():
        logit = math.atanh(min(max(v, -CLIP), CLIP))
        labels[(g, ply)] = logit
        cols = rows[g].split("\t")
        result = black_result(cols[2]) if len(cols) > 2 else None
        if result is None:
            continue
        r = result if black_to_move[(g, ply)] else 1 - result
        theirs.append((logit * 1000, r))
        if len(cols) > 4:
            own = float(cols[4].split(",")[ply])
            if abs(own) < 3000:
                ours.append((own, r))
    if args.scale > 0:
        scale = args.scale
    else:
        k_net = fit_scale(theirs) * 1000
        k_ours = fit_scale(ours) if ours else 1 / 1000
        scale = k_net / k_ours
        print(f"K: network {k_net:.4f} per atanh unit, Soppo {k_ours:.6f} per cp", file=sys.stderr)
    print(f"scores = atanh(v) x {scale:.1f}", file=sys.stderr)

    write_labelled(args.out, rows, labels, scale)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
