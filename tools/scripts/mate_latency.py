"""Latency of `go mate` on Microcosmos: when the first `info ... pv` comes, when
`checkmate timeout` comes for `go mate 1000` and `go mate 3000`, and how soon `stop` is
answered after 1.5 s of `go mate infinite`; with Threads 1 and 2, USI_Hash 1024.

Usage: python3 tools/scripts/mate_latency.py BINARY
"""
import subprocess, sys, time
M='g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1'
for threads in (1,2):
    p=subprocess.Popen([sys.argv[1]],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
    def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
    def wait(pred):
        while True:
            l=p.stdout.readline()
            if pred(l): return l
    send("usi"); send(f"setoption name Threads value {threads}"); send("setoption name USI_Hash value 1024"); send("isready"); wait(lambda l:l.startswith("readyok"))
    send("position sfen "+M)
    for limit in (1000,3000):
        t=time.time(); send(f"go mate {limit}")
        first=None
        while True:
            l=p.stdout.readline()
            if " pv " in l and first is None: first=time.time()-t
            if l.startswith("checkmate"): break
        print(f"threads {threads} go mate {limit}: first pv {first*1000:.0f} ms, answer {(time.time()-t)*1000:.0f} ms: {l.strip()[:40]}")
    t=time.time(); send("go mate infinite"); time.sleep(1.5); t=time.time(); send("stop"); l=wait(lambda l:l.startswith("checkmate")); print(f"threads {threads} stop after 1.5 s: answer {(time.time()-t)*1000:.0f} ms later")
    send("quit"); p.wait()
