#!/usr/bin/env python3
"""Opens the KIF that `soppo-tools tsume --kif` writes in a KIF reader nobody here wrote:
python-shogi's (`pip install python-shogi`), which reads board diagrams (cshogi's reader does
not).

Usage (from the repository root, after `cargo build --release -p soppo-tools`):
    python3 tools/scripts/tsume_kif_reader.py [FILE ...] [--rows N] [--time-ms N] [--binary PATH]

FILEs default to the mate sets in `../shared/data` beside the checkout. For the first N rows
of each, the problem is solved with `tsume --kif` (UTF-8, `.kifu`), the file is read with
python-shogi, and its board and hands must be the problem's and its moves the answer's.
python-shogi's move pattern has no `不成` and no two-character promoted pieces (`成香`,
`成桂`, `成銀`), which KIF (Kakinoki's format, and the GUIs) writes: answers with such moves
are counted apart, not as failures. Its side to move is not compared (it turns the side once
per move read). Exits with status 1 on any failure.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import shogi.KIF

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(os.path.dirname(ROOT), 'shared', 'data')
DEFAULT_FILES = ['mate3_yaneuraou.tsv', 'mate5_yaneuraou.tsv', 'mate7_yaneuraou.tsv', 'mate9_yaneuraou.tsv',
                 'mate11_yaneuraou.tsv', 'mudaai6.tsv']


def hand_counts(hand):
    """`{'S': 1, 'P': 6, ...}` from an SFEN hand field (python-shogi writes counts of 1 too)."""
    counts, n = {}, ''
    for c in '' if hand == '-' else hand:
        if c.isdigit():
            n += c
        else:
            counts[c] = counts.get(c, 0) + int(n or 1)
            n = ''
    return counts


def same_position(a, b):
    """Same board and hands (python-shogi's side to move is not compared)."""
    a, b = a.split(), b.split()
    return a[0] == b[0] and hand_counts(a[2]) == hand_counts(b[2])


def rows(path, n):
    out = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            out.append(line.split('\t')[0].strip())
            if len(out) >= n:
                break
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('files', nargs='*')
    ap.add_argument('--rows', type=int, default=30)
    ap.add_argument('--time-ms', type=int, default=3000)
    ap.add_argument('--binary', default=os.path.join(ROOT, 'target', 'release', 'soppo-tools'))
    args = ap.parse_args()
    files = args.files or [os.path.join(DATA, f) for f in DEFAULT_FILES]
    read = unreadable_moves = failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            for i, sfen in enumerate(rows(path, args.rows)):
                out = os.path.join(tmp, f'{i}.kifu')
                r = subprocess.run([args.binary, 'tsume', sfen, '--time-ms', str(args.time_ms), '--kif', out],
                                   capture_output=True, text=True)
                if not os.path.exists(out):
                    continue
                lines = r.stdout.splitlines()
                usi = lines[1].split() if len(lines) > 1 else []
                with open(out, encoding='utf-8') as f:
                    text = f.read()
                if '不成' in text or '成香' in text or '成桂' in text or '成銀' in text:
                    unreadable_moves += 1
                    continue
                got = shogi.KIF.Parser.parse_str(text)[0]
                if not same_position(got['sfen'], sfen) or got['moves'] != usi:
                    failures += 1
                    print(f'FAIL {path}: {sfen}: read {got["sfen"]} {got["moves"]}, wrote {usi}')
                read += 1
    print(f'{read} KIF files read back by python-shogi, {failures} failures; '
          f'{unreadable_moves} left out (不成 or a two-character promoted piece in the answer)')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
