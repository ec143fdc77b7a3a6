"""One USI engine process, for the scripts of tools/scripts: start it, the `usi` handshake,
options, `isready`, `position` + `go` and the answer, `quit`; every wait has a deadline.

A thread reads the engine's output into a queue, so that no wait blocks past its deadline
(cshogi.usi.Engine and cshogi.cli block forever on an engine that dies or hangs). A closed
output raises EngineDied, a deadline passed EngineTimeout.

    from usi_engine import Engine
    engine = Engine("target/release/soppo")
    engine.start()                       # `usi` ... `usiok`: engine.id_name, engine.declared
    engine.set_option("USI_Hash", 16)
    engine.isready()
    bestmove, ponder, ms, score = engine.go("position startpos", "go nodes 10000")
    engine.quit()
"""

import math
import os
import queue
import shlex
import shutil
import subprocess
import threading
import time


class EngineDied(Exception):
    """The engine closed its stdout (exited or crashed)."""


class EngineTimeout(Exception):
    """The engine did not answer in time."""


def command(engine):
    """An engine given as a path or a command line in one string ("/usr/games/fairy-stockfish",
    "gpsusi", "soppo --flag"), or as an argument list, as an argument list whose program is an
    absolute path. A bare name is looked up in PATH and /usr/games (where Debian puts gpsusi and
    fairy-stockfish)."""
    words = shlex.split(engine) if isinstance(engine, str) else list(engine)
    if os.sep not in words[0]:
        words[0] = shutil.which(words[0], path=os.environ.get("PATH", "") + os.pathsep + "/usr/games") or words[0]
    words[0] = os.path.abspath(words[0])
    return words


def deadline_in(seconds):
    """The monotonic deadline `seconds` from now (None: no deadline)."""
    return math.inf if seconds is None else time.monotonic() + seconds


class Engine:
    """One USI engine process. `label` names it in the log (default: the first word of its
    `id name`); `log`, an open text file, receives every line sent (`label< line`) and received
    (`label> line`) with a timestamp; the engine's stderr goes to `stderr_path` (appended), else
    nowhere."""

    def __init__(self, cmd, label=None, log=None, stderr_path=None):
        self.cmd = command(cmd)
        self.label = label
        self.log = log
        self.stderr_path = stderr_path
        self.proc = None
        self.lines = None
        self.id_name = None
        # Declared options: name -> the whole `option name ...` line.
        self.declared = {}

    # -- process ------------------------------------------------------------------------------

    def start(self, timeout=60.0):
        """Starts the process (in its program's directory) and does the `usi` handshake, reading
        `id name` and the declared options until `usiok`."""
        stderr = open(self.stderr_path, "ab") if self.stderr_path else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                text=True, encoding="utf-8", errors="replace", bufsize=1,
                cwd=os.path.dirname(self.cmd[0]) or None,
            )
        finally:
            if self.stderr_path:
                stderr.close()
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True).start()
        self.send("usi")
        self.declared = {}
        for line in self.read_until("usiok", timeout):
            if line.startswith("id name "):
                self.id_name = line[8:].strip()
            elif line.startswith("option name "):
                words = line.split()
                # The option name may contain spaces ("Move Overhead"): up to ` type `.
                name = " ".join(words[2:words.index("type")]) if "type" in words else words[2]
                self.declared[name] = line
        if self.label is None:
            self.label = (self.id_name or os.path.basename(self.cmd[0])).split()[0]

    @staticmethod
    def _reader(proc, lines):
        for line in proc.stdout:
            lines.put(line.rstrip("\r\n"))
        lines.put(None)

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        if self.proc is None:
            return
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except Exception:
            pass
        self.proc = None

    def quit(self, timeout=5.0):
        """`quit`, and the process killed if it has not exited within `timeout` s."""
        if self.proc is None:
            return
        try:
            self.send("quit")
            self.proc.wait(timeout=timeout)
        except Exception:
            self.kill()
        self.proc = None

    # -- protocol -----------------------------------------------------------------------------

    def send(self, text):
        if self.log:
            self.log.write("%.3f %s< %s\n" % (time.monotonic(), self.label, text))
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError, AttributeError):
            raise EngineDied()

    def readline(self, deadline):
        """The next line, EngineTimeout after `deadline` (monotonic), EngineDied on EOF."""
        try:
            if deadline == math.inf:
                line = self.lines.get()
            else:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineTimeout()
        if line is None:
            self.lines.put(None)  # keep reporting EOF
            raise EngineDied()
        if self.log:
            self.log.write("%.3f %s> %s\n" % (time.monotonic(), self.label, line))
        return line

    def read_until(self, token, timeout):
        """The lines up to the first whose first word is `token` (included)."""
        deadline = deadline_in(timeout)
        out = []
        while True:
            line = self.readline(deadline)
            out.append(line)
            if line.split()[:1] == [token]:
                return out

    def set_option(self, name, value):
        self.send("setoption name %s value %s" % (name, value))

    def isready(self, timeout=60.0):
        """`isready` ... `readyok`; returns the milliseconds it took."""
        start = time.monotonic()
        self.send("isready")
        self.read_until("readyok", timeout)
        return (time.monotonic() - start) * 1000

    def go(self, position, go_cmd, deadline=math.inf, each=None):
        """Sends `position` and `go_cmd` and reads the answer (see `answer`)."""
        self.send(position)
        start = time.monotonic()
        self.send(go_cmd)
        return self.answer(start, deadline, each)

    def answer(self, start, deadline=math.inf, each=None):
        """Reads up to `bestmove`, calling `each(line)` on every line before it. Returns (the move,
        the ponder move or None, milliseconds since `start`, the last `score` seen as `cp N` /
        `mate N`, or None)."""
        score = None
        while True:
            line = self.readline(deadline)
            if line.startswith("info") and " score " in line:
                words = line.split()
                i = words.index("score")
                score = " ".join(words[i + 1:i + 3])
            elif line.startswith("bestmove"):
                words = line.split()
                ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
                return (words[1] if len(words) > 1 else ""), ponder, (time.monotonic() - start) * 1000, score
            if each is not None:
                each(line)


def centipawns(score, mate=30000):
    """A `score` as `answer` returns it (`cp N` / `mate N`) in centipawns, a mate as ±`mate`;
    None for None."""
    if score is None:
        return None
    kind, _, value = score.partition(" ")
    if kind != "mate":
        return int(value)
    try:
        plies = int(value)
    except ValueError:  # `mate +` / `mate -` without a length
        plies = -1 if value.startswith("-") else 1
    return mate if plies >= 0 else -mate
