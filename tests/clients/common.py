"""Shared helpers for the real-client checks run by .ci/clients.sh.

Each script takes the ABSOLUTE path of the soppo binary as its first argument (or $SOPPO_BIN),
prints what it does, and exits non-zero on the first engine misbehaviour.
"""

import faulthandler
import os
import sys

import cshogi

MATE3 = "+B+R5n1/5gk2/p1pps1gp1/4ppnsK/6pP1/1PPSP3L/PR1P1PP2/6S2/L2G1G3 w B2N2LP2p 1"
TSUME5 = "4k4/9/3P1P3/9/9/9/9/9/9 b GS 1"
NO_CHECKS = "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1"


class Failed(Exception):
    """An engine misbehaviour found by a client check."""


def engine_path():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SOPPO_BIN", "")
    if not path:
        sys.exit("usage: %s /absolute/path/to/soppo" % sys.argv[0])
    path = os.path.abspath(path)
    if not os.access(path, os.X_OK):
        sys.exit("not an executable: %s" % path)
    return path


def watchdog(seconds):
    """cshogi blocks forever on a missing answer: dump the stack and exit after `seconds`."""
    faulthandler.dump_traceback_later(seconds, exit=True)


def check(ok, message):
    if not ok:
        raise Failed(message)


def board_at(sfen=None, moves=()):
    board = cshogi.Board()
    if sfen:
        board.set_sfen(sfen)
    for m in moves:
        play(board, m)
    return board


def is_legal(board, usi):
    move = board.move_from_usi(usi)
    return move != 0 and board.is_legal(move)


def play(board, usi):
    check(is_legal(board, usi), "illegal move %s in %s" % (usi, board.sfen()))
    board.push_usi(usi)


def check_mate_line(sfen, moves):
    """A `checkmate` answer: an odd number of legal moves, each attacker move a check, mate at the end."""
    check(len(moves) % 2 == 1, "mating line of even length: %s" % moves)
    board = board_at(sfen)
    for i, m in enumerate(moves):
        play(board, m)
        if i % 2 == 0:
            check(board.is_check(), "attacker move %s does not check" % m)
    check(board.is_game_over(), "line %s does not end in checkmate (%s)" % (" ".join(moves), board.sfen()))


def main(run):
    try:
        run()
    except Failed as e:
        print("FAILED: %s" % e, flush=True)
        sys.exit(1)
