#!/usr/bin/env python3
"""Engine-vs-engine match runner with a real referee (cshogi 1.1.0).

Usage:
    python3 tools/scripts/match.py ENGINE1 ENGINE2 --games N (--byoyomi MS | --nodes N)
        [--options1 K:V,K:V] [--options2 K:V,...] [--name1 NAME] [--name2 NAME]
        [--openings-from FILE.tsv] [--ply-range 16-24] [--seed S] [--draw 256]
        [--margin 1000] [--out DIR] [--usi-log]

ENGINE1 is the engine under test; every result is given from its side. An engine is a path to an
executable, or a command line in quotes ("/usr/games/fairy-stockfish"). Examples (from the repository root):

    S=target/release/soppo
    O=/work/shared/data/games_lishogi500.tsv
    python3 tools/scripts/match.py $S /usr/games/fairy-stockfish --games 4 --byoyomi 200 --openings-from $O --out /tmp/m-fsf
    python3 tools/scripts/match.py $S /usr/games/gpsusi --games 2 --byoyomi 200 --openings-from $O --out /tmp/m-gps
    python3 tools/scripts/match.py $S $S --games 4 --nodes 20000 --options2 SoppoCut:Static --openings-from $O

Openings: games are played in pairs. For each pair a game of the TSV file (first column
`startpos moves ...`) is picked in a seeded random order and cut at a random ply in --ply-range;
the pair plays it twice, ENGINE1 taking Black (sente) in the first game and White in the second.
Cuts where the side to move is in check, has no legal move, can mate in one, or where a
position has already occurred four times are skipped (the next game of the file is taken). With
--balanced CP, so are cuts the judge engine (--judge, default Fairy-Stockfish, --judge-nodes
300000) scores beyond ±CP for the side to move: many lishogi games are already decided by ply
16-24, and a pair on such a cut splits 1-1 whoever is stronger. Without
--openings-from, every game starts from the initial position (then all pairs are alike unless the
engines are nondeterministic).

Referee (our own loop; cshogi.usi.Engine and cshogi.cli block forever on a dead engine, so the
engines are driven through a small reader-thread wrapper and judged with cshogi.Board):
  * every bestmove is checked with Board.is_legal (illegal move or unparsable move: loss);
  * `bestmove resign`: loss; side to move with no legal move: loss (mate);
  * `bestmove win`: checked with Board.is_nyugyoku (CSA rule 27 points); false declaration: loss,
    counted as an illegal move;
  * sennichite: the fourth occurrence of a position ends the game; a draw, except continuous check
    (Board.is_draw says REPETITION_WIN/LOSE): the checking side loses;
  * --draw N: a game that reaches N plies from the initial position (opening moves included) is a
    draw (like cshogi.cli --draw);
  * byoyomi clock: `go btime 0 wtime 0 byoyomi MS`; a move that arrives later than MS + --margin
    loses on time (the engine then gets `stop`; if it does not answer, it is killed and restarted);
  * --nodes N: `go nodes N` (Soppo and other engines that declare `NodesLimit` also get
    `setoption name NodesLimit value N`); --nodes2 N gives ENGINE2 another count; engines that cannot limit nodes (gpsusi) are refused.
    The time to answer is capped at --nodes-timeout seconds (a hang = time loss);
  * an engine that exits (EOF on its stdout) loses the game as a crash and is restarted for the
    next game.

Defaults sent to known engines (one thread each; overridden by --options1/--options2):
  Soppo: Threads 1, USI_Hash 64, USI_Ponder false. Fairy-Stockfish: UCI_Variant shogi, Threads 1,
  Hash 64 (Fairy-Stockfish speaks USI when it receives `usi` as its first command; UCI_Variant
  already defaults to shogi then). gpsusi: Thread 1. Options an engine does not declare are
  skipped with a warning.

Output: one line per game (index, opening, Black, White, result, reason, plies), then a summary
with W/D/L from ENGINE1's side, score, Elo difference with a 95% interval (normal approximation
on the per-game scores, Elo = -400*log10(1/s - 1)), per-engine counts of illegal moves, time
losses, crashes and hangs, move-time statistics and `isready` latency. The last line is
`match: W-D-L score S% elo E [lo, hi]`. --out DIR receives games.csa (all games, CSA V2.2),
games.tsv (one line per game with the USI move list) and, with --usi-log, usi.log (all traffic).

Exit status: 0; 1 if ENGINE1 made an illegal move or crashed/hung; 2 on usage or start-up errors.
Needs Python >= 3.9 and cshogi (tools/scripts/requirements-match.txt).
"""

from __future__ import annotations

import argparse
import math
import os
import queue
import random
import shlex
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import cshogi
from cshogi import CSA

START_SFEN = cshogi.STARTING_SFEN


# ---------------------------------------------------------------------------------------------
# USI engine process


class EngineDied(Exception):
    """The engine closed its stdout (exited or crashed)."""


class EngineTimeout(Exception):
    """The engine did not answer in time."""


@dataclass
class EngineStats:
    illegal: int = 0
    time_losses: int = 0
    crashes: int = 0
    hangs: int = 0
    moves: int = 0
    think_ms_total: float = 0.0
    think_ms_max: float = 0.0
    over_byoyomi: int = 0  # moves slower than byoyomi (still within the margin)
    isready_ms: list = field(default_factory=list)
    restarts: int = 0


class UsiEngine:
    """One USI engine process, read by a thread so that every wait has a deadline."""

    def __init__(self, cmd, name, options, nodes, log, stderr_path):
        self.cmd = cmd
        self.label = name  # our name for it (may be None until `id name` is read)
        self.user_options = options
        self.nodes = nodes
        self.log = log
        self.stderr_path = stderr_path
        self.stats = EngineStats()
        self.proc = None
        self.id_name = None
        self.declared = {}
        self.kind = "generic"

    # -- process ------------------------------------------------------------------------------

    def start(self, timeout):
        stderr = open(self.stderr_path, "ab")
        self.proc = subprocess.Popen(
            self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            text=True, encoding="utf-8", errors="replace", bufsize=1,
            cwd=os.path.dirname(self.cmd[0]) or None,
        )
        stderr.close()
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True).start()
        self.send("usi")
        self.declared = {}
        for line in self.read_until("usiok", timeout):
            if line.startswith("id name "):
                self.id_name = line[8:].strip()
            elif line.startswith("option name "):
                words = line.split()
                # The option name may contain spaces ("Move Overhead"): up to ` type `.
                name = " ".join(words[2:words.index("type")]) if "type" in words else words[2]
                self.declared[name] = line
        low = (self.id_name or "").lower()
        self.kind = ("soppo" if low.startswith("soppo") else
                     "fairy" if "fairy-stockfish" in low else
                     "gps" if "gpsshogi" in low else "generic")
        if self.label is None:
            self.label = (self.id_name or os.path.basename(self.cmd[0])).split()[0]
        for k, v in self._options().items():
            if k in self.declared:
                self.send("setoption name %s value %s" % (k, v))
            elif k in self.user_options:
                warn("%s does not declare option %s; not sent" % (self.label, k))
        self.isready(timeout)

    def _options(self):
        defaults = {
            "soppo": {"Threads": "1", "USI_Hash": "64", "USI_Ponder": "false"},
            "fairy": {"UCI_Variant": "shogi", "Threads": "1", "Hash": "64", "Ponder": "false"},
            "gps": {"Thread": "1"},
        }.get(self.kind, {"USI_Ponder": "false"})
        opts = dict(defaults)
        if self.nodes and "NodesLimit" in self.declared:
            opts["NodesLimit"] = str(self.nodes)
        opts.update(self.user_options)
        return opts

    def supports_nodes(self):
        return "NodesLimit" in self.declared or self.kind in ("soppo", "fairy")

    @staticmethod
    def _reader(proc, lines):
        for line in proc.stdout:
            lines.put(line.rstrip("\r\n"))
        lines.put(None)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        if self.proc is None:
            return
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except Exception:
            pass
        self.proc = None

    def quit(self):
        if self.proc is None:
            return
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.kill()
        self.proc = None

    def restart(self, timeout):
        self.kill()
        self.stats.restarts += 1
        self.start(timeout)

    # -- protocol -----------------------------------------------------------------------------

    def send(self, text):
        if self.log:
            self.log.write("%.3f %s< %s\n" % (time.monotonic(), self.label, text))
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError, AttributeError):
            raise EngineDied()

    def readline(self, deadline):
        """The next line, EngineTimeout after `deadline` (monotonic), EngineDied on EOF."""
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineTimeout()
        if line is None:
            self.lines.put(None)  # keep reporting EOF
            raise EngineDied()
        if self.log:
            self.log.write("%.3f %s> %s\n" % (time.monotonic(), self.label, line))
        return line

    def read_until(self, token, timeout):
        deadline = time.monotonic() + timeout
        out = []
        while True:
            line = self.readline(deadline)
            out.append(line)
            if line.split()[:1] == [token]:
                return out

    def isready(self, timeout):
        start = time.monotonic()
        self.send("isready")
        self.read_until("readyok", timeout)
        self.stats.isready_ms.append((time.monotonic() - start) * 1000)

    def go(self, position, go_cmd, deadline):
        """Send position + go; return (bestmove, elapsed_ms, last_score_info)."""
        self.send(position)
        start = time.monotonic()
        self.send(go_cmd)
        score = None
        while True:
            line = self.readline(deadline)
            if line.startswith("info") and " score " in line:
                words = line.split()
                i = words.index("score")
                score = " ".join(words[i + 1:i + 3])
            elif line.startswith("bestmove"):
                words = line.split()
                return (words[1] if len(words) > 1 else ""), (time.monotonic() - start) * 1000, score

    def drain_after_stop(self, grace):
        """After a time-out: `stop`, then wait up to `grace` s for the late bestmove."""
        self.send("stop")
        deadline = time.monotonic() + grace
        while True:
            if self.readline(deadline).startswith("bestmove"):
                return


def warn(msg):
    print("warning: " + msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Openings


class Judge:
    """An engine that scores opening cuts for --balanced (its own process, one search each)."""

    def __init__(self, cmd, nodes):
        self.nodes = nodes
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._send("usi")
        self._until("usiok")
        self._send("isready")
        self._until("readyok")

    def _send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def _until(self, word):
        last_score = None
        for line in self.p.stdout:
            parts = line.split()
            if "score" in parts:
                i = parts.index("score")
                kind, value = parts[i + 1], int(parts[i + 2])
                last_score = value if kind == "cp" else (30000 if value >= 0 else -30000)
            if parts and parts[0] == word:
                return last_score
        raise RuntimeError("the judge engine exited")

    def score(self, moves):
        """The judge's score of the position after `moves`, for the side to move."""
        self._send("position startpos moves " + " ".join(moves))
        self._send("go nodes %d" % self.nodes)
        return self._until("bestmove")

    def close(self):
        try:
            self._send("quit")
            self.p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def opening_list(path, count, ply_range, seed, judge=None, balanced=None):
    """`count` opening move lists (USI), cut at a seeded random ply of ply_range from the games.
    With a judge, cuts it scores beyond ±balanced centipawns are skipped like illegal ones."""
    games = []
    if path:
        with open(path, encoding="utf-8") as f:
            for line in f:
                first = line.split("\t")[0].split()
                if first[:2] == ["startpos", "moves"]:
                    games.append(first[2:])
        if not games:
            sys.exit("no `startpos moves ...` lines in %s" % path)
    rng = random.Random(seed)
    order = list(range(len(games)))
    rng.shuffle(order)
    out = []
    seen = set()
    lo, hi = ply_range
    for gi in order:
        if len(out) == count:
            break
        moves = games[gi]
        ply = rng.randint(lo, hi)
        if len(moves) <= ply:
            continue
        cut = moves[:ply]
        board = cshogi.Board()
        counts = {}
        ok = True
        for m in cut:
            mv = board.move_from_usi(m)
            if not mv or not board.is_legal(mv):
                ok = False
                break
            board.push(mv)
            key = board.zobrist_hash()
            counts[key] = counts.get(key, 0) + 1
            if counts[key] >= 4:
                ok = False
                break
        if not ok or board.is_check() or board.is_game_over() or board.mate_move_in_1ply():
            continue
        if " ".join(cut) in seen:
            continue
        if judge is not None:
            score = judge.score(cut)
            if score is None or abs(score) > balanced:
                continue
        seen.add(" ".join(cut))
        out.append(("%d@%d" % (gi + 1, ply), cut))
    if path and len(out) < count:
        warn("only %d usable openings for %d pairs; openings are reused" % (len(out), count))
    if not out:
        out = [("startpos", [])]
    return [out[i % len(out)] for i in range(count)]


# ---------------------------------------------------------------------------------------------
# One game


@dataclass
class GameResult:
    winner: int | None  # cshogi.BLACK / cshogi.WHITE / None (draw)
    reason: str
    culprit: UsiEngine | None  # the engine at fault (illegal / time / crash), if any
    csa_end: str
    moves: list
    plies: int


def play_game(black, white, opening, args, csa_exporter, game_no, opening_label):
    engines = {cshogi.BLACK: black, cshogi.WHITE: white}
    board = cshogi.Board()
    counts = {board.zobrist_hash(): 1}
    moves = []
    csa_exporter.info(
        init_board=START_SFEN, names=[black.label, white.label], version="V2.2",
        var_info={"EVENT": "match game %d" % game_no, "OPENING": opening_label,
                  "TIME_LIMIT": ("byoyomi %d ms" % args.byoyomi) if args.byoyomi else "nodes %d" % args.nodes},
    )
    for m in opening:
        mv = board.move_from_usi(m)
        csa_exporter.move(mv, comment="opening")
        board.push(mv)
        moves.append(m)
        key = board.zobrist_hash()
        counts[key] = counts.get(key, 0) + 1

    def end(winner, reason, culprit, csa_end):
        return GameResult(winner, reason, culprit, csa_end, moves, len(moves))

    while True:
        turn = board.turn
        side, other = engines[turn], engines[cshogi.opponent(turn)]
        if board.is_game_over():
            return end(cshogi.opponent(turn), "mate", None, "%TORYO")  # like cshogi.cli
        if len(moves) >= args.draw:
            return end(None, "max plies", None, "%JISHOGI")
        position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        if args.nodes:
            go_cmd = "go nodes %d" % side.nodes
            limit_ms = args.nodes_timeout * 1000
        else:
            go_cmd = "go btime 0 wtime 0 byoyomi %d" % args.byoyomi
            limit_ms = args.byoyomi + args.margin
        start = time.monotonic()
        try:
            bestmove, elapsed, score = side.go(position, go_cmd, start + limit_ms / 1000)
        except EngineDied:
            side.stats.crashes += 1
            return end(cshogi.opponent(turn), "crash", side, "%CHUDAN")
        except EngineTimeout:
            side.stats.time_losses += 1
            try:
                side.drain_after_stop(5.0)
            except (EngineTimeout, EngineDied):
                side.stats.hangs += 1
                side.kill()
            return end(cshogi.opponent(turn), "time", side, "%TIME_UP")
        st = side.stats
        st.moves += 1
        st.think_ms_total += elapsed
        st.think_ms_max = max(st.think_ms_max, elapsed)
        if args.byoyomi and elapsed > args.byoyomi:
            st.over_byoyomi += 1
        secs = int(round(elapsed / 1000))

        if bestmove == "resign":
            csa_exporter.f.write("'resign %.0f ms\n" % elapsed)
            return end(cshogi.opponent(turn), "resign", None, "%TORYO")
        if bestmove == "win":
            if board.is_nyugyoku():
                return end(turn, "declaration", None, "%KACHI")
            st.illegal += 1
            return end(cshogi.opponent(turn), "false declaration", side, "%ILLEGAL_MOVE")
        mv = board.move_from_usi(bestmove) if bestmove else 0
        if not mv or not board.is_legal(mv):
            st.illegal += 1
            csa_exporter.f.write("'illegal move %r in %s\n" % (bestmove, board.sfen()))
            return end(cshogi.opponent(turn), "illegal move %s" % bestmove, side, "%ILLEGAL_MOVE")
        csa_exporter.move(mv, time=secs, comment=("score " + score) if score else None)
        board.push(mv)
        moves.append(bestmove)
        key = board.zobrist_hash()
        counts[key] = counts.get(key, 0) + 1
        if counts[key] >= 4:
            rep = board.is_draw()
            if rep == cshogi.REPETITION_WIN:  # the side to move was checked all along: it wins
                mover = cshogi.opponent(board.turn)
                return end(board.turn, "perpetual check", None,
                           "%+ILLEGAL_ACTION" if mover == cshogi.BLACK else "%-ILLEGAL_ACTION")
            if rep == cshogi.REPETITION_LOSE:
                mover = board.turn
                return end(cshogi.opponent(board.turn), "perpetual check", None,
                           "%+ILLEGAL_ACTION" if mover == cshogi.BLACK else "%-ILLEGAL_ACTION")
            return end(None, "sennichite", None, "%SENNICHITE")


# ---------------------------------------------------------------------------------------------
# Statistics


def elo_of(s):
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400 * math.log10(1 / s - 1)


def summary(scores):
    """(score, elo, lo, hi) from per-game scores (1, 0.5, 0), normal approximation, 95%."""
    n = len(scores)
    s = sum(scores) / n
    var = sum((x - s) ** 2 for x in scores) / n
    se = math.sqrt(var / n)
    lo, hi = s - 1.96 * se, s + 1.96 * se
    return s, elo_of(s), elo_of(max(lo, 0.0)), elo_of(min(hi, 1.0))


def fmt_elo(x):
    return ("+inf" if x > 0 else "-inf") if math.isinf(x) else "%+.0f" % (x + 0.0 if round(x) else 0.0)


# ---------------------------------------------------------------------------------------------
# Main


def parse_options(text):
    opts = {}
    for item in filter(None, (text or "").split(",")):
        if ":" not in item:
            sys.exit("option %r is not K:V" % item)
        k, v = item.split(":", 1)
        opts[k.strip()] = v.strip()
    return opts


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("engine1", help="engine under test (path or quoted command line)")
    p.add_argument("engine2", help="opponent")
    p.add_argument("--games", type=int, default=2)
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--byoyomi", type=int, help="ms per move")
    limit.add_argument("--nodes", type=int, help="nodes per move")
    p.add_argument("--margin", type=int, default=1000, help="ms allowed beyond byoyomi (default 1000)")
    p.add_argument("--nodes2", type=int, help="nodes per move for ENGINE2 (default: --nodes), e.g. to give an "
                   "engine with another speed the nodes it searches in the same time")
    p.add_argument("--nodes-timeout", type=float, default=60.0, help="s per move with --nodes (default 60)")
    p.add_argument("--startup-timeout", type=float, default=60.0, help="s for usiok/readyok (default 60)")
    p.add_argument("--options1", default="")
    p.add_argument("--options2", default="")
    p.add_argument("--name1")
    p.add_argument("--name2")
    p.add_argument("--openings-from", help="TSV of games, first column `startpos moves ...`")
    p.add_argument("--ply-range", default="16-24", help="cut plies for the openings (default 16-24)")
    p.add_argument("--draw", type=int, default=256, help="plies from the start after which a game is drawn")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--balanced", type=int, metavar="CP",
                   help="keep only opening cuts the judge scores within ±CP centipawns (many lishogi games "
                        "are already decided at plies 16-24, and such a pair always splits 1-1)")
    p.add_argument("--judge", default="fairy-stockfish", help="engine scoring the cuts for --balanced")
    p.add_argument("--judge-nodes", type=int, default=300000, help="nodes per cut for the judge")
    p.add_argument("--out", help="directory for games.csa, games.tsv, engine stderr logs")
    p.add_argument("--usi-log", action="store_true", help="write all USI traffic to OUT/usi.log")
    args = p.parse_args(argv)
    try:
        lo, hi = (int(x) for x in args.ply_range.split("-"))
        assert 0 <= lo <= hi
    except Exception:
        p.error("--ply-range must be LO-HI")
    args.plies = (lo, hi)
    if args.games < 1:
        p.error("--games must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    out = args.out or os.path.join("target", "match-%s" % time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(out, exist_ok=True)
    log = open(os.path.join(out, "usi.log"), "w", encoding="utf-8") if args.usi_log else None

    engines = []
    for i, (cmd, opts, name) in enumerate(
            [(args.engine1, args.options1, args.name1), (args.engine2, args.options2, args.name2)], 1):
        words = shlex.split(cmd)
        # A bare name is looked up in PATH and /usr/games (Debian puts gpsusi, fairy-stockfish there).
        found = words[0] if os.sep in words[0] else shutil.which(
            words[0], path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
        words[0] = os.path.abspath(found or words[0])
        nodes = args.nodes2 if i == 2 and args.nodes and args.nodes2 else args.nodes
        e = UsiEngine(words, name, parse_options(opts), nodes, log,
                      os.path.join(out, "engine%d.stderr.log" % i))
        try:
            e.start(args.startup_timeout)
        except (EngineDied, EngineTimeout, OSError) as err:
            print("error: engine %d (%s) did not start: %s %s" % (i, cmd, type(err).__name__, err), file=sys.stderr)
            for x in engines + [e]:
                x.kill()
            return 2
        if args.nodes and not e.supports_nodes():
            print("error: %s (%s) cannot limit nodes (no NodesLimit option, `go nodes` not known to work); "
                  "use --byoyomi" % (e.label, e.id_name), file=sys.stderr)
            for x in engines + [e]:
                x.kill()
            return 2
        engines.append(e)
    e1, e2 = engines
    if e1.label == e2.label:
        e1.label, e2.label = e1.label + "-1", e2.label + "-2"
    print("engine1: %s [%s] %s" % (e1.label, e1.id_name, " ".join(e1.cmd)))
    print("engine2: %s [%s] %s" % (e2.label, e2.id_name, " ".join(e2.cmd)))
    print("limit: %s; games %d; draw at %d plies; openings %s plies %s seed %d; out %s" % (
        ("byoyomi %d ms (+%d ms margin)" % (args.byoyomi, args.margin)) if args.byoyomi else "nodes %d / %d" % (e1.nodes, e2.nodes),
        args.games, args.draw, args.openings_from or "none", args.ply_range, args.seed, out), flush=True)

    judge = None
    if args.balanced is not None:
        judge = Judge(shlex.split(args.judge) if os.sep in args.judge else
                      [shutil.which(args.judge, path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
                       or args.judge], args.judge_nodes)
    openings = opening_list(args.openings_from, (args.games + 1) // 2, args.plies, args.seed,
                            judge, args.balanced)
    if judge is not None:
        judge.close()
    csa = CSA.Exporter(os.path.join(out, "games.csa"), encoding="utf-8")
    tsv = open(os.path.join(out, "games.tsv"), "w", encoding="utf-8")
    tsv.write("game\topening\tblack\twhite\tresult\treason\tplies\tusi\n")
    scores = []
    wins = draws = losses = 0
    started = time.monotonic()
    print("%4s  %-9s  %-16s %-16s %-7s %-22s %5s" % ("game", "opening", "black", "white", "result", "reason", "plies"))
    for g in range(args.games):
        label, opening = openings[g // 2]
        black, white = (e1, e2) if g % 2 == 0 else (e2, e1)
        for e in (black, white):
            if not e.alive():
                try:
                    e.restart(args.startup_timeout)
                except (EngineDied, EngineTimeout, OSError):
                    print("error: %s could not be restarted" % e.label, file=sys.stderr)
                    return finish(args, e1, e2, scores, wins, draws, losses, started, exit_code=2)
        loser = None
        for e in (black, white):
            try:
                e.isready(args.startup_timeout)
                e.send("usinewgame")
            except (EngineDied, EngineTimeout):
                loser = e  # died or hung between games: a crash in this game
                break
        if loser is not None:
            loser.stats.crashes += 1
            loser.kill()
            res = GameResult(cshogi.WHITE if loser is black else cshogi.BLACK, "crash (isready)", loser,
                             "%CHUDAN", list(opening), len(opening))
            csa.info(init_board=START_SFEN, names=[black.label, white.label], version="V2.2")
        else:
            res = play_game(black, white, opening, args, csa, g + 1, label)
        csa.f.write("'result %s %s\n" % (res.reason, "" if res.culprit is None else "by " + res.culprit.label))
        csa.endgame(res.csa_end)
        if res.winner is None:
            result, s1 = "1/2", 0.5
        else:
            result = "1-0" if res.winner == cshogi.BLACK else "0-1"
            s1 = 1.0 if (res.winner == cshogi.BLACK) == (black is e1) else 0.0
        for e in (black, white):
            if e.alive():
                me = cshogi.BLACK if e is black else cshogi.WHITE
                try:
                    e.send("gameover " + ("draw" if res.winner is None else "win" if res.winner == me else "lose"))
                except EngineDied:
                    pass
        scores.append(s1)
        wins += s1 == 1.0
        draws += s1 == 0.5
        losses += s1 == 0.0
        print("%4d  %-9s  %-16s %-16s %-7s %-22s %5d" % (g + 1, label, black.label, white.label, result,
                                                         res.reason, res.plies), flush=True)
        tsv.write("%d\t%s\t%s\t%s\t%s\t%s\t%d\tstartpos moves %s\n" % (
            g + 1, label, black.label, white.label, result, res.reason, res.plies, " ".join(res.moves)))
        tsv.flush()
        if log:
            log.flush()
    csa.close()
    tsv.close()
    return finish(args, e1, e2, scores, wins, draws, losses, started)


def finish(args, e1, e2, scores, wins, draws, losses, started, exit_code=0):
    for e in (e1, e2):
        e.quit()
    if not scores:
        print("match: no games played")
        return exit_code or 2
    s, elo, lo, hi = summary(scores)
    print()
    print("%d games in %.0f s" % (len(scores), time.monotonic() - started))
    for e in (e1, e2):
        st = e.stats
        avg = st.think_ms_total / st.moves if st.moves else 0
        ready = ("isready %.0f ms first, max %.0f ms" % (st.isready_ms[0], max(st.isready_ms))) if st.isready_ms else ""
        print("%-16s illegal %d, time losses %d, crashes %d, hangs %d, restarts %d; %d moves, avg %.0f ms, "
              "max %.0f ms%s; %s" % (
                  e.label, st.illegal, st.time_losses, st.crashes, st.hangs, st.restarts, st.moves, avg,
                  st.think_ms_max, (", %d over byoyomi" % st.over_byoyomi) if args.byoyomi else "", ready))
    print("%s vs %s: +%d =%d -%d" % (e1.label, e2.label, wins, draws, losses))
    print("match: %d-%d-%d score %.1f%% elo %s [%s, %s]" % (wins, draws, losses, 100 * s, fmt_elo(elo),
                                                           fmt_elo(lo), fmt_elo(hi)))
    if e1.stats.illegal or e1.stats.crashes or e1.stats.hangs:
        return exit_code or 1
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
