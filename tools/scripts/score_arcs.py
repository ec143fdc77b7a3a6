"""How the games of match.py were won and lost, from the engine's own scores.

Usage: python3 tools/scripts/score_arcs.py [--engine Soppo] DIR/games.csa ...

Reads the CSA records that match.py writes (`'score cp N` / `'score mate N` comments after each
move) and, for the games decided by resignation, groups the engine's losses by the best score it
reached (below +200, +200 to +500, +500 to +1,000, +1,000 or more) and counts collapses (a score
of +300 or more followed within four of its moves by -2,000 or worse). For its wins it counts
those in which it had been at -500 or worse. Other endings (impasse, time, illegal) are counted
apart.
"""
import argparse
import collections
import re

MOVE = re.compile(r"[+-]\d{4}[A-Z]{2}$")
SCORE = re.compile(r"'score (cp|mate) (\S+)")


def games(path):
    for text in open(path).read().split("\n/\n"):
        black = re.search(r"^N\+(\S+)", text, re.M)
        if not black:
            continue
        mover, scores, last = None, [], None
        for line in text.splitlines():
            if MOVE.match(line):
                mover = last = line[0]
            m = SCORE.match(line)
            if m and mover:
                if m.group(1) == "mate":
                    v = -30000 if m.group(2).startswith("-") else 30000
                else:
                    v = int(m.group(2))
                scores.append((mover, v))
        end = re.search(r"^%(\w+)", text, re.M)
        yield black.group(1), scores, end.group(1) if end else None, last


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="Soppo", help="the engine's name as match.py wrote it (N+ / N- lines)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    c = collections.Counter()
    for path in args.files:
        for black, scores, end, last in games(path):
            side = "+" if black == args.engine else "-"
            own = [v for mover, v in scores if mover == side]
            if end != "TORYO":
                c[f"other endings ({end})"] += 1
                continue
            if last == side:  # the engine moved last, the opponent resigned
                c["wins"] += 1
                if own and min(own) <= -500:
                    c["wins from -500 or worse"] += 1
                continue
            c["losses"] += 1
            best = max(own, default=0)
            band = "below +200" if best < 200 else "+200 to +500" if best < 500 else "+500 to +1,000" if best < 1000 else "+1,000 or more"
            c[f"losses, best score {band}"] += 1
            if any(v >= 300 and any(x <= -2000 for x in own[i + 1 : i + 5]) for i, v in enumerate(own)):
                c["losses with a collapse"] += 1
    for key in sorted(c):
        print(f"{key}: {c[key]}")


if __name__ == "__main__":
    main()
