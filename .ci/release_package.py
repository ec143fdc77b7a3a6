"""Packs Soppo's release archive (called by .ci/release.sh, which builds the binaries).

The archive holds one folder, NAME/, with the binaries (debug information stripped), README.md,
the licence files, THIRD-PARTY-LICENSES.txt (the licences of the crates linked into the
binaries, from `cargo metadata`) and empty eval/ and book/ folders with a note each. Entries
are sorted and dated from SOURCE_DATE_EPOCH (else the last commit), so the same binaries give
the same archive. A Windows binary that imports a DLL Windows does not have (MinGW's
libgcc_s_seh-1.dll, libwinpthread-1.dll, ...) is refused: the .exe must run on its own.
"""

import argparse
import hashlib
import io
import json
import os
import shlex
import shutil
import struct
import subprocess
import sys
import tarfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EVAL_NOTE = """\
Soppo's evaluation network goes in this folder, as nn.bin.

Put an NNUE evaluation file in YaneuraOu's format here and name it nn.bin (for instance
SuishoPetite's K+P 256 net). Soppo reads it at `isready` and says in an `info string` which
network it loaded, or why it could not. Without a readable nn.bin Soppo plays with its own
hand-crafted evaluation.

This folder is found beside soppo{exe} whatever the GUI's working folder is. The `EvalDir`
option names another folder (absolute, or relative to soppo{exe}'s folder); `EvalFile` names
one file. See README.md.
"""

BOOK_NOTE = """\
Opening books go in this folder: YaneuraOu's `.db` books (user_book1.db, standard_book.db, ...).
Set the `BookFile` option to the book's name to play from it (`no_book`, the default, plays
without). This folder is found beside soppo{exe} whatever the GUI's working folder is; the
`BookDir` option names another one, absolute or relative to soppo{exe}'s folder. See README.md.
"""

# DLLs every x86-64 Windows from 10 on has. api-ms-win-* are API sets of the system.
SYSTEM_DLLS = {"kernel32.dll", "ntdll.dll", "msvcrt.dll", "advapi32.dll", "bcryptprimitives.dll",
               "ws2_32.dll", "userenv.dll", "shell32.dll", "ole32.dll", "user32.dll", "bcrypt.dll",
               "secur32.dll", "crypt32.dll"}


def fail(message):
    sys.exit("release_package.py: " + message)


def pe_imports(path):
    """The DLL names in a PE file's import table."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] != b"MZ":
        fail("%s is not a Windows executable" % path)
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        fail("%s has no PE header" % path)
    sections, opt_size = struct.unpack_from("<H12xH", data, pe + 6)
    opt = pe + 24
    if struct.unpack_from("<H", data, opt)[0] != 0x20B:
        fail("%s is not a 64-bit executable" % path)
    import_rva = struct.unpack_from("<I", data, opt + 112 + 8)[0]  # data directory 1
    table = []
    for i in range(sections):
        s = opt + opt_size + 40 * i
        vsize, vaddr, rsize, raw = struct.unpack_from("<IIII", data, s + 8)
        table.append((vaddr, max(vsize, rsize), raw))

    def offset(rva):
        for vaddr, size, raw in table:
            if vaddr <= rva < vaddr + size:
                return rva - vaddr + raw
        fail("%s: RVA %#x outside every section" % (path, rva))

    names = []
    at = offset(import_rva) if import_rva else None
    while at is not None:
        name_rva, first_thunk = struct.unpack_from("<12xII", data, at)
        if name_rva == 0 and first_thunk == 0:
            break
        start = offset(name_rva)
        names.append(data[start:data.index(b"\0", start)].decode("ascii"))
        at += 20
    return names


def check_windows_imports(path):
    names = pe_imports(path)
    foreign = [n for n in names if n.lower() not in SYSTEM_DLLS and not n.lower().startswith("api-ms-win-")]
    if foreign:
        fail("%s needs DLLs Windows does not have: %s" % (os.path.basename(path), ", ".join(foreign)))
    return sorted({n.lower() for n in names})


def third_party_licences(triple, binaries):
    """The licence texts of the packages linked into the binaries (normal dependencies of
    soppo-engine and soppo-tools for `triple`; proc-macros, which run in the compiler, and
    their dependencies left out). Each distinct text once, with the crates that carry it."""
    meta = json.loads(subprocess.check_output(
        ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", triple], cwd=ROOT))
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}

    def proc_macro(pid):
        return any("proc-macro" in t["kind"] for t in packages[pid]["targets"])

    seen, todo = set(), [p["id"] for p in meta["packages"] if p["name"] in binaries]
    while todo:
        pid = todo.pop()
        if pid in seen or proc_macro(pid):
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                todo.append(dep["pkg"])
    crates = []
    texts = {}  # licence text -> the crates whose file it is
    for pid in sorted(seen - set(meta["workspace_members"]), key=lambda i: (packages[i]["name"], packages[i]["version"])):
        p = packages[pid]
        label = "%s %s" % (p["name"], p["version"])
        crates.append("  %s: %s  %s" % (label, p.get("license") or "(none given)", p.get("repository") or ""))
        folder = os.path.dirname(p["manifest_path"])
        files = [os.path.join(folder, f) for f in sorted(os.listdir(folder))
                 if f.upper().startswith(("LICENSE", "LICENCE", "COPYING", "NOTICE", "COPYRIGHT", "UNLICENSE"))]
        if not files and p.get("license_file"):
            files = [os.path.join(folder, p["license_file"])]
        for full in files:
            if os.path.isfile(full):
                with open(full, encoding="utf-8", errors="replace") as f:
                    text = f.read().strip()
                texts.setdefault(text, []).append("%s (%s)" % (label, os.path.basename(full)))
    out = io.StringIO()
    out.write("Soppo's binaries include these crates, under these licences:\n\n")
    out.write("\n".join(crates) + "\n")
    for text, owners in texts.items():
        out.write("\n%s\nThe licence file of %s:\n\n%s\n" % ("=" * 78, ", ".join(owners), text))
    return out.getvalue()


def archive_time():
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        return int(subprocess.check_output(["git", "log", "-1", "--format=%ct"], cwd=ROOT, text=True).strip())
    except (OSError, subprocess.CalledProcessError, ValueError):
        return int(time.time())


def pack(stage, name, fmt, path, when):
    entries = []
    for folder, dirs, files in os.walk(stage):
        dirs.sort()
        rel = os.path.relpath(folder, os.path.dirname(stage))
        entries.append((rel + "/", None))
        entries.extend((os.path.join(rel, f), os.path.join(folder, f)) for f in sorted(files))
    if fmt == "zip":
        stamp = time.gmtime(max(when, 315532800))[:6]  # zip dates start in 1980
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for arc, full in entries:
                info = zipfile.ZipInfo(arc.replace(os.sep, "/"), stamp)
                info.create_system = 3  # Unix, so that the modes below are kept by unzip
                if full is None:
                    info.external_attr = (0o40755 << 16) | 0x10
                    z.writestr(info, b"")
                else:
                    info.external_attr = (0o100755 if os.access(full, os.X_OK) else 0o100644) << 16
                    info.compress_type = zipfile.ZIP_DEFLATED
                    with open(full, "rb") as f:
                        z.writestr(info, f.read())
    else:
        with open(path, "wb") as raw:
            import gzip
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=when, compresslevel=9) as gz:
                with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                    for arc, full in entries:
                        info = tarfile.TarInfo(arc.rstrip("/"))
                        info.mtime, info.uid, info.gid, info.uname, info.gname = when, 0, 0, "", ""
                        if full is None:
                            info.type, info.mode = tarfile.DIRTYPE, 0o755
                            tar.addfile(info)
                        else:
                            info.size = os.path.getsize(full)
                            info.mode = 0o755 if os.access(full, os.X_OK) else 0o644
                            with open(full, "rb") as f:
                                tar.addfile(info, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--name", required=True, help="archive and folder name, soppo-<version>-<platform>-<arch>")
    ap.add_argument("--format", choices=["zip", "tar.gz"], required=True)
    ap.add_argument("--dist", required=True, help="output folder")
    ap.add_argument("--triple", required=True, help="the Rust target the binaries are built for")
    ap.add_argument("--binary", action="append", required=True)
    ap.add_argument("--strip", default="true", help="command that strips a binary in place ('true': none)")
    args = ap.parse_args()

    windows = "windows" in args.triple
    newline = "\r\n" if windows else "\n"
    exe = ".exe" if windows else ""
    os.makedirs(args.dist, exist_ok=True)
    stage = os.path.join(args.dist, args.name)
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)

    when = archive_time()
    # binutils writes SOURCE_DATE_EPOCH, not the time of day, into a stripped PE's header.
    os.environ["SOURCE_DATE_EPOCH"] = str(when)
    names = []
    for binary in args.binary:
        if not os.path.isfile(binary):
            fail("%s was not built" % binary)
        dest = os.path.join(stage, os.path.basename(binary))
        shutil.copy2(binary, dest)
        os.chmod(dest, 0o755)
        if args.strip != "true":
            subprocess.check_call(shlex.split(args.strip) + [dest])
        if windows:
            print("%s imports %s" % (os.path.basename(dest), ", ".join(check_windows_imports(dest))))
        names.append(os.path.basename(binary)[: -len(exe) or None])
    for f in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"]:
        shutil.copy2(os.path.join(ROOT, f), os.path.join(stage, f))
    for folder, note in [("eval", EVAL_NOTE), ("book", BOOK_NOTE)]:
        os.makedirs(os.path.join(stage, folder))
        with open(os.path.join(stage, folder, "README.txt"), "w", encoding="utf-8", newline=newline) as f:
            f.write(note.format(exe=exe))
    with open(os.path.join(stage, "THIRD-PARTY-LICENSES.txt"), "w", encoding="utf-8", newline=newline) as f:
        f.write(third_party_licences(args.triple, names))

    path = os.path.join(args.dist, args.name + "." + args.format)
    pack(stage, args.name, args.format, path, when)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(path + ".sha256", "w") as f:
        f.write("%s  %s\n" % (digest, os.path.basename(path)))
    for folder, _, files in sorted(os.walk(stage)):
        for f in sorted(files):
            full = os.path.join(folder, f)
            print("  %9d  %s" % (os.path.getsize(full), os.path.relpath(full, args.dist)))
    print("%s: %d bytes, sha256 %s" % (path, os.path.getsize(path), digest))


if __name__ == "__main__":
    main()
