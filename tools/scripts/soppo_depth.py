"""SS-Cut / DS-Cut at fixed depth: nodes and best moves against SoppoCut Off.

Usage: python3 tools/scripts/soppo_depth.py BINARY GAMES_TSV N DEPTH [DISTANCE] [--before P] [--full-depth]
Takes from each game of GAMES_TSV (`startpos moves ...` in the first column) the position
P plies before its end (default 12), keeps the first N, and searches each with `go depth DEPTH`
under SoppoCut Off, Static and Dynamic (USI_Hash 16, `usinewgame` before each search).
DISTANCE sets SoppoDistance, the fixed distance of Static (default: the engine's, 5).

Many positions near the end of a game hold a forced mate that the search finds at once; it
then stops long before DEPTH, and such positions say nothing about pruning. The report counts
the searches that reached DEPTH; with --full-depth only the positions whose Off search reached
it are compared.
"""
import subprocess, sys, time

def positions(path, n, before):
    out = []
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        moves = line.split("\t")[0].split()
        if moves[:2] != ["startpos", "moves"]:
            continue
        plies = moves[2:]
        if len(plies) < 28 + before:
            continue
        out.append("startpos moves " + " ".join(plies[: len(plies) - before]))
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
        reached = 0
        while True:
            l = p.stdout.readline()
            t = l.split()
            if t and t[0] == "info" and "nodes" in t:
                nodes = int(t[t.index("nodes") + 1])
            if t and t[0] == "info" and "depth" in t:
                reached = max(reached, int(t[t.index("depth") + 1]))
            if t and t[0] == "bestmove":
                results.append((nodes, t[1], reached))
                break
    send("quit"); p.wait()
    return results, time.time() - t0

args = sys.argv[1:]
full_depth = "--full-depth" in args
args = [a for a in args if a != "--full-depth"]
before = 12
if "--before" in args:
    i = args.index("--before")
    before = int(args[i + 1])
    del args[i : i + 2]
binary, games, n, depth = args[0], args[1], int(args[2]), int(args[3])
distance = int(args[4]) if len(args) > 4 else None
poss = positions(games, n, before)
base, tb = search_all(binary, "Off", poss, depth)
full = sum(1 for _, _, r in base if r >= depth)
print(f"Off: {sum(x for x, _, _ in base)} nodes, {tb:.1f} s, {len(poss)} positions {before} plies before the end, "
      f"depth {depth}; {full} searches reached it")
keep = [i for i, (_, _, r) in enumerate(base) if r >= depth or not full_depth]
if full_depth:
    print(f"compared: the {len(keep)} positions whose Off search reached depth {depth}")
base_nodes = sum(base[i][0] for i in keep)
for mode in ("Static", "Dynamic"):
    res, t = search_all(binary, mode, poss, depth)
    nodes = sum(res[i][0] for i in keep)
    same = sum(1 for i in keep if base[i][1] == res[i][1])
    red = 100.0 * (1 - nodes / max(1, base_nodes))
    print(f"{mode}: {nodes} nodes ({red:.1f}% fewer), {t:.1f} s, same best move {same}/{len(keep)} ({100.0*same/max(1, len(keep)):.1f}%)")
