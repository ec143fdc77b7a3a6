#!/usr/bin/env python3
"""GPS Shogi's own search speed on one position, as its last `info ... nps` line reports it.

Usage:
    python3 tools/scripts/gps_speed.py [--engine /usr/games/gpsusi] [--depth 6] [--byoyomi 60000] [--runs 1]

One thread, no book, `LimitDepth` DEPTH, then `go btime 0 wtime 0 byoyomi BYOYOMI` on the
middle-game position of docs/BENCHMARKS.md (session 47). Prints per run the wall time to
`bestmove` and the last info line's time, nodes and nps. GPS's nps depends on how its search
ends (BENCHMARKS, session 48), so it is a rough reading, not a fixed-work speed measure.
"""
import argparse
import subprocess
import time

POSITION = "lnsg2bn1/2k3s1l/prpp1pgp1/4p1p1p/1p7/2PP1PP1P/PPBSP1N2/2G2S1R1/LN1K1G2L w P 34"


def field(words, name):
    return words[words.index(name) + 1] if name in words else "?"


def run(engine, depth, byoyomi):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(word):
        for line in proc.stdout:
            if line.startswith(word):
                return line
        raise RuntimeError(f"{engine} closed before {word}")

    send("usi")
    until("usiok")
    for name, value in (("Thread", 1), ("BookDepth", 0), ("LimitDepth", depth)):
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    send("usinewgame")
    send("position sfen " + POSITION)
    start = time.monotonic()
    send(f"go btime 0 wtime 0 byoyomi {byoyomi}")
    last = None
    for line in proc.stdout:
        if line.startswith("info") and " nps " in line:
            last = line.split()
        if line.startswith("bestmove"):
            break
    wall = (time.monotonic() - start) * 1000
    send("quit")
    proc.wait(timeout=10)
    if last is None:
        return f"{wall:.0f} ms to bestmove, no info line with nps"
    return (f"{wall:.0f} ms to bestmove; time {field(last, 'time')} nodes {field(last, 'nodes')} "
            f"nps {field(last, 'nps')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="/usr/games/gpsusi")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--byoyomi", type=int, default=60000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    for _ in range(args.runs):
        print(run(args.engine, args.depth, args.byoyomi), flush=True)


if __name__ == "__main__":
    main()
