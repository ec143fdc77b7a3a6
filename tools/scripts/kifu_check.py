#!/usr/bin/env python3
"""Cross-checks the soppo-kifu reader against a writer nobody here wrote: cshogi's KIF and CSA
exporters (`pip install cshogi`).

Usage (from the repository root):
    python3 tools/scripts/kifu_check.py [GAMES_TSV] [--out DIR] [--binary PATH]

GAMES_TSV (default `../shared/data/games_lishogi500.tsv` beside the checkout) holds one game a
line, `startpos moves ...` before the first tab. Every game is written by cshogi five times:

- `.kif`, the whole game, as cshogi writes `.kif` files: Shift_JIS (CP932), `手合割：平手`;
- `.kifu`, the same in UTF-8 (cshogi picks the encoding by the extension);
- `.csa`, the whole game from `PI`, a `T` line after every move, `%TORYO`;
- `-bod.kif`, the second half of the game from a board diagram (BOD, hands included) of the
  position at its middle;
- `-p.csa`, the same second half from CSA `P1`..`P9` rows and `P+`/`P-` hands.

It then builds and runs `kifu2usi` (`cargo build --release -p soppo-kifu --example kifu2usi`)
on all the files and checks that each reads back to exactly the moves written and to the same
start position (compared as cshogi prints it, without the move number). It prints the count
per kind and the first failures, and exits with status 1 if any file fails.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

import cshogi
import cshogi.CSA
import cshogi.KIF

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = [
    ('.kif', 'KIF, Shift_JIS'),
    ('.kifu', 'KIF, UTF-8'),
    ('.csa', 'CSA from PI'),
    ('-bod.kif', 'KIF from a board diagram'),
    ('-p.csa', 'CSA from P1..P9'),
]
START = datetime.datetime(2024, 1, 1, 10, 0, 0)


def read_games(path):
    """The move lists of the first column's `startpos moves ...` lines."""
    games = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            words = line.split('\t')[0].split()
            if words[:1] != ['startpos'] or words[1:2] not in ([], ['moves']):
                sys.exit(f'{path}:{n}: not a `startpos moves ...` line')
            games.append(words[2:])
    return games


def position_key(sfen):
    """An SFEN as cshogi prints it, without the move number."""
    return ' '.join(cshogi.Board(sfen).sfen().split()[:3])


def write_kif(path, board, moves):
    kif = cshogi.KIF.Exporter(path)
    at_start = board.sfen() == cshogi.STARTING_SFEN
    kif.header(['sente', 'gote'], START, None if at_start else board.copy())
    for usi in moves:
        move = board.move_from_usi(usi)
        kif.move(move, 1, 1)
        board.push(move)
    kif.end('resign')
    kif.close()


def write_csa(path, board, moves):
    csa = cshogi.CSA.Exporter(path)
    at_start = board.sfen() == cshogi.STARTING_SFEN
    csa.info(cshogi.STARTING_SFEN if at_start else board.copy(), ['sente', 'gote'], version='V2.2')
    for usi in moves:
        move = board.move_from_usi(usi)
        csa.move(move, time=1)
        board.push(move)
    csa.endgame('%TORYO')
    csa.close()


def export(folder, games):
    """Writes every game in every kind; returns {path: (kind's suffix, start key, moves)}."""
    expected = {}
    for i, moves in enumerate(games):
        middle = cshogi.Board()
        for usi in moves[:len(moves) // 2]:
            middle.push_usi(usi)
        for suffix, _ in KINDS:
            path = os.path.join(folder, f'g{i:04}{suffix}')
            whole = suffix in ('.kif', '.kifu', '.csa')
            board = cshogi.Board() if whole else cshogi.Board(middle.sfen())
            line = moves if whole else moves[len(moves) // 2:]
            start = position_key(board.sfen())
            (write_csa if suffix.endswith('.csa') else write_kif)(path, board, line)
            expected[path] = (suffix, start, line)
    return expected


def build():
    subprocess.run(['cargo', 'build', '--release', '-p', 'soppo-kifu', '--example', 'kifu2usi'],
                   cwd=ROOT, check=True)
    meta = subprocess.run(['cargo', 'metadata', '--no-deps', '--format-version', '1'],
                          cwd=ROOT, check=True, capture_output=True, text=True)
    return os.path.join(json.loads(meta.stdout)['target_directory'], 'release', 'examples', 'kifu2usi')


def read_back(binary, paths):
    """kifu2usi's answer for every path, 500 paths a run."""
    got = {}
    for i in range(0, len(paths), 500):
        out = subprocess.run([binary] + paths[i:i + 500], check=True, capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            path, _, answer = line.partition('\t')
            got[path] = answer
    return got


def check(answer, start, moves):
    """None if kifu2usi's answer is the game written, else what differs."""
    if answer is None:
        return 'no answer'
    if not answer.startswith('sfen '):
        return answer
    sfen, _, usi = answer[5:].partition(' moves ')
    if position_key(sfen) != start:
        return f'start {sfen}, expected {start}'
    if usi.split() != moves:
        got = usi.split()
        n = next((k for k, (a, b) in enumerate(zip(got, moves)) if a != b), min(len(got), len(moves)))
        return f'{len(got)} moves, expected {len(moves)}; first difference at ply {n + 1}'
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('games', nargs='?', default=os.path.join(ROOT, '..', 'shared', 'data', 'games_lishogi500.tsv'))
    ap.add_argument('--out', help='write the records here and keep them (default: a temporary folder)')
    ap.add_argument('--binary', help='an already built kifu2usi (default: build it with cargo)')
    args = ap.parse_args()
    games = read_games(args.games)
    binary = args.binary or build()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.out or tmp
        os.makedirs(folder, exist_ok=True)
        expected = export(folder, games)
        got = read_back(binary, sorted(expected))
        failures = []
        counts = {suffix: 0 for suffix, _ in KINDS}
        for path, (suffix, start, moves) in sorted(expected.items()):
            problem = check(got.get(path), start, moves)
            if problem is None:
                counts[suffix] += 1
            else:
                failures.append(f'{os.path.basename(path)}: {problem}')
    for suffix, name in KINDS:
        print(f'{counts[suffix]}/{len(games)} {name} ({suffix})')
    for f in failures[:20]:
        print('FAIL', f)
    if failures:
        print(f'{len(failures)} files failed')
        sys.exit(1)


if __name__ == '__main__':
    main()
