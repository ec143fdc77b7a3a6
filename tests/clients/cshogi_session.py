"""A scripted USI session through cshogi.usi.Engine, the way cshogi-based tools drive engines.

cshogi sends `go byoyomi N` without btime/wtime for byoyomi-only clocks, a bare `go` for a
match without time limits, bare `gameover`, and blocks without a timeout on
`bestmove`/`checkmate`: a watchdog turns a hang into a failure.
"""

import time

from cshogi.usi import Engine, InfoListener

import common
from common import check


def run():
    path = common.engine_path()
    common.watchdog(120)
    log = []
    engine = Engine(path, connect=False)
    engine.connect(listener=log.append)
    check(engine.name and engine.name.startswith("Soppo"), "id name: %r" % engine.name)
    lines = engine.usi(listener=log.append)
    for name in ("USI_Hash", "USI_Ponder", "Threads", "MultiPV"):
        check(any(l.startswith("option name %s " % name) for l in lines), "option %s not declared" % name)
    engine.setoption("USI_Hash", 16)
    engine.setoption("USI_Ponder", "false")
    engine.isready(listener=log.append)
    engine.usinewgame()
    print("connected to %s; %d option lines" % (engine.name, sum(l.startswith("option") for l in lines)))

    cases = [
        ([], dict(byoyomi=1000)),  # `go byoyomi 1000`, no btime/wtime
        (["7g7f"], dict(byoyomi=500)),
        (["7g7f", "3c3d"], dict(btime=1000, wtime=1000, byoyomi=500)),
        (["2g2f"], dict(btime=2000, wtime=2000, binc=100, winc=100)),
        (["2g2f", "8c8d"], dict(nodes=5000)),
        (["2g2f", "8c8d", "2f2e"], dict()),  # a bare `go`: answered on its own, quickly
    ]
    for moves, go in cases:
        engine.position(moves)
        listener = InfoListener(listner=log.append)
        start = time.monotonic()
        bestmove, ponder = engine.go(listener=listener.listen(), **go)
        took = time.monotonic() - start
        if not go:
            check(took < 5, "a bare go took %.2f s" % took)
        board = common.board_at(None, moves)
        check(common.is_legal(board, bestmove), "go %s after %s: illegal bestmove %s" % (go, moves, bestmove))
        if ponder:
            board.push_usi(bestmove)
            check(common.is_legal(board, ponder), "illegal ponder move %s" % ponder)
        # cshogi attaches the last info whose pv starts with the bestmove.
        check(listener.pv and listener.pv[0] == bestmove, "no `info ... pv %s` before bestmove" % bestmove)
        check(listener.score is not None, "no score in the final info")
        print("go %-45s -> bestmove %-6s ponder %-6s score %6s  (%.2f s)" % (go, bestmove, ponder, listener.score, took))

    for sfen, limit, want in [
        (common.MATE3, 1000, "mate"),
        (common.TSUME5, 5000, "mate"),
        (common.MATE3, None, "mate"),  # go mate infinite: answered once the mate is proven
        (common.NO_CHECKS, 1000, "nomate"),
    ]:
        engine.position(sfen="sfen " + sfen)
        result = engine.go_mate(byoyomi=limit, listener=log.append)
        if want == "nomate":
            check(result == "nomate", "go mate on %s: %r, expected nomate" % (sfen, result))
        else:
            check(result not in ("nomate", "timeout", "notimplemented", ""), "go mate on %s: %r" % (sfen, result))
            common.check_mate_line(sfen, result.split())
        print("go mate %-8s on %s -> checkmate %s" % (limit or "infinite", sfen, result))

    engine.gameover()
    start = time.monotonic()
    engine.quit()  # waits for the process without a timeout (the watchdog covers it)
    print("gameover + quit: exited in %.2f s" % (time.monotonic() - start))
    check(not any(l.startswith("error") for l in log), "a line starts with `error`")
    print("%d lines exchanged, none starting with `error`" % len(log))
    print("cshogi session: OK")


if __name__ == "__main__":
    common.main(run)
