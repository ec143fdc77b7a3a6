#!/usr/bin/env python3
"""SPSA tuning of the search's constants through self-play at fixed nodes.

Usage (from the repository root):
    cargo build --release -p soppo-engine --features tune     # the `Tune_*` options
    python3 tools/scripts/spsa.py target/release/soppo --pairs 4000 --nodes 10000 \\
        --openings-from ../shared/data/games_lishogi500.tsv --workers 2 --out spsa-run

The tuning build declares one `Tune_<name>` spin option per constant of
`engine/src/search/tunables.rs` (name, default and range come from the engine's `usi` answer).
Each step draws a random sign for every constant, plays a batch of game pairs (each opening
with both colours) between theta + c_k*delta and theta - c_k*delta through
`tools/scripts/match.py`, and moves theta by the result, as fishtest's SPSA does:

    c_k = c / k^0.101,   R_k = a / (A + k)^0.602 / c_k^2,   theta += R_k * c_k * (wins - losses) * delta

with k the game pairs played so far, A = 0.1 * pairs, c = c_end * pairs^0.101 and
a = r_end * c_end^2 * (A + pairs)^0.602. c_end is a constant's perturbation at the end (by default
a tenth of its default value, at least 1; --c-end NAME:VALUE overrides it) and r_end the learning
rate at the end (--r-end). --workers batches run side by side (one core each at fixed nodes).

OUT/theta.tsv gets a line per batch: pairs so far, the batch's W-D-L, then every constant's
current value; the last line is the result. Stop at any time: the last line stands.
"""

import argparse
import math
import os
import random
import re
import subprocess
import sys
import threading

from usi_engine import Engine

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(HERE, "match.py")
ALPHA, GAMMA = 0.602, 0.101


def declared_tunables(engine):
    """(name, default, min, max) of every `Tune_` spin option the engine declares."""
    e = Engine(engine)
    e.start(timeout=30)
    e.quit()
    specs = []
    for line in e.declared.values():
        m = re.match(r"option name Tune_(\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)", line)
        if m:
            specs.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))))
    return specs


def play(args, opts_plus, opts_minus, games, seed, out):
    cmd = [sys.executable, MATCH, args.engine, args.engine, "--games", str(games), "--nodes", str(args.nodes),
           "--options1", opts_plus, "--options2", opts_minus, "--name1", "plus", "--name2", "minus",
           "--seed", str(seed), "--out", out]
    if args.openings_from:
        cmd += ["--openings-from", args.openings_from]
    res = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"^match: (\d+)-(\d+)-(\d+)", res.stdout, re.M)
    if not m:
        raise RuntimeError(f"match failed:\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}")
    tail = res.stdout.splitlines()
    problems = [l for l in tail if re.search(r"illegal [1-9]|time losses [1-9]|crashes [1-9]|hangs [1-9]", l)]
    return tuple(int(x) for x in m.groups()), problems


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("engine", help="a build with the `tune` feature")
    p.add_argument("--pairs", type=int, default=4000, help="game pairs in all (sets the schedules)")
    p.add_argument("--batch", type=int, default=8, help="game pairs per step")
    p.add_argument("--nodes", type=int, default=10000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--r-end", type=float, default=0.002)
    p.add_argument("--c-end", action="append", default=[], metavar="NAME:VALUE")
    p.add_argument("--only", help="comma-separated constants to tune (default: all)")
    p.add_argument("--openings-from")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)
    args = p.parse_args()

    specs = declared_tunables(args.engine)
    if not specs:
        sys.exit("the engine declares no Tune_ options: build it with --features tune")
    if args.only:
        keep = set(args.only.split(","))
        specs = [s for s in specs if s[0] in keep]
    c_end = {name: max(1.0, abs(default) / 10) for name, default, _, _ in specs}
    for item in args.c_end:
        name, value = item.split(":")
        c_end[name] = float(value)
    n = args.pairs
    big_a = 0.1 * n
    theta = {name: float(default) for name, default, _, _ in specs}
    bounds = {name: (lo, hi) for name, _, lo, hi in specs}
    r_end_a = {name: args.r_end * c_end[name] ** 2 * (big_a + n) ** ALPHA for name in theta}
    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "theta.tsv"), "a")
    log.write("pairs\tW-D-L\t" + "\t".join(theta) + "\n")
    state = {"k": 0, "next_seed": args.seed * 100000, "w": 0, "d": 0, "l": 0}
    lock = threading.Lock()
    rng = random.Random(args.seed)

    def clamp(name, x):
        lo, hi = bounds[name]
        return min(max(x, lo), hi)

    def worker(index):
        while True:
            with lock:
                if state["k"] >= n:
                    return
                k = state["k"] + 1
                seed = state["next_seed"]
                state["next_seed"] += 1
                flips = {name: rng.choice((-1, 1)) for name in theta}
                ck = {name: c_end[name] * n ** GAMMA / k ** GAMMA for name in theta}
                plus = {name: round(clamp(name, theta[name] + ck[name] * flips[name])) for name in theta}
                minus = {name: round(clamp(name, theta[name] - ck[name] * flips[name])) for name in theta}
            fmt = lambda vals: ",".join(f"Tune_{name}:{v}" for name, v in vals.items())
            (w, d, l), problems = play(args, fmt(plus), fmt(minus), 2 * args.batch, seed,
                                       os.path.join(args.out, f"w{index}"))
            with lock:
                for name in theta:
                    a = r_end_a[name]
                    rk = a / (big_a + k) ** ALPHA / ck[name] ** 2
                    theta[name] = clamp(name, theta[name] + rk * ck[name] * (w - l) * flips[name])
                state["k"] += args.batch
                state["w"] += w
                state["d"] += d
                state["l"] += l
                log.write(f"{state['k']}\t{w}-{d}-{l}\t" + "\t".join(f"{theta[x]:.2f}" for x in theta) + "\n")
                log.flush()
                for line in problems:
                    print("problem:", line, flush=True)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("pairs", state["k"], "plus-minus W-D-L", f"{state['w']}-{state['d']}-{state['l']}")
    for name, default, _, _ in specs:
        print(f"{name}\t{default}\t{theta[name]:.2f}")


if __name__ == "__main__":
    main()
