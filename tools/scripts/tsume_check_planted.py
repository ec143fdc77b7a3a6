#!/usr/bin/env python3
"""Checks `soppo-tools tsume-check` on sound problems and on flaws planted in them, with
cshogi (`pip install cshogi`) as the independent judge of every planted flaw.

Usage (from the repository root, after `cargo build --release -p soppo-tools`):
    python3 tools/scripts/tsume_check_planted.py FILE [FILE ...] [--per-file N] [--binary PATH]

Each FILE holds one problem a line, `<SFEN> moves <USI main line>` (`#` lines are comments),
such as the ShogiBoardQ collections (github.com/hnakada123/ShogiBoardQ, data/tsumeshogi,
GPL-3.0: kept outside the project, e.g. in ~/.cache/soppo/tsume/), whose every problem is
checked there for the shortest mate and a unique main line (final-move alternatives allowed).
For the first N problems of each file:

- **sound**: the problem with its main line must be reported sound, and every other mating
  move at the last ply that cshogi finds (checkmate at once) must be among the tolerated
  final-move 余詰 reported;
- **komaamari**: one pawn moves from the defender's hand to the attacker's; the main line still
  mates and ends with the pawn in hand: 駒余り at the last ply;
- **hencho**: at the first defender ply where another evasion is mated in fewer plies (cshogi's
  df-pn proof, its line), the main line is replaced from there by that evasion and cshogi's
  line: 変長 at that ply (the original defence lasts longer);
- **hayazume**: at the first attacker ply where another check still mates (cshogi's df-pn) but
  by a line longer than the main line's rest, the main line is replaced from there by that
  check, the evasion with cshogi's longest line and that line: 早詰 at that ply;
- **yozume**: a gold (else a silver) moves from the defender's hand to the attacker's; at the
  first attacker ply but the last, among those with at most 9 plies left, where another check
  mates within the plies the main line has left (cshogi's exhaustive n-ply mate search after
  every evasion), 余詰 at that ply, not tolerated.

A planted case counts when tsume-check reports the expected kind at the expected ply. Prints
the counts per kind and every failure; exits with status 1 if any case fails.
"""
import argparse
import json
import os
import subprocess
import sys

import cshogi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def problems(path, n):
    out = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#') or ' moves ' not in line:
                continue
            sfen, moves = line.split(' moves ', 1)
            out.append((sfen, moves.split()))
            if len(out) >= n:
                break
    return out


def check(binary, sfen, line):
    r = subprocess.run([binary, 'tsume-check', sfen, '--line', ' '.join(line), '--json', '--time-ms', '60000'],
                       capture_output=True, text=True, timeout=120)
    if r.stdout.strip().startswith('{'):
        return json.loads(r.stdout)
    return {'error': (r.stderr or r.stdout).strip()}


def board_after(sfen, moves):
    b = cshogi.Board(sfen)
    for m in moves:
        b.push_usi(m)
    return b


def dfpn_line(board, depth=None):
    """cshogi's df-pn: a mating line from `board` (attacker to move), within `depth` plies if
    given; None if not proven."""
    d = cshogi.DfPn()
    if depth is not None:
        d.set_max_depth(depth)
    d.set_max_search_node(2_000_000)
    if not d.search(board):
        return None
    return [cshogi.move_to_usi(m) for m in d.get_pv(board)]


def move_hand_piece(sfen, letter):
    """Moves one piece `letter` (upper case) from the defender's (White's) hand to the
    attacker's (Black's); None if the defender has none."""
    board, side, hand, num = sfen.split()
    assert side == 'b'
    counts = {}
    if hand != '-':
        n = ''
        for c in hand:
            if c.isdigit():
                n += c
            else:
                counts[c] = counts.get(c, 0) + int(n or 1)
                n = ''
    low = letter.lower()
    if counts.get(low, 0) == 0:
        return None
    counts[low] -= 1
    counts[letter] = counts.get(letter, 0) + 1
    order = 'RBGSNLPrbgsnlp'
    text = ''.join((str(counts[c]) if counts[c] > 1 else '') + c for c in order if counts.get(c, 0) > 0)
    return f"{board} {side} {text or '-'} {num}"


def has_flaw(report, kind, ply, tolerated=None):
    return any(f['kind'] == kind and f['ply'] == ply and (tolerated is None or f['tolerated'] == tolerated)
               for f in report.get('flaws', []))


def last_ply_mates(sfen, line):
    b = board_after(sfen, line[:-1])
    found = set()
    for m in b.legal_moves:
        b.push(m)
        if b.is_check() and b.is_game_over():
            found.add(cshogi.move_to_usi(m))
        b.pop()
    return found - {line[-1]}


def alternatives(sfen, line, plies, same=lambda u, main: u == main):
    """For each ply j in `plies`: every legal move u other than the main line's (by `same`),
    played on the position before move j + 1; yields (j, plies left, u, the board after u)."""
    for j in plies:
        b = board_after(sfen, line[:j])
        for m in list(b.legal_moves):
            u = cshogi.move_to_usi(m)
            if same(u, line[j]):
                continue
            b.push(m)
            yield j, len(line) - j, u, b
            b.pop()


def plant_hencho(sfen, line):
    for j, rest, u, b in alternatives(sfen, line, range(1, len(line), 2)):
        pv = dfpn_line(b)
        planted = line[:j] + [u] + (pv or [])
        if pv is not None and 1 + len(pv) < rest and mating_line(sfen, planted):
            return planted, j + 1
    return None


def and_node_lines(board, depth=None):
    """Defender to move, in check: cshogi's df-pn line after each evasion (within `depth`
    plies if given), or None if some evasion is not proven mated."""
    lines = {}
    for m in list(board.legal_moves):
        board.push(m)
        pv = dfpn_line(board, depth)
        board.pop()
        if pv is None:
            return None
        lines[cshogi.move_to_usi(m)] = pv
    return lines


def plant_hayazume(sfen, line):
    for j, rest, u, b in alternatives(sfen, line, range(0, len(line), 2)):
        lines = and_node_lines(b) if b.is_check() else None
        if not lines:
            continue
        reply, pv = max(lines.items(), key=lambda kv: len(kv[1]))
        planted = line[:j] + [u, reply] + pv
        if 2 + len(pv) > rest and mating_line(sfen, planted):
            return planted, j + 1
    return None


def mates_within(board, plies):
    """Defender to move, in check: whether every evasion is mated within `plies` plies in all
    (cshogi's exhaustive n-ply mate search, which counts useless interpositions as defences,
    so its mate is a tsume mate no longer)."""
    for m in list(board.legal_moves):
        board.push(m)
        if plies - 1 == 1:
            found = board.mate_move_in_1ply()
        else:
            found = plies - 1 >= 3 and board.mate_move(plies - 1)
        board.pop()
        if not found:
            return False
    return True


def plant_yozume(sfen, line):
    """A gold (else a silver) moved to the attacker's hand; the first of the last attacker
    plies but the last (at most 9 plies left, for cshogi's exhaustive search) where another
    check mates within the plies left."""
    for piece in 'GS':
        planted = move_hand_piece(sfen, piece)
        if planted is None:
            continue
        plies = range(max(0, len(line) - 9), len(line) - 1, 2)
        # The main move with or without promotion is tolerated (成不成非限定).
        same = lambda u, main: u.rstrip('+') == main.rstrip('+')  # noqa: E731
        for j, rest, _, b in alternatives(planted, line, plies, same):
            if b.is_check() and mates_within(b, rest - 1):
                return planted, j + 1
        return None
    return None


def mating_line(sfen, line):
    """Odd, every attacker move a check, checkmate at the end (cshogi)."""
    if len(line) % 2 == 0:
        return False
    b = cshogi.Board(sfen)
    for i, m in enumerate(line):
        b.push_usi(m)
        if i % 2 == 0 and not b.is_check():
            return False
    return b.is_check() and b.is_game_over()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('files', nargs='+')
    ap.add_argument('--per-file', type=int, default=20)
    ap.add_argument('--binary', default=os.path.join(ROOT, 'target', 'release', 'soppo-tools'))
    args = ap.parse_args()
    counts = {}
    failures = []

    def record(kind, ok, what):
        passed, total = counts.get(kind, (0, 0))
        counts[kind] = (passed + ok, total + 1)
        if not ok:
            failures.append(f'{kind}: {what}')

    for path in args.files:
        for sfen, line in problems(path, args.per_file):
            r = check(args.binary, sfen, line)
            extra = last_ply_mates(sfen, line)
            reported = {f['line'].split()[0] for f in r.get('flaws', [])
                        if f['kind'] == 'yozume' and f['ply'] == len(line) and f['tolerated']}
            record('sound', r.get('sound') is True and extra <= reported, f'{sfen} {line}: {r}')
            planted = move_hand_piece(sfen, 'P')
            if planted is not None:
                r = check(args.binary, planted, line)
                record('komaamari', has_flaw(r, 'komaamari', len(line)), f'{planted}: {r}')
            h = plant_hencho(sfen, line)
            if h is not None:
                r = check(args.binary, sfen, h[0])
                record('hencho', has_flaw(r, 'hencho', h[1]), f'{sfen} {h}: {r}')
            h = plant_hayazume(sfen, line)
            if h is not None:
                r = check(args.binary, sfen, h[0])
                record('hayazume', has_flaw(r, 'hayazume', h[1]), f'{sfen} {h}: {r}')
            y = plant_yozume(sfen, line)
            if y is not None:
                r = check(args.binary, y[0], line)
                record('yozume', has_flaw(r, 'yozume', y[1], tolerated=False), f'{y}: {r}')
    for kind, (passed, total) in counts.items():
        print(f'{kind}: {passed}/{total}')
    for f in failures[:20]:
        print('FAIL', f)
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
