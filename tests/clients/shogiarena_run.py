"""ShogiArena against Soppo: a two-game quick SPRT run (`shogiarena run sprt`) and one mate
problem (`shogiarena run mate`).

ShogiArena aborts a session on a stdout line starting with `error`, requires integer info fields,
and records illegal moves, time losses and engine errors as game results; all of these fail the
check. When ShogiArena itself cannot run here (not installed: it needs Python >= 3.11 and PyPI),
the script says exactly why and exits 0 (skipped); the cshogi checks are the ones that must run.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

import common
from common import check

BAD_RESULT_WORDS = ("ILLEGAL", "TIMEOUT", "FORFEIT", "ERROR", "INVALID", "PAUSED")


def arena_command():
    exe = os.path.join(os.path.dirname(sys.executable), "shogiarena")
    return [exe] if os.access(exe, os.X_OK) else None


def run_arena(args, timeout):
    cmd = arena_command() + args
    print("$ " + " ".join(cmd), flush=True)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise common.Failed("shogiarena did not finish within %d s:\n%s\n%s" % (timeout, e.stdout, e.stderr))
    output = (proc.stdout or "") + (proc.stderr or "")
    check(proc.returncode == 0, "shogiarena exited with %d:\n%s" % (proc.returncode, output[-4000:]))
    return output, time.monotonic() - start


def sprt(path, out_dir):
    shutil.rmtree(out_dir, ignore_errors=True)
    output, took = run_arena(
        [
            "--output-dir", out_dir, "run", "sprt", "--games", "2", "--no-resume", "--experiment-name", "soppo-ci",
            "--engine", "name=soppoA", "path=" + path, "options.USI_Hash=16",
            "--engine", "name=soppoB", "path=" + path, "options.USI_Hash=16",
            "--rules", "time_control.time_ms=1000", "time_control.byoyomi_ms=200", "adjudication.max_plies=100",
        ],
        timeout=240,
    )
    statuses = [os.path.join(d, "completion_status.json") for d, _, files in os.walk(out_dir)
                if "completion_status.json" in files]
    check(len(statuses) == 1, "expected one run directory under %s, found %d\n%s" % (out_dir, len(statuses), output[-4000:]))
    run_dir = os.path.dirname(statuses[0])
    with open(statuses[0]) as f:
        status = json.load(f)
    check(status.get("completed") == 2 and status.get("error_games") == 0,
          "completion status: %s" % json.dumps(status))
    db = sqlite3.connect(os.path.join(run_dir, "game.db"))
    games = db.execute("select game_name, game_result, num_moves from game order by id").fetchall()
    db.close()
    check(len(games) == 2, "%d games recorded" % len(games))
    for name, result, plies in games:
        check(not any(w in result for w in BAD_RESULT_WORDS), "game %s: %s after %d plies" % (name, result, plies))
    print("ShogiArena sprt: 2 games in %.0f s: %s" % (took, ", ".join("%s (%d plies)" % (r, n) for _, r, n in games)))


def mate(path, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    output, took = run_arena(
        ["--output-dir", out_dir, "run", "mate", path, "sfen " + common.MATE3, "--infinite", "--timeout", "60"],
        timeout=120,
    )
    moves = None
    for line in output.splitlines():
        if line.startswith("moves "):
            moves = line.split()[1:]
    check(moves, "no `moves` line in the output of shogiarena run mate:\n" + output)
    common.check_mate_line(common.MATE3, moves)
    print("ShogiArena mate: %s (verified, %.1f s)" % (" ".join(moves), took))


def run():
    path = common.engine_path()
    if os.environ.get("SOPPO_ARENA_SKIP"):
        print("SKIPPED ShogiArena: " + os.environ["SOPPO_ARENA_SKIP"])
        return
    if sys.version_info < (3, 11):
        print("SKIPPED ShogiArena: it requires Python >= 3.11, this is %s" % sys.version.split()[0])
        return
    if arena_command() is None:
        print("SKIPPED ShogiArena: the `shogiarena` command is not installed in %s "
              "(see the pip output of .ci/clients.sh)" % os.path.dirname(sys.executable))
        return
    out_dir = os.environ.get("SOPPO_CLIENTS_OUT", os.path.join(os.getcwd(), "target", "ci-clients"))
    common.watchdog(600)
    sprt(path, os.path.join(out_dir, "arena-sprt"))
    mate(path, os.path.join(out_dir, "arena-mate"))
    print("ShogiArena: OK")


if __name__ == "__main__":
    common.main(run)
