"""SS-Cut / DS-Cut at fixed depth: nodes and best moves against SoppoCut Off.

Usage: python3 tools/scripts/soppo_depth.py BINARY GAMES_TSV N DEPTH [DISTANCE]
Takes from each game of GAMES_TSV (`startpos moves ...` in the first column) the position
12 plies before its end, keeps the first N, and searches each with `go depth DEPTH` under
SoppoCut Off, Static and Dynamic (USI_Hash 16, `usinewgame` before each search). DISTANCE sets
SoppoDistance, the fixed distance of Static (default: the engine's, 5).
"""
import subprocess, sys, time

def positions(path, n):
    out = []
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        moves = line.split("\t")[0].split()
        if moves[:2] != ["startpos", "moves"]:
            continue
        plies = moves[2:]
        if len(plies) < 40:
            continue
        out.append("startpos moves " + " ".join(plies[: len(plies) - 12]))
        if len(out) == n:
            break
    return out

def search_all(binary, mode, poss, depth):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s):
        p.stdin.write(s + "\n"); p.stdin.flush()
    send("usi"); send("setoption name USI_Hash value 16"); send(f"setoption name SoppoCut value {mode}")
    if distance is not None:
        send(f"setoption name SoppoDistance value {distance}")
    send("isready")
    while not p.stdout.readline().startswith("readyok"):
        pass
    results = []
    t0 = time.time()
    for pos in poss:
        send("usinewgame"); send("position " + pos); send(f"go depth {depth}")
        nodes = 0
        while True:
            l = p.stdout.readline()
            t = l.split()
            if t and t[0] == "info" and "nodes" in t:
                nodes = int(t[t.index("nodes") + 1])
            if t and t[0] == "bestmove":
                results.append((nodes, t[1]))
                break
    send("quit"); p.wait()
    return results, time.time() - t0

binary, games, n, depth = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
distance = int(sys.argv[5]) if len(sys.argv) > 5 else None
poss = positions(games, n)
base, tb = search_all(binary, "Off", poss, depth)
print(f"Off: {sum(x for x, _ in base)} nodes, {tb:.1f} s, {len(poss)} positions, depth {depth}")
for mode in ("Static", "Dynamic"):
    res, t = search_all(binary, mode, poss, depth)
    nodes = sum(x for x, _ in res)
    same = sum(1 for (_, a), (_, b) in zip(base, res) if a == b)
    red = 100.0 * (1 - nodes / max(1, sum(x for x, _ in base)))
    print(f"{mode}: {nodes} nodes ({red:.1f}% fewer), {t:.1f} s, same best move {same}/{len(poss)} ({100.0*same/len(poss):.1f}%)")
