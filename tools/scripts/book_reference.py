#!/usr/bin/env python3
"""Soppo and YaneuraOu read the same `.db` book and choose from the same moves.

Both engines load BOOK with every book option at its default (YaneuraOu: `BookDir` the book's
folder, `BookFile` its name, which must be one of YaneuraOu's names such as `user_book1.db`).
For each position of the book up to ply `BookMoves` (16), each engine is sent `go depth 1` DRAWS
times; a `bestmove` with no searched `info` before it (no `nodes` above 0) is a book move. The
set of book moves seen is the set the engine draws from (with DRAWS 100 a move drawn with
probability 1/8 is missed with probability 1.6e-6). Soppo's set is also read from its `book`
command, which prints the set outright; the two must agree.

    python3 tools/scripts/book_reference.py BOOK [--soppo target/release/soppo]
        [--yaneuraou ../shared/opponents/yaneuraou-kp256] [--eval-dir ../shared/opponents/eval-suishopetite]

Exit status 0 when every position gives the same set in both engines and at least --min-positions
(200) of them are non-empty; 2 when the reference binary is absent (the check is skipped).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from usi_engine import Engine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def book_positions(path, max_ply):
    """The book's SFENs (with their ply) up to `max_ply`, in file order."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("sfen "):
                sfen = line[5:].strip()
                words = sfen.split()
                if len(words) == 4 and int(words[3]) <= max_ply:
                    out.append(sfen)
    return out


def drawn(engine, sfen, draws):
    """The book moves `engine` plays in `sfen` over `draws` tries."""
    seen = set()
    for _ in range(draws):
        searched = []
        move, _, _, _ = engine.go("position sfen " + sfen, "go depth 1",
                                  each=lambda l: searched.append(l) if l.startswith("info") and " nodes " in l
                                  and l.split()[l.split().index("nodes") + 1] != "0" else None)
        if searched:
            return seen  # not from the book: the book has nothing for this position
        seen.add(move)
    return seen


def soppo_set(engine, sfen):
    """The set Soppo's `book` command prints for `sfen` (empty when not used there), and how
    many moves the book has for it."""
    engine.send("position sfen " + sfen)
    engine.send("book")
    engine.send("isready")
    moves, listed = set(), 0
    for line in engine.read_until("readyok", 30):
        if line.startswith("info string book: drawn from:"):
            rest = line.split("drawn from:", 1)[1]
            if "(but" not in rest:
                moves = set(rest.split())
        elif line.startswith("info string book: ") and " moves: " in line:
            listed = int(line.split()[3])
    return moves, listed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("book")
    ap.add_argument("--soppo", default=os.path.join(ROOT, "target/release/soppo"))
    ap.add_argument("--yaneuraou", default=os.path.join(ROOT, "../shared/opponents/yaneuraou-kp256"))
    ap.add_argument("--eval-dir", default=os.path.join(ROOT, "../shared/opponents/eval-suishopetite"))
    ap.add_argument("--draws", type=int, default=100)
    ap.add_argument("--max-ply", type=int, default=16, help="BookMoves' default")
    ap.add_argument("--min-positions", type=int, default=200)
    args = ap.parse_args()
    if not os.path.exists(args.yaneuraou):
        print("skipped: no reference binary at %s" % args.yaneuraou)
        return 2
    book = os.path.abspath(args.book)
    folder, name = os.path.split(book)
    yo = Engine(args.yaneuraou, label="yaneuraou")
    yo.start()
    for k, v in [("Threads", 1), ("USI_Hash", 16), ("EvalDir", os.path.abspath(args.eval_dir)),
                 ("BookDir", folder), ("BookFile", name), ("NetworkDelay", 0), ("NetworkDelay2", 0),
                 ("MinimumThinkingTime", 0)]:
        yo.set_option(k, v)
    yo.isready()
    soppo = Engine(args.soppo, label="soppo")
    soppo.start()
    for k, v in [("USI_Hash", 16), ("BookDir", folder), ("BookFile", name)]:
        soppo.set_option(k, v)
    soppo.isready()
    positions = book_positions(book, args.max_ply)
    same = non_empty = several = cut = 0
    differ = []
    for sfen in positions:
        listed, in_book = soppo_set(soppo, sfen)
        several += len(listed) > 1
        cut += 0 < len(listed) < in_book
        s = drawn(soppo, sfen, args.draws)
        y = drawn(yo, sfen, args.draws)
        if s != listed:
            differ.append((sfen, "soppo's `book` says %s, its moves were %s" % (sorted(listed), sorted(s))))
        elif s != y:
            differ.append((sfen, "soppo %s, yaneuraou %s" % (sorted(s), sorted(y))))
        else:
            same += 1
            non_empty += bool(s)
    soppo.quit()
    yo.quit()
    print("%d positions up to ply %d: %d the same set in both engines (%d of them non-empty), %d differ"
          % (len(positions), args.max_ply, same, non_empty, len(differ)))
    print("  %d sets of more than one move; in %d positions the value rules dropped some moves and kept others"
          % (several, cut))
    for sfen, why in differ[:10]:
        print("  %s: %s" % (sfen, why))
    return 0 if not differ and non_empty >= args.min_positions else 1


if __name__ == "__main__":
    sys.exit(main())
