#!/usr/bin/env python3
"""Engine-vs-engine match runner with a real referee (cshogi 1.1.0).

Usage:
    python3 tools/scripts/match.py ENGINE1 ENGINE2 --games N (--nodes N | [--time MS] [--byoyomi MS | --inc MS])
        [--ponder 1|2|both]
        [--options1 K:V,K:V] [--options2 K:V,...] [--name1 NAME] [--name2 NAME]
        [--openings-from FILE.tsv] [--ply-range 16-24] [--seed S] [--draw 256]
        [--margin 1000] [--out DIR] [--usi-log]

ENGINE1 is the engine under test; every result is given from its side. An engine is a path to an
executable, or a command line in quotes ("/usr/games/fairy-stockfish"). Examples (from the repository root):

    S=target/release/soppo
    O=../shared/data/games_lishogi500.tsv
    python3 tools/scripts/match.py $S /usr/games/fairy-stockfish --games 4 --byoyomi 200 --openings-from $O --out target/m-fsf
    python3 tools/scripts/match.py $S /usr/games/gpsusi --games 2 --byoyomi 200 --openings-from $O --out target/m-gps
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
engines are driven through tools/scripts/usi_engine.py, where every wait has a deadline, and
judged with cshogi.Board):
  * every bestmove is checked with Board.is_legal (illegal move or unparsable move: loss);
  * `bestmove resign`: loss; side to move with no legal move: loss (mate);
  * `bestmove win`: checked with Board.is_nyugyoku (CSA rule 27 points); false declaration: loss,
    counted as an illegal move;
  * sennichite: the fourth occurrence of a position ends the game; a draw, except continuous check
    (Board.is_draw says REPETITION_WIN/LOSE): the checking side loses;
  * --draw N: a game that reaches N plies from the initial position (opening moves included) is a
    draw (like cshogi.cli --draw);
  * clocks: --time MS main time per side (alone: sudden death), then --byoyomi MS per move, or
    --inc MS added after every move (Fischer). `go btime B wtime W byoyomi Y` or `go btime B wtime W
    binc I winc I` with the clocks as they stand (B and W without the increment about to be credited,
    as ShogiHome sends them). The time available for a move is the side's clock + byoyomi + increment;
    a move later than that + --margin loses on time (the engine then gets `stop`; if it does not
    answer, it is killed and restarted), and a later move within the margin is counted as "over the
    clock" and leaves the clock at zero. Each engine's least time left at the end of a move is reported,
    and the mean and median of the main time it still held when each game ended;
  * --ponder: after `bestmove M ponder P` with P legal, `position ... M P` and `go ponder <clocks>`;
    when the opponent plays P, `ponderhit` (the clock starts then), otherwise `stop`, the answer
    discarded (its time counts against the engine), then `position` + `go`. A `bestmove` sent before
    `ponderhit`/`stop` is counted as an early bestmove (a protocol error). A game that ends while an
    engine ponders sends it `stop` and reads its answer before `gameover`;
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

`kill -TERM` ends the match after the game being played, with the summary of the games played.

Exit status: 0; 1 if ENGINE1 made an illegal move, crashed, hung or sent an early bestmove; 2 on
usage or start-up errors.
Needs Python >= 3.9 and cshogi (tools/scripts/requirements-match.txt).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field

import cshogi
from cshogi import CSA

from usi_engine import Engine, EngineDied, EngineTimeout, centipawns

START_SFEN = cshogi.STARTING_SFEN


# ---------------------------------------------------------------------------------------------
# The engines of the match


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
    over_clock: int = 0  # moves slower than the time available (clock + byoyomi + increment)
    min_left_ms: float = math.inf  # least time left on the clock at the end of a move
    end_left_ms: list = field(default_factory=list)  # main time left when each game ended
    ponder_hits: int = 0
    ponder_misses: int = 0
    early_bestmoves: int = 0  # `bestmove` sent while pondering, before `ponderhit`/`stop`
    isready_ms: list = field(default_factory=list)
    restarts: int = 0


class UsiEngine(Engine):
    """An engine of the match (tools/scripts/usi_engine.py drives the process): its statistics,
    the default options of its kind, its node limit and pondering."""

    def __init__(self, cmd, name, options, nodes, log, stderr_path):
        super().__init__(cmd, name, log, stderr_path)
        self.user_options = options
        self.nodes = nodes
        self.stats = EngineStats()
        self.kind = "generic"
        self.ponder = False  # --ponder: USI_Ponder on, and `go ponder` on its predicted reply
        self.swap_clocks = False  # see start()

    def start(self, timeout):
        super().start(timeout)
        low = (self.id_name or "").lower()
        self.kind = ("soppo" if low.startswith("soppo") else
                     "fairy" if "fairy-stockfish" in low else
                     "gps" if "gpsshogi" in low else "generic")
        # Fairy-Stockfish before 13 reads USI's `btime` as gote's clock and `wtime` as sente's
        # (chess colours; its issue #269, fixed in March 2021): given its opponent's clock it
        # loses on time whenever it has less left. Debian's 11.1 has the bug, so it gets the
        # clocks swapped, which it then reads right.
        self.swap_clocks = False
        if self.kind == "fairy":
            try:
                self.swap_clocks = float(self.id_name.split()[1]) < 13
            except (IndexError, ValueError):
                pass
        for k, v in self._options().items():
            if k in self.declared:
                self.set_option(k, v)
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
        if self.ponder:
            opts["Ponder" if self.kind == "fairy" else "USI_Ponder"] = "true"
        if self.nodes and "NodesLimit" in self.declared:
            opts["NodesLimit"] = str(self.nodes)
        opts.update(self.user_options)
        return opts

    def supports_nodes(self):
        return "NodesLimit" in self.declared or self.kind in ("soppo", "fairy")

    def restart(self, timeout):
        self.kill()
        self.stats.restarts += 1
        self.start(timeout)

    def isready(self, timeout):
        self.stats.isready_ms.append(super().isready(timeout))

    def start_ponder(self, position, go_cmd):
        """`position` (with the predicted reply) and `go ponder ...`; the answer is read later."""
        self.send(position)
        self.send(go_cmd)

    def early_bestmove(self):
        """Lines already sent while pondering: True if one of them is a `bestmove` (a protocol
        error: an engine must hold its answer until `ponderhit` or `stop`)."""
        early = False
        while True:
            try:
                early |= self.readline(time.monotonic()).startswith("bestmove")
            except (EngineTimeout, EngineDied):  # nothing more waiting (or the engine is gone)
                return early

    def ponderhit(self, deadline):
        """`ponderhit`: the clock starts now; returns what `go` returns."""
        start = time.monotonic()
        self.send("ponderhit")
        return self.answer(start, deadline)

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
        self.engine = Engine(cmd)
        self.engine.start(timeout=None)
        self.engine.isready(timeout=None)

    def score(self, moves):
        """The judge's score of the position after `moves`, for the side to move (a mate as
        ±30000; None if it gave none)."""
        try:
            _, _, _, score = self.engine.go("position startpos moves " + " ".join(moves), "go nodes %d" % self.nodes)
        except EngineDied:
            raise RuntimeError("the judge engine exited")
        return centipawns(score)

    def close(self):
        self.engine.quit()


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


def time_limit_text(args):
    """The time control in words (CSA header, match header)."""
    if args.nodes:
        return "nodes %d" % args.nodes
    parts = []
    if args.time or not (args.byoyomi or args.inc):
        parts.append("%d ms a side" % args.time)
    if args.inc:
        parts.append("+%d ms a move (Fischer)" % args.inc)
    if args.byoyomi:
        parts.append("byoyomi %d ms" % args.byoyomi)
    return ", ".join(parts)


def go_times(clocks, args, engine):
    """The clock part of a `go` (or `go ponder`) to `engine` for the clocks as they are."""
    b, w = (max(0, int(clocks[c])) for c in (cshogi.BLACK, cshogi.WHITE))
    if engine.swap_clocks:
        b, w = w, b
    cmd = "btime %d wtime %d" % (b, w)
    if args.byoyomi:
        cmd += " byoyomi %d" % args.byoyomi
    elif args.inc:
        cmd += " binc %d winc %d" % (args.inc, args.inc)
    return cmd


def play_game(black, white, opening, args, csa_exporter, game_no, opening_label):
    engines = {cshogi.BLACK: black, cshogi.WHITE: white}
    board = cshogi.Board()
    counts = {board.zobrist_hash(): 1}
    moves = []
    # Each side's main time in ms (with --time/--inc; pure byoyomi keeps it at 0).
    clocks = {cshogi.BLACK: float(args.time), cshogi.WHITE: float(args.time)}
    # The engines pondering, each with the move list it ponders on (ours + the predicted reply).
    pondering = {}
    csa_exporter.info(
        init_board=START_SFEN, names=[black.label, white.label], version="V2.2",
        var_info={"EVENT": "match game %d" % game_no, "OPENING": opening_label,
                  "TIME_LIMIT": time_limit_text(args)},
    )
    for m in opening:
        mv = board.move_from_usi(m)
        csa_exporter.move(mv, comment="opening")
        board.push(mv)
        moves.append(m)
        key = board.zobrist_hash()
        counts[key] = counts.get(key, 0) + 1

    def end(winner, reason, culprit, csa_end):
        # What each side's main time still held when the game ended: time a plan never spent.
        if args.time:
            for c, e in engines.items():
                e.stats.end_left_ms.append(clocks[c])
        # An engine still pondering gets `stop` and its (ignored) answer is read before the
        # `gameover`, as ShogiHome does; one that does not answer is a hang.
        for e in list(pondering):
            del pondering[e]
            try:
                e.drain_after_stop(5.0)
            except EngineTimeout:
                e.stats.hangs += 1
                e.kill()
            except EngineDied:
                e.stats.crashes += 1
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
            available = math.inf
        else:
            go_cmd = "go " + go_times(clocks, args, side)
            available = clocks[turn] + args.byoyomi + args.inc
            limit_ms = available + args.margin
        st = side.stats
        try:
            pondered = pondering.pop(side, None)
            if pondered is not None and side.early_bestmove():
                st.early_bestmoves += 1
            if pondered is not None and pondered == moves:
                st.ponder_hits += 1
                start = time.monotonic()
                bestmove, ponder, elapsed, score = side.ponderhit(start + limit_ms / 1000)
            else:
                # A missed ponder: `stop` and the discarded answer come out of the side's time,
                # as in a GUI, whose clock runs from the opponent's move.
                start = time.monotonic()
                if pondered is not None:
                    st.ponder_misses += 1
                    try:
                        side.drain_after_stop(5.0)
                    except EngineTimeout:
                        # No answer to `stop` within 5 s: a hang, and a loss on time.
                        st.hangs += 1
                        st.time_losses += 1
                        side.kill()
                        return end(cshogi.opponent(turn), "time (no answer to stop)", side, "%TIME_UP")
                stopped_ms = (time.monotonic() - start) * 1000
                bestmove, ponder, elapsed, score = side.go(position, go_cmd, start + limit_ms / 1000)
                elapsed += stopped_ms
        except EngineDied:
            st.crashes += 1
            return end(cshogi.opponent(turn), "crash", side, "%CHUDAN")
        except EngineTimeout:
            st.time_losses += 1
            try:
                side.drain_after_stop(5.0)
            except (EngineTimeout, EngineDied):
                st.hangs += 1
                side.kill()
            return end(cshogi.opponent(turn), "time", side, "%TIME_UP")
        st.moves += 1
        st.think_ms_total += elapsed
        st.think_ms_max = max(st.think_ms_max, elapsed)
        if args.byoyomi and elapsed > args.byoyomi:
            st.over_byoyomi += 1
        if not args.nodes:
            st.min_left_ms = min(st.min_left_ms, available - elapsed)
            if elapsed > available:
                st.over_clock += 1  # within the margin, or it would have timed out above
            # The clock after the move: the increment is credited, time past the main time
            # comes out of the byoyomi (and a move inside the margin leaves nothing).
            clocks[turn] = max(0.0, clocks[turn] + args.inc - elapsed)
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
        # Pondering, as ShogiHome does it: only on a legal predicted reply in a game that goes on.
        if side in args.ponderers and ponder and not board.is_game_over():
            reply = board.move_from_usi(ponder)
            if reply and board.is_legal(reply):
                try:
                    side.start_ponder("position startpos moves " + " ".join(moves + [ponder]),
                                      "go ponder " + go_times(clocks, args, side))
                    pondering[side] = moves + [ponder]
                except EngineDied:
                    pass  # found out at its next move


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
    p.add_argument("--byoyomi", type=int, default=0, help="ms per move (with --time: after the main time)")
    p.add_argument("--time", type=int, default=0, help="main time per side in ms (alone: sudden death)")
    p.add_argument("--inc", type=int, default=0, help="Fischer increment in ms per move (not with --byoyomi)")
    p.add_argument("--nodes", type=int, help="nodes per move (instead of a clock)")
    p.add_argument("--ponder", choices=["1", "2", "both"],
                   help="the engine(s) that ponder: USI_Ponder on, `go ponder` on the predicted reply, "
                        "`ponderhit` or `stop` (the clock starts at `ponderhit`)")
    p.add_argument("--margin", type=int, default=1000,
                   help="ms allowed beyond the time available before a move loses on time (default 1000); "
                        "moves past the time available are counted as `over the clock` either way")
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
    clock = args.byoyomi or args.time or args.inc
    if args.nodes and clock:
        p.error("--nodes is instead of a clock (--byoyomi/--time/--inc)")
    if not args.nodes and not clock:
        p.error("give --byoyomi, --time and/or --inc, or --nodes")
    if args.byoyomi and args.inc:
        p.error("--byoyomi and --inc do not go together (USI sends one or the other)")
    if min(args.byoyomi, args.time, args.inc) < 0:
        p.error("times must not be negative")
    if args.ponder and args.nodes:
        p.error("--ponder needs a clock")
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
        nodes = args.nodes2 if i == 2 and args.nodes and args.nodes2 else args.nodes
        # A bare name is looked up in PATH and /usr/games (usi_engine.command).
        e = UsiEngine(cmd, name, parse_options(opts), nodes, log,
                      os.path.join(out, "engine%d.stderr.log" % i))
        e.ponder = args.ponder in (str(i), "both")
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
    args.ponderers = [e for e in engines if e.ponder]
    if e1.label == e2.label:
        e1.label, e2.label = e1.label + "-1", e2.label + "-2"
    print("engine1: %s [%s] %s" % (e1.label, e1.id_name, " ".join(e1.cmd)))
    print("engine2: %s [%s] %s" % (e2.label, e2.id_name, " ".join(e2.cmd)))
    print("limit: %s; games %d; draw at %d plies; openings %s plies %s seed %d; out %s" % (
        ("%s (+%d ms margin)%s" % (time_limit_text(args), args.margin,
                                   "; pondering: " + ", ".join(e.label for e in args.ponderers) if args.ponderers else ""))
        if not args.nodes else "nodes %d / %d" % (e1.nodes, e2.nodes),
        args.games, args.draw, args.openings_from or "none", args.ply_range, args.seed, out), flush=True)

    judge = None
    if args.balanced is not None:
        judge = Judge(args.judge, args.judge_nodes)
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
    # SIGTERM ends the match after the game being played, with the summary of the games so far.
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    for g in range(args.games):
        if stopping:
            print("stopped by SIGTERM after %d games" % g, flush=True)
            break
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
        extra = ""
        if args.byoyomi:
            extra += ", %d over byoyomi" % st.over_byoyomi
        if not args.nodes:
            extra += ", %d over the clock, least left %.0f ms" % (
                st.over_clock, st.min_left_ms if st.moves else 0)
        if st.end_left_ms:
            extra += ", main time left at the end %.0f ms mean, %.0f median" % (
                statistics.mean(st.end_left_ms), statistics.median(st.end_left_ms))
        if e.ponder:
            extra += ", ponder %d hits %d misses, %d early bestmoves" % (
                st.ponder_hits, st.ponder_misses, st.early_bestmoves)
        print("%-16s illegal %d, time losses %d, crashes %d, hangs %d, restarts %d; %d moves, avg %.0f ms, "
              "max %.0f ms%s; %s" % (
                  e.label, st.illegal, st.time_losses, st.crashes, st.hangs, st.restarts, st.moves, avg,
                  st.think_ms_max, extra, ready))
    print("%s vs %s: +%d =%d -%d" % (e1.label, e2.label, wins, draws, losses))
    print("match: %d-%d-%d score %.1f%% elo %s [%s, %s]" % (wins, draws, losses, 100 * s, fmt_elo(elo),
                                                           fmt_elo(lo), fmt_elo(hi)))
    if e1.stats.illegal or e1.stats.crashes or e1.stats.hangs or e1.stats.early_bestmoves:
        return exit_code or 1
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
