"""Soppo's Windows release, unzipped, under Wine: run by .ci/windows.sh, which builds the archive,
unzips it into a folder whose name has a space and Japanese characters, and calls

    python wine_check.py --exe '<...>/ソッポ テスト/soppo-<v>-windows-x86_64/soppo.exe' \\
        --linux target/release/soppo --wine wine64 --workdir <another folder> \\
        --lockfile <lockfile.exe> [--net nn.bin] [--games N]

The engine is started from another working directory, as GUIs do, and every command ends in
CRLF, as a Windows GUI sends it. Checked: the USI handshake; that `eval/nn.bin` beside the .exe
is found (`eval` at startpos prints `eval = 39` with SuishoPetite's net); `EvalDir`, `BookDir`
and `EvalFile` with Japanese folder names and spaces, in UTF-8 and in CP932; a missing folder, a
path too long for Windows and a locked file (one `info string` each, the engine keeps working);
`go byoyomi 1000` (a legal move, on time); `go mate` (a checked mate line); that `quit`, and
the GUI closing the pipe (idle or searching), end the process; no line starting with `error`.
Then a short cshogi.cli match against the Linux build. Options this build does not declare
(`EvalDir`, `BookDir`) and a missing net skip their checks with a message.
"""

import argparse
import os
import queue
import subprocess
import sys
import threading
import time

import cshogi
from cshogi import CSA

import common
from common import check

# The checks that were skipped, with the reason (printed at the end).
SKIPPED = []


START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def skip(what, why):
    SKIPPED.append("%s: %s" % (what, why))
    print("SKIPPED %s: %s" % (what, why), flush=True)


def ok(what):
    print("ok: " + what, flush=True)


def windows_path(path):
    """The name Wine gives a Linux path (its drive Z: is the Linux root)."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


class Engine:
    """soppo.exe under Wine, spoken to in bytes: a thread reads its output lines into a queue."""

    def __init__(self, args, label):
        self.label = label
        self.lines = []
        self.queue = queue.Queue()
        err = open(os.path.join(args.out, "stderr-%s.log" % label), "wb")
        self.proc = subprocess.Popen([args.wine, args.exe], cwd=args.workdir, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=err)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            self.lines.append(line)
            self.queue.put(line)
        self.queue.put(None)

    def send(self, line):
        data = line if isinstance(line, bytes) else line.encode("utf-8")
        self.proc.stdin.write(data + b"\r\n")
        self.proc.stdin.flush()

    def until(self, done, timeout, what):
        """The lines up to and including the first for which done(line) holds."""
        got = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise common.Failed("%s: no %s within %.0f s; got %s" % (self.label, what, timeout, got[-10:]))
            if line is None:
                raise common.Failed("%s: the engine closed its output waiting for %s; got %s"
                                    % (self.label, what, got[-10:]))
            got.append(line)
            if done(line):
                return got

    def usi(self):
        lines = self.until(lambda l: l == "usiok", 60, "usiok")
        return {l.split()[2] for l in lines if l.startswith("option name ")}, lines

    def isready(self, timeout=60):
        """The `info string` texts printed before `readyok`."""
        self.send("isready")
        lines = self.until(lambda l: l == "readyok", timeout, "readyok")
        return [l[len("info string "):] for l in lines if l.startswith("info string ")]

    def set(self, name, value):
        value = value if isinstance(value, bytes) else value.encode("utf-8")
        self.send(b"setoption name " + name.encode() + b" value " + value)

    def eval_value(self):
        self.send("eval")
        line = self.until(lambda l: l.startswith("eval = "), 30, "`eval = V`")[-1]
        return int(line.split("=")[1])

    def go_depth(self, depth=3):
        self.send("position startpos")
        self.send("go depth %d" % depth)
        return self.until(lambda l: l.startswith("bestmove"), 60, "bestmove")[-1]

    def exit_within(self, seconds, what):
        start = time.monotonic()
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise common.Failed("%s: the process was still running %.0f s after %s" % (self.label, seconds, what))
        return time.monotonic() - start

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        bad = [l for l in self.lines if l.startswith("error")]
        check(not bad, "%s: lines starting with `error`: %s" % (self.label, bad))


def one_info_string(engine, what, name, value, must_not_say=None):
    """`setoption name value` and `isready`: exactly one `info string`, then the engine plays."""
    engine.set(name, value)
    infos = engine.isready()
    check(len(infos) == 1, "%s: %d info strings (one wanted): %s" % (what, len(infos), infos))
    if must_not_say:
        check(must_not_say not in infos[0], "%s: %r says %r" % (what, infos[0], must_not_say))
    move = engine.go_depth()
    ok("%s: one info string (%s), then `%s`" % (what, infos[0], move))


def check_session(args, folders):
    """The handshake, the paths, bad input, `go byoyomi`, `go mate`, `quit`."""
    engine = Engine(args, "session")
    start = time.monotonic()
    engine.send("usi")
    declared, lines = engine.usi()
    names = [l for l in lines if l.startswith("id name ")]
    check(names and names[0].startswith("id name Soppo"), "id name: %s" % names)
    ok("usi ... usiok in %.1f s (%s, %d options), from the working directory %s"
       % (time.monotonic() - start, names[0][8:], len(declared), args.workdir))
    infos = engine.isready()
    ok("isready ... readyok; info strings: %s" % (infos or "none"))
    net_here = args.net and os.path.isfile(os.path.join(folders["exe"], "eval", "nn.bin"))

    # eval/nn.bin beside the .exe (the default EvalDir).
    if "EvalDir" not in declared:
        skip("eval/nn.bin beside soppo.exe", "this build declares no EvalDir option")
    elif not net_here:
        skip("eval/nn.bin beside soppo.exe", "no net given (--net)")
    else:
        check(any("nn.bin" in i for i in infos), "no info string names nn.bin at isready: %s" % infos)
        value = engine.eval_value()
        check(value == args.eval_value, "eval at startpos = %d, %d expected" % (value, args.eval_value))
        ok("eval/nn.bin beside the .exe found: eval = %d at startpos" % value)

    # EvalDir: absolute (UTF-8 and CP932) and relative to the .exe, with Japanese names and spaces.
    if "EvalDir" not in declared:
        skip("EvalDir with Japanese folder names", "this build declares no EvalDir option")
    elif not net_here:
        skip("EvalDir with Japanese folder names", "no net given (--net)")
    else:
        absolute = windows_path(folders["eval"])
        for label, value in [("absolute, UTF-8", absolute.encode("utf-8")),
                             ("absolute, CP932", absolute.encode("cp932")),
                             ("relative to the .exe", os.path.basename(folders["eval_rel"]).encode("utf-8"))]:
            engine.set("EvalDir", "eval_missing_for_a_moment")
            engine.isready()
            engine.set("EvalDir", value)
            infos = engine.isready()
            v = engine.eval_value()
            check(v == args.eval_value, "EvalDir %s: eval = %d (%s)" % (label, v, infos))
            ok("EvalDir %s %s: eval = %d" % (label, value.decode("cp932" if "CP932" in label else "utf-8"), v))
        one_info_string(engine, "EvalDir a missing folder", "EvalDir", windows_path(folders["missing"]))
        engine.set("EvalDir", "eval")
        engine.isready()

    # EvalFile: a file in a Japanese folder with a space is found, whatever it holds.
    target = os.path.join(folders["eval"], "nn.bin")
    for label, value in [("UTF-8", windows_path(target).encode("utf-8")),
                         ("CP932", windows_path(target).encode("cp932"))]:
        engine.set("EvalFile", value)
        infos = engine.isready()
        said = " | ".join(infos)
        check("os error 2)" not in said and "os error 3)" not in said, "EvalFile %s not found: %s" % (label, said))
        if "EvalDir" in declared and net_here:
            v = engine.eval_value()
            check(v == args.eval_value, "EvalFile %s: eval = %d (%s)" % (label, v, said))
            ok("EvalFile %s %s: eval = %d" % (label, windows_path(target), v))
        else:
            ok("EvalFile %s %s found and read: %s" % (label, windows_path(target), said or "no info string"))
    engine.set("EvalFile", "")
    engine.isready()

    # BookDir.
    if "BookDir" not in declared:
        skip("BookDir with a Japanese folder name", "this build declares no BookDir option")
    else:
        # A one-position book in the Japanese folder, named as YaneuraOu names user books.
        with open(os.path.join(folders["book"], "user_book1.db"), "w", newline="\r\n") as f:
            f.write("#YANEURAOU-DB2016 1.00\nsfen %s\n2g2f 8c8d 50 16 1\n" % START_SFEN)
        engine.set("BookDir", windows_path(folders["book"]))
        engine.set("BookFile", "user_book1.db")
        infos = engine.isready()
        check(any(i.startswith("book: loaded") for i in infos), "BookDir %s: %s" % (folders["book"], infos))
        best = engine.go_depth(3)
        check(best == "bestmove 2g2f ponder 8c8d", "the book's move from BookDir %s: %s" % (folders["book"], best))
        ok("BookDir %s: %s, then `%s`" % (windows_path(folders["book"]), infos, best))
        engine.set("BookFile", "no_book")
        engine.set("BookDir", "book")
        engine.isready()

    # Bad input: a missing file, a path too long for Windows, a locked file.
    one_info_string(engine, "EvalFile a missing file", "EvalFile", windows_path(folders["missing"]) + "\\nn.bin")
    long_path = "Z:\\" + "\\".join(["長いフォルダ名" + "x" * 40] * 8) + "\\nn.bin"
    one_info_string(engine, "EvalFile a path of %d characters" % len(long_path), "EvalFile", long_path)
    locker = subprocess.Popen([args.wine, args.lockfile, windows_path(target)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, cwd=args.workdir)
    said = locker.stdout.readline().decode().strip()
    try:
        check(said == "locked", "lockfile.exe: %r" % said)
        one_info_string(engine, "EvalFile a locked file", "EvalFile", windows_path(target), must_not_say="os error 2)")
    finally:
        locker.stdin.close()
        locker.wait(timeout=30)
    engine.set("EvalFile", "")
    engine.isready()
    engine.send("setoption name NoSuchOption value 1")
    engine.send("bogus command")
    infos = engine.isready()
    check(any("NoSuchOption" in i for i in infos) and any("bogus" in i for i in infos),
          "an unknown option and command: %s" % infos)
    ok("an unknown option and an unknown command: an info string each")

    # go byoyomi 1000 at startpos; the bestmove comes while the process runs (stdout flushed).
    engine.send("usinewgame")
    engine.isready()
    engine.send("position startpos")
    start = time.monotonic()
    engine.send("go btime 0 wtime 0 byoyomi 1000")
    answer = engine.until(lambda l: l.startswith("bestmove"), 10, "bestmove")[-1]
    took = time.monotonic() - start
    move = answer.split()[1]
    check(common.is_legal(cshogi.Board(), move), "illegal bestmove %s" % answer)
    check(took < 1000 / 1000 + 1.0, "bestmove after %.2f s at byoyomi 1000" % took)
    ok("go byoyomi 1000: `%s` after %.2f s" % (answer, took))
    engine.send("gameover win")

    # go mate.
    for sfen in (common.TSUME5, common.MATE3):
        engine.send("position sfen " + sfen)
        engine.send("go mate 10000")
        answer = engine.until(lambda l: l.startswith("checkmate"), 30, "checkmate")[-1]
        moves = answer.split()[1:]
        common.check_mate_line(sfen, moves)
        ok("go mate %s: `%s`" % (sfen, answer))

    engine.send("quit")
    took = engine.exit_within(10, "quit")
    engine.close()
    ok("quit: the process ended in %.2f s" % took)


def check_pipe_closed(args):
    """The GUI closing the pipe ends the process, idle and in the middle of a search."""
    engine = Engine(args, "eof-idle")
    engine.send("usi")
    engine.usi()
    engine.isready()
    engine.proc.stdin.close()
    took = engine.exit_within(10, "stdin closed")
    engine.close()
    ok("stdin closed while idle: the process ended in %.2f s" % took)

    engine = Engine(args, "eof-search")
    engine.send("usi")
    engine.usi()
    engine.isready()
    engine.send("position startpos")
    engine.send("go infinite")
    engine.until(lambda l: l.startswith("info depth"), 30, "a search info")
    engine.proc.stdin.close()
    took = engine.exit_within(10, "stdin closed during go infinite")
    engine.close()
    ok("stdin closed during `go infinite`: the process ended in %.2f s" % took)


def check_match(args):
    """A short cshogi.cli match: soppo.exe under Wine (through a wrapper script in the working
    directory) against the Linux build; illegal moves, time losses and crashes fail it."""
    if args.games == 0:
        skip("cshogi match", "--games 0")
        return
    wrapper = os.path.join(args.workdir, "soppo-wine")
    with open(wrapper, "w") as f:
        f.write("#!/bin/sh\nexec %s %s\n" % (args.wine, "'" + args.exe.replace("'", "'\\''") + "'"))
    os.chmod(wrapper, 0o755)
    csa_dir = os.path.join(args.out, "cshogi-wine")
    os.makedirs(csa_dir, exist_ok=True)
    for f in os.listdir(csa_dir):
        os.remove(os.path.join(csa_dir, f))
    cmd = [sys.executable, "-m", "cshogi.cli", wrapper, os.path.abspath(args.linux),
           "--name1", "soppo.exe-wine", "--name2", "soppo-linux", "--options1", "USI_Hash:16",
           "--options2", "USI_Hash:16", "--games", str(args.games), "--draw", str(args.draw),
           "--byoyomi", str(args.byoyomi), "--csa", csa_dir]
    print("$ " + " ".join(cmd), flush=True)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8",
                              env=dict(os.environ, PYTHONIOENCODING="utf-8"), timeout=args.match_timeout)
    except subprocess.TimeoutExpired as e:
        raise common.Failed("cshogi.cli did not finish within %d s\n%s" % (args.match_timeout, e.stdout))
    check(proc.returncode == 0, "cshogi.cli exited with %d:\n%s" % (proc.returncode, proc.stderr))
    results = [l for l in proc.stdout.splitlines() if l.startswith("まで")]
    for line in results:
        print("  " + line)
        check("反則" not in line and "切れ負け" not in line, "foul or time loss: " + line)
    check(len(results) == args.games, "%d game results for %d games" % (len(results), args.games))
    plies = 0
    for record in sorted(os.listdir(csa_dir)):
        for game in CSA.Parser.parse_file(os.path.join(csa_dir, record)):
            board = cshogi.Board(game.sfen)
            for move in game.moves:
                check(board.is_legal(move), "%s: illegal move %s" % (record, cshogi.move_to_usi(move)))
                board.push(move)
            plies += len(game.moves)
    ok("cshogi match, soppo.exe (Wine) vs Linux soppo, byoyomi %d: %d games, %d plies, %.0f s; all legal, no time loss"
       % (args.byoyomi, args.games, plies, time.monotonic() - start))


def run():
    ap = argparse.ArgumentParser(description="Soppo's Windows release under Wine")
    ap.add_argument("--exe", required=True, help="soppo.exe in the unzipped release")
    ap.add_argument("--linux", required=True, help="the Linux soppo, the match's opponent")
    ap.add_argument("--wine", default="wine64")
    ap.add_argument("--workdir", required=True, help="the engine's working directory (not the .exe's)")
    ap.add_argument("--lockfile", required=True, help="lockfile.exe (.ci/wine/lockfile.c)")
    ap.add_argument("--net", default="", help="nn.bin (SuishoPetite's) copied into eval/ and the test folders")
    ap.add_argument("--eval-value", type=int, default=39, help="`eval` at startpos with --net")
    ap.add_argument("--out", required=True, help="folder for logs and CSA records")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--byoyomi", type=int, default=200)
    ap.add_argument("--draw", type=int, default=80, help="plies after which a match game is drawn")
    ap.add_argument("--match-timeout", type=int, default=300)
    args = ap.parse_args(sys.argv[1:])
    for name in ("exe", "out", "workdir", "lockfile", "linux"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    if os.sep in args.wine:
        args.wine = os.path.abspath(args.wine)
    os.makedirs(args.out, exist_ok=True)
    exe_dir = os.path.dirname(args.exe)
    check(os.path.abspath(args.workdir) != exe_dir, "--workdir must differ from the .exe's folder")
    parent = os.path.dirname(exe_dir)
    folders = {
        "exe": exe_dir,
        "eval": os.path.join(parent, "評価 関数"),
        "eval_rel": os.path.join(exe_dir, "評価 関数"),
        "book": os.path.join(parent, "定跡 ブック"),
        "missing": os.path.join(parent, "無い フォルダ"),
    }
    for key in ("eval", "eval_rel", "book"):
        os.makedirs(folders[key], exist_ok=True)
    for key in ("eval", "eval_rel"):
        dest = os.path.join(folders[key], "nn.bin")
        if args.net:
            with open(args.net, "rb") as src, open(dest, "wb") as out:
                out.write(src.read())
        elif not os.path.exists(dest):
            with open(dest, "wb") as out:
                out.write(b"not a network\n")
    if args.net:
        with open(args.net, "rb") as src, open(os.path.join(exe_dir, "eval", "nn.bin"), "wb") as out:
            out.write(src.read())
    else:
        skip("the net checks", "no --net (SuishoPetite's nn.bin, in ../shared) given")
    check_session(args, folders)
    check_pipe_closed(args)
    check_match(args)
    print("wine check: OK%s" % ("" if not SKIPPED else " (%d skipped: %s)" % (len(SKIPPED), "; ".join(SKIPPED))))


if __name__ == "__main__":
    common.main(run)
