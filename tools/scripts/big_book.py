#!/usr/bin/env python3
"""Writes a synthetic YaneuraOu `.db` book of about SIZE megabytes, for measuring how the engine
loads and looks up a large book (`soppo-tools book-stats`, `isready` to `readyok`).

Positions come from random legal games from the start position (python-shogi's rules come from
cshogi, `pip install cshogi`), each with one to four random legal moves, random values, depths
and counts. Written sorted by SFEN, as YaneuraOu writes books.

    python3 tools/scripts/big_book.py ~/.cache/soppo/books/big100.db --size-mb 100
"""
import argparse
import random

import cshogi


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--size-mb", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-ply", type=int, default=80, help="length of each random game")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    target = int(args.size_mb * 1e6)
    entries = {}
    size = len("#YANEURAOU-DB2016 1.00\n")
    board = cshogi.Board()
    while size < target:
        board.reset()
        for _ in range(rng.randrange(1, args.max_ply)):
            moves = list(board.legal_moves)
            if not moves:
                break
            sfen = board.sfen()
            if sfen not in entries:
                picked = rng.sample(moves, min(len(moves), rng.randint(1, 4)))
                lines = []
                for m in picked:
                    lines.append("%s none %d %d %d" % (cshogi.move_to_usi(m), rng.randint(-400, 400),
                                                      rng.randint(10, 40), rng.randint(0, 50)))
                entries[sfen] = lines
                size += len(sfen) + 6 + sum(len(l) + 1 for l in lines)
            board.push(rng.choice(moves))
    with open(args.out, "w", newline="\n") as f:
        f.write("#YANEURAOU-DB2016 1.00\n")
        for sfen in sorted(entries):
            f.write("sfen %s\n" % sfen)
            for line in entries[sfen]:
                f.write(line + "\n")
    print("%s: %d positions, %.1f MB" % (args.out, len(entries), size / 1e6))


if __name__ == "__main__":
    main()
