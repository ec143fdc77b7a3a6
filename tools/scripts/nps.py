#!/usr/bin/env python3
"""Search speed of two USI engines side by side: nodes per second on the same positions.

Usage:
    python3 tools/scripts/nps.py ENGINE1 ENGINE2 [--options1 K:V,...] [--options2 K:V,...]
        [--positions FILE] [--count 4] [--movetime 5000] [--rounds 3]

Each round has each engine search each position for --movetime ms (`go movetime`, one position
at a time, the engines taking turns so that a change in the machine's load falls on both), from
a new game (`usinewgame`, so the table holds nothing of the position before). An engine's nps for
a search is the `nps` of its last `info` line that has one (the engine's own count: engines
count nodes differently, so the ratio compares speed per node as each counts it). The report
gives, per engine and position, the median over the rounds, then the median over all searches
and the ratio ENGINE1 / ENGINE2; last, the summed nodes over the summed time of every
search's last `info` line, and their ratio.

Positions: the first --count SFENs of --positions (default `../shared/data/bench_positions.tsv`
beside the checkout, whose first four are YaneuraOu's bench positions), one a line, the SFEN
before the first tab. Defaults sent to the engines: `Threads 1` and `USI_Hash 64` (plus, for
YaneuraOu, what `../shared/opponents/README.md` gives for fair matches: pass them with
--options2).

Example (from the repository root; YaneuraOu KP256 with the SuishoPetite net):

    python3 tools/scripts/nps.py target/release/soppo ../shared/opponents/yaneuraou-kp256 \\
        --count 8 --movetime 3000 --rounds 1 \\
        --options1 "EvalDir:$(realpath ../shared/opponents/eval-suishopetite)" \\
        --options2 "BookFile:no_book,EvalDir:$(realpath ../shared/opponents/eval-suishopetite)"
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import Engine  # noqa: E402


def parse_options(text):
    out = []
    for item in filter(None, (text or "").split(",")):
        key, _, value = item.partition(":")
        out.append((key, value))
    return out


def read_positions(path, count):
    sfens = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            sfen = line.split("\t")[0].strip()
            if sfen and not sfen.startswith("#"):
                sfens.append(sfen)
            if len(sfens) == count:
                break
    return sfens


def search_nps(engine, sfen, movetime):
    """The nps, nodes and time (ms) of the search's last `info` line that has an nps."""
    last = {}

    def each(line):
        words = line.split()
        if words[:1] == ["info"] and "nps" in words:
            last["nps"] = int(words[words.index("nps") + 1])
            for key in ("nodes", "time"):
                if key in words:
                    last[key] = int(words[words.index(key) + 1])

    engine.send("usinewgame")
    engine.isready()
    engine.go("position sfen " + sfen, "go movetime %d" % movetime, each=each)
    if "nps" not in last:
        return None
    return last["nps"], last.get("nodes", 0), last.get("time", 0)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_positions = os.path.join(here, "..", "..", "..", "shared", "data", "bench_positions.tsv")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine1")
    ap.add_argument("engine2")
    ap.add_argument("--options1", default="")
    ap.add_argument("--options2", default="")
    ap.add_argument("--positions", default=default_positions)
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--movetime", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not os.path.exists(args.positions):
        sys.exit("nps.py: %s not found (the shared data beside the checkout; --positions FILE)" % args.positions)
    sfens = read_positions(args.positions, args.count)
    engines = []
    for cmd, options in ((args.engine1, args.options1), (args.engine2, args.options2)):
        e = Engine(cmd)
        e.start()
        for key, value in [("Threads", "1"), ("USI_Hash", "64")] + parse_options(options):
            if key in e.declared:
                e.set_option(key, value)
            else:
                print("nps.py: %s does not declare %s; skipped" % (e.id_name, key), file=sys.stderr)
        e.isready()
        engines.append(e)
    nps = [[[] for _ in sfens] for _ in engines]
    summed = [[0, 0] for _ in engines]
    for r in range(args.rounds):
        for p, sfen in enumerate(sfens):
            for i, e in enumerate(engines):
                found = search_nps(e, sfen, args.movetime)
                if found is None:
                    sys.exit("nps.py: %s gave no nps on position %d" % (e.id_name, p + 1))
                value, nodes, ms = found
                nps[i][p].append(value)
                summed[i][0] += nodes
                summed[i][1] += ms
        print("round %d of %d done" % (r + 1, args.rounds), file=sys.stderr)
    for e in engines:
        e.quit()
    names = [e.id_name for e in engines]
    print("position  " + "  ".join("%24s" % n[:24] for n in names) + "   ratio")
    for p in range(len(sfens)):
        a, b = (statistics.median(nps[i][p]) for i in range(2))
        print("%8d  %24.0f  %24.0f   %.2f" % (p + 1, a, b, a / b))
    totals = [statistics.median([v for row in nps[i] for v in row]) for i in range(2)]
    print("median    %24.0f  %24.0f   %.2f" % (totals[0], totals[1], totals[0] / totals[1]))
    print("nps: %s %.0f, %s %.0f, ratio %.2f (%d positions x %d rounds, movetime %d ms)" % (
        names[0], totals[0], names[1], totals[1], totals[0] / totals[1], len(sfens), args.rounds,
        args.movetime))
    if all(t > 0 for _, t in summed):
        sums = [n * 1000.0 / t for n, t in summed]
        print("summed: %s %.0f, %s %.0f, ratio %.2f (nodes / time of each search's last info)" % (
            names[0], sums[0], names[1], sums[1], sums[0] / sums[1]))


if __name__ == "__main__":
    main()
