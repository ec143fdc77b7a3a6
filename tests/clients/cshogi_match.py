"""A short Soppo-vs-Soppo match through `python -m cshogi.cli`, checked for illegal moves,
time losses and crashes.

cshogi.cli checks every bestmove with its own board and ends the game on an illegal one
("...の反則負け", CSA `%ILLEGAL_MOVE`), on a time loss ("...の切れ負け", `%TIME_UP`; with a main
time only), and hangs if an engine dies (it compares bytes with '' on EOF): a subprocess timeout
turns that into a failure. The CSA records are replayed here with cshogi.Board as well.
"""

import glob
import os
import shutil
import subprocess
import sys
import time

import cshogi
from cshogi import CSA

import common
from common import check

BAD_ENDINGS = {"%ILLEGAL_MOVE", "ILLEGAL_MOVE", "%TIME_UP", "%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION"}


def match(path, out_dir, label, games, clock, draw, timeout):
    csa_dir = os.path.join(out_dir, label)
    shutil.rmtree(csa_dir, ignore_errors=True)
    os.makedirs(csa_dir)
    cmd = [
        sys.executable, "-m", "cshogi.cli", path, path,
        "--name1", "soppoA", "--name2", "soppoB",
        "--options1", "USI_Hash:16", "--options2", "USI_Hash:16",
        "--games", str(games), "--draw", str(draw), "--csa", csa_dir,
    ] + clock
    print("$ " + " ".join(cmd), flush=True)
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", env=env, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise common.Failed("cshogi.cli did not finish within %d s (an engine hung or died)\n%s" % (timeout, e.stdout))
    took = time.monotonic() - start
    for line in proc.stdout.splitlines():
        if line.endswith("start.") or line.startswith("まで") or line.startswith("Black vs White"):
            print("  " + line)
    check(proc.returncode == 0, "cshogi.cli exited with %d:\n%s" % (proc.returncode, proc.stderr))
    results = [l for l in proc.stdout.splitlines() if l.startswith("まで")]
    check(len(results) == games, "%d game results for %d games" % (len(results), games))
    for line in results:
        check("反則" not in line, "foul: " + line)
        check("切れ負け" not in line, "time loss: " + line)

    records = sorted(glob.glob(os.path.join(csa_dir, "*.csa")))
    check(len(records) == games, "%d CSA records for %d games" % (len(records), games))
    plies = []
    for record in records:
        for game in CSA.Parser.parse_file(record):
            check(game.endgame not in BAD_ENDINGS, "%s ends with %s" % (record, game.endgame))
            board = cshogi.Board(game.sfen)
            for move in game.moves:
                check(board.is_legal(move), "%s: illegal move %s" % (record, cshogi.move_to_usi(move)))
                board.push(move)
            plies.append("%d plies %s" % (len(game.moves), game.endgame))
    print("%s: %d games in %.0f s, all moves legal, no time loss: %s" % (label, games, took, ", ".join(plies)))


def run():
    path = common.engine_path()
    out_dir = os.environ.get("SOPPO_CLIENTS_OUT", os.path.join(os.getcwd(), "target", "ci-clients"))
    # Byoyomi only (`go btime 0 wtime 0 byoyomi 100` ... cshogi sends btime/wtime only with --time).
    match(path, out_dir, "cshogi-byoyomi", 4, ["--byoyomi", "100"], 200, 240)
    # A Fischer clock, where cshogi adjudicates time losses.
    match(path, out_dir, "cshogi-fischer", 2, ["--time", "2000", "--inc", "50"], 120, 180)
    print("cshogi match: OK")


if __name__ == "__main__":
    common.main(run)
