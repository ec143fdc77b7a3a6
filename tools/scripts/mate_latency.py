"""How soon `go mate` answers on Microcosmos: when the first `info ... pv` comes and when
`checkmate timeout` comes for `go mate 1000` and `go mate 3000`, and how soon `stop` is answered
after 1.5 s of `go mate infinite`; with Threads 1 and 2, USI_Hash 1024 (docs/RESULTS.md,
"Response times").

Usage: python3 tools/scripts/mate_latency.py BINARY
"""

import sys
import time

from usi_engine import Engine

MICROCOSMOS = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"


def until_checkmate(engine, start, timeout=60.0):
    """Reads to the `checkmate` line; returns it and the seconds to the first `pv`, if any."""
    first_pv = None
    for line in iter(lambda: engine.readline(start + timeout), None):
        if " pv " in line and first_pv is None:
            first_pv = time.monotonic() - start
        if line.startswith("checkmate"):
            return line, first_pv
    raise AssertionError("unreachable")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for threads in (1, 2):
        engine = Engine(sys.argv[1])
        engine.start()
        engine.set_option("Threads", threads)
        engine.set_option("USI_Hash", 1024)
        engine.isready()
        engine.send("position sfen " + MICROCOSMOS)
        for limit in (1000, 3000):
            start = time.monotonic()
            engine.send("go mate %d" % limit)
            line, first_pv = until_checkmate(engine, start)
            took = (time.monotonic() - start) * 1000
            pv = "%.0f ms" % (first_pv * 1000) if first_pv is not None else "none"
            print("threads %d go mate %d: first pv %s, answer %.0f ms: %s" % (threads, limit, pv, took, line[:40]))
        engine.send("go mate infinite")
        time.sleep(1.5)
        start = time.monotonic()
        engine.send("stop")
        until_checkmate(engine, start)
        print("threads %d stop after 1.5 s: answered %.0f ms later" % (threads, (time.monotonic() - start) * 1000))
        engine.quit()


if __name__ == "__main__":
    main()
