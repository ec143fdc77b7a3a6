"""Counts the mates a USI engine finds within a search limit.

Usage: python3 tools/scripts/mate_find.py BINARY FILE N "go nodes 20000"
Runs the first N positions of FILE (SFEN in the first tab-separated column) and counts those
whose last `info ... score` line before `bestmove` says `score mate +`.
"""
import subprocess, sys, time
def run(binary, sfens, go):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    send("usi"); send("setoption name USI_Hash value 16"); send("isready")
    while not p.stdout.readline().startswith("readyok"): pass
    found = 0; t0 = time.time(); nodes = 0
    for s in sfens:
        send("usinewgame"); send("position sfen " + s); send(go)
        last = ""
        while True:
            l = p.stdout.readline()
            if l.startswith("info") and " score " in l: last = l
            if l.startswith("bestmove"): break
        if " score mate " in last and " score mate -" not in last: found += 1
        toks = last.split()
        if "nodes" in toks: nodes += int(toks[toks.index("nodes") + 1])
    send("quit"); p.wait()
    return found, time.time() - t0, nodes
sfens = [l.split("\t")[0] for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")][: int(sys.argv[3])]
f, t, n = run(sys.argv[1], sfens, sys.argv[4])
print(f"{sys.argv[1]}: {f}/{len(sfens)} mates found with '{sys.argv[4]}', {t:.2f} s, {n} nodes")
