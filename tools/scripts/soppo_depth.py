#!/usr/bin/env python3
"""SS-Cut / DS-Cut at fixed depth: nodes and best moves against SoppoCut Off.

Usage: python3 tools/scripts/soppo_depth.py BINARY GAMES_TSV N DEPTH [DISTANCE] [--before P] [--full-depth]
Takes from each game of GAMES_TSV (`startpos moves ...` in the first column) the position
P plies before its end (default 12), keeps the first N, and searches each with `go depth DEPTH`
under SoppoCut Off, Static and Dynamic (USI_Hash 16, `usinewgame` before each search).
DISTANCE sets SoppoDistance, the fixed distance of Static (default: the engine's, 5).

Many positions near the end of a game hold a forced mate that the search finds at once; it
then stops long before DEPTH, and such positions say nothing about pruning. The report counts
the searches that reached DEPTH; with --full-depth only the positions whose Off search reached
it are compared.
"""
import argparse
import time

from usi_engine import Engine


def positions(path, n, before):
    out = []
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        moves = line.split("\t")[0].split()
        if moves[:2] != ["startpos", "moves"]:
            continue
        plies = moves[2:]
        if len(plies) < 28 + before:
            continue
        out.append("startpos moves " + " ".join(plies[: len(plies) - before]))
        if len(out) == n:
            break
    return out


def search_all(binary, mode, poss, depth, distance, timeout):
    """(nodes, best move, depth reached) of each position under SoppoCut `mode`, and the time."""
    engine = Engine(binary)
    engine.start()
    engine.set_option("USI_Hash", 16)
    engine.set_option("SoppoCut", mode)
    if distance is not None:
        engine.set_option("SoppoDistance", distance)
    engine.isready()
    results = []
    t0 = time.time()
    for pos in poss:
        engine.send("usinewgame")
        seen = {"nodes": 0, "depth": 0}

        def info(line):
            t = line.split()
            if t[:1] == ["info"] and "nodes" in t:
                seen["nodes"] = int(t[t.index("nodes") + 1])
            if t[:1] == ["info"] and "depth" in t:
                seen["depth"] = max(seen["depth"], int(t[t.index("depth") + 1]))

        best, _, _, _ = engine.go("position " + pos, f"go depth {depth}", time.monotonic() + timeout, info)
        results.append((seen["nodes"], best, seen["depth"]))
    engine.quit()
    return results, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("games")
    ap.add_argument("n", type=int)
    ap.add_argument("depth", type=int)
    ap.add_argument("distance", type=int, nargs="?", help="SoppoDistance (default: the engine's)")
    ap.add_argument("--before", type=int, default=12, help="plies before the end of each game (default 12)")
    ap.add_argument("--full-depth", action="store_true", help="compare only positions whose Off search reached DEPTH")
    ap.add_argument("--timeout", type=float, default=600, help="s a search may take (default 600)")
    a = ap.parse_args()

    poss = positions(a.games, a.n, a.before)
    base, tb = search_all(a.binary, "Off", poss, a.depth, a.distance, a.timeout)
    full = sum(1 for _, _, r in base if r >= a.depth)
    print(f"Off: {sum(x for x, _, _ in base)} nodes, {tb:.1f} s, {len(poss)} positions {a.before} plies before the end, "
          f"depth {a.depth}; {full} searches reached it")
    keep = [i for i, (_, _, r) in enumerate(base) if r >= a.depth or not a.full_depth]
    if a.full_depth:
        print(f"compared: the {len(keep)} positions whose Off search reached depth {a.depth}")
    base_nodes = sum(base[i][0] for i in keep)
    for mode in ("Static", "Dynamic"):
        res, t = search_all(a.binary, mode, poss, a.depth, a.distance, a.timeout)
        nodes = sum(res[i][0] for i in keep)
        same = sum(1 for i in keep if base[i][1] == res[i][1])
        red = 100.0 * (1 - nodes / max(1, base_nodes))
        print(f"{mode}: {nodes} nodes ({red:.1f}% fewer), {t:.1f} s, same best move {same}/{len(keep)} "
              f"({100.0 * same / max(1, len(keep)):.1f}%)")


if __name__ == "__main__":
    main()
