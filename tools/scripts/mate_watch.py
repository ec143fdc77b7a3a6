#!/usr/bin/env python3
"""One `go mate` through a USI engine, watched: when each new line length is shown
(`info ... pv`; before the first proof these are the lines df-pn works on, not proofs), the
answer and its time, and the engine's largest resident memory (VmRSS, sampled every 0.2 s
from /proc while it solves; Linux only).

Usage:
    python3 tools/scripts/mate_watch.py BINARY "SFEN" [--ms 60000] [--threads 2] [--hash 1024]

Example (Microcosmos, as docs/RESULTS.md measures it):
    python3 tools/scripts/mate_watch.py target/release/soppo \\
        'g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1'
"""
import argparse
import threading
import time

from usi_engine import Engine, EngineDied, EngineTimeout

# Time past the `go mate` limit that the answer may take before the engine is given up on.
GRACE_S = 30.0


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("sfen")
    ap.add_argument("--ms", type=int, default=60000, help="go mate limit in ms (default 60000)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hash", type=int, default=1024, help="USI_Hash in MB (default 1024)")
    a = ap.parse_args()

    engine = Engine(a.binary)
    engine.start()
    engine.set_option("Threads", a.threads)
    engine.set_option("USI_Hash", a.hash)
    engine.isready()
    engine.send("position sfen " + a.sfen)

    peak = [0, 0]  # while solving; from the first second on
    solving = threading.Event()
    solving.set()

    def sample():
        while solving.is_set():
            rss = rss_kb(engine.pid)
            peak[0] = max(peak[0], rss)
            if time.time() - start >= 1.0:
                peak[1] = max(peak[1], rss)
            time.sleep(0.2)

    start = time.time()
    engine.send(f"go mate {a.ms}")
    sampler = threading.Thread(target=sample)
    sampler.start()
    shown = []  # (seconds, plies) for each new line length
    answer = None
    deadline = time.monotonic() + a.ms / 1000 + GRACE_S
    while answer is None:
        try:
            line = engine.readline(deadline)
        except (EngineDied, EngineTimeout):
            break
        words = line.split()
        if words[:1] == ["info"] and "pv" in words:
            n = len(words) - words.index("pv") - 1
            if not shown or shown[-1][1] != n:
                shown.append((time.time() - start, n))
        elif words[:1] == ["info"] and "string" in words:
            print(line.strip())
        elif words[:1] == ["checkmate"]:
            answer = words[1:]
    elapsed = time.time() - start
    solving.clear()
    sampler.join()
    engine.quit()

    print("lines shown (s: plies):", "; ".join(f"{t:.2f}: {n}" for t, n in shown))
    if answer is None:
        print("no answer")
    elif answer[:1] in (["nomate"], ["timeout"]):
        print(f"answer {answer[0]} after {elapsed:.2f} s")
    else:
        print(f"answer {len(answer)} plies after {elapsed:.2f} s")
    print(f"largest resident memory while solving: {peak[0]} kB; from the first second on: {peak[1]} kB")


if __name__ == "__main__":
    main()
