#!/usr/bin/env bash
# Soppo's Windows release, cross-built and tested under Wine (issue 64's CI step):
#   1. the Windows archive by .ci/release.sh, with the quicker `ci-windows` profile;
#   2. unzipped into a folder whose name has a space and Japanese characters, SuishoPetite's
#      nn.bin (from ../shared, when there) put in its eval/;
#   3. tests/clients/wine_check.py: soppo.exe started under Wine from another working
#      directory: handshake, nets and paths, bad input, go byoyomi, go mate, quit and EOF, and a
#      short cshogi.cli match against the Linux build.
# Skipped with a message where MinGW-w64 or Wine is missing and cannot be installed (it tries
# `apt-get install gcc-mingw-w64-x86-64 wine64` as root or with sudo; SOPPO_WINDOWS_APT=0 stops
# that), or where the Rust target x86_64-pc-windows-gnu cannot be added. Set
# SOPPO_WINDOWS_SKIP=<reason> to skip it; SOPPO_WINDOWS_UNIT=1 also runs the engine's unit
# tests under Wine; SOPPO_WINDOWS_GAMES (default 2) sets the match's length;
# SOPPO_WINDOWS_NET another nn.bin. Needs the venv of .ci/clients.sh (made here if absent)
# and builds target/release/soppo (already built by .ci/bench.sh in .ci/run).
# Wine is not Windows: bcryptprimitives.dll, which Rust's standard library needs and Wine 8
# lacks, is stood in for by .ci/wine/processprng.c, built here beside the unzipped soppo.exe and
# never shipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$SECONDS
target_dir=${CARGO_TARGET_DIR:-target}
case $target_dir in /*) ;; *) target_dir=$root/$target_dir ;; esac
out=$target_dir/ci-windows
triple=x86_64-pc-windows-gnu

skip() {
    echo "windows.sh: SKIPPED: $*"
    exit 0
}
[ -z "${SOPPO_WINDOWS_SKIP:-}" ] || skip "$SOPPO_WINDOWS_SKIP"

find_wine() {
    command -v wine64 || command -v wine || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; } || true
}

echo "== windows: MinGW-w64, Wine, the Rust target"
wine=$(find_wine)
if ! command -v x86_64-w64-mingw32-gcc >/dev/null || [ -z "$wine" ]; then
    sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo -n)
    if [ "${SOPPO_WINDOWS_APT:-1}" != 0 ] && command -v apt-get >/dev/null && "${sudo[@]}" true 2>/dev/null; then
        echo "installing gcc-mingw-w64-x86-64 wine64 with apt-get"
        apt_start=$SECONDS
        export DEBIAN_FRONTEND=noninteractive
        apt_install=("${sudo[@]}" apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64 wine64)
        "${apt_install[@]}" >"$target_dir/apt-windows.log" 2>&1 ||
            { "${sudo[@]}" apt-get update -qq && "${apt_install[@]}" >"$target_dir/apt-windows.log" 2>&1; } ||
            skip "apt-get could not install gcc-mingw-w64-x86-64 wine64 (log: $target_dir/apt-windows.log)"
        echo "apt-get: $((SECONDS - apt_start)) s"
        wine=$(find_wine)
    fi
    command -v x86_64-w64-mingw32-gcc >/dev/null || skip "no x86_64-w64-mingw32-gcc (apt-get install gcc-mingw-w64-x86-64)"
    [ -n "$wine" ] || skip "no Wine (apt-get install wine64)"
fi
if ! rustup target list --installed 2>/dev/null | grep -qx "$triple"; then
    command -v rustup >/dev/null || skip "no rustup to add the Rust target $triple"
    rustup target add "$triple" || skip "rustup could not add the Rust target $triple"
fi
echo "$(x86_64-w64-mingw32-gcc --version | head -n 1); $("$wine" --version); $wine"

echo "== windows: the archive (.ci/release.sh windows, profile ci-windows)"
build_start=$SECONDS
SOPPO_RELEASE_PROFILE=ci-windows SOPPO_DIST=$out/dist bash .ci/release.sh windows
zip=$(ls "$out"/dist/soppo-*-windows-x86_64.zip)
echo "archive built in $((SECONDS - build_start)) s"

# Unzipped where the path has a space and Japanese characters, as a user's folder may.
home="$out/ソッポ テスト"
rm -rf "$home"
mkdir -p "$home"
"${PYTHON:-python3}" -m zipfile -e "$zip" "$home"
folder=$(ls -d "$home"/soppo-*-windows-x86_64)
exe=$folder/soppo.exe
[ -f "$exe" ] || { echo "windows.sh: no soppo.exe in $zip" >&2; exit 1; }
[ -d "$folder/eval" ] && [ -d "$folder/book" ] || { echo "windows.sh: no eval/ or book/ folder in $zip" >&2; exit 1; }
if ls "$folder" | grep -qi '\.dll$'; then
    echo "windows.sh: the archive holds a DLL: $(ls "$folder" | grep -i '\.dll$')" >&2
    exit 1
fi
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$folder/bcryptprimitives.dll" .ci/wine/processprng.c -ladvapi32
x86_64-w64-mingw32-gcc -municode -O2 -s -o "$out/lockfile.exe" .ci/wine/lockfile.c

shared=${SOPPO_SHARED_DATA:+$SOPPO_SHARED_DATA/..}
shared=${shared:-$root/../shared}
net=${SOPPO_WINDOWS_NET:-$shared/opponents/eval-suishopetite/nn.bin}
if [ -f "$net" ]; then
    echo "net: $net"
else
    echo "windows.sh: $net not found (../shared absent): the net checks are skipped"
    net=
fi

echo "== windows: the Linux build and the clients' venv"
cargo build --release -p soppo-engine --bin soppo
venv=$target_dir/ci-venv
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip --disable-pip-version-check install --quiet -r tests/clients/requirements-cshogi.txt

echo "== windows: Wine prefix"
export WINEPREFIX=${WINEPREFIX:-$target_dir/wine-prefix}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
# Wine names Linux files in the locale's encoding: keep it UTF-8 for the Japanese folder names.
export LC_ALL=C.UTF-8
prefix_start=$SECONDS
"$wine" wineboot -i >/dev/null 2>&1 || true
echo "wineboot: $((SECONDS - prefix_start)) s ($WINEPREFIX)"

if [ "${SOPPO_WINDOWS_UNIT:-0}" = 1 ]; then
    # Opt-in (about 2 minutes of build and 1.5 of run on two cores): the engine's unit tests,
    # the Windows path forms of paths.rs among them, built for Windows and run under Wine.
    echo "== windows: the engine's unit tests under Wine"
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=$root/.ci/wine/run.sh WINE=$wine \
        cargo test --target "$triple" -p soppo-engine --lib
fi

echo "== windows: soppo.exe under Wine (tests/clients/wine_check.py)"
workdir=$out/cwd
mkdir -p "$workdir"
status=0
PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" tests/clients/wine_check.py \
    --exe "$exe" --linux "$target_dir/release/soppo" --wine "$wine" --workdir "$workdir" \
    --lockfile "$out/lockfile.exe" --net "$net" --out "$out/logs" \
    --games "${SOPPO_WINDOWS_GAMES:-2}" || status=$?
"${wine%64}server" -k 2>/dev/null || "$(dirname "$wine")/wineserver" -k 2>/dev/null || true
echo "== windows: done in $((SECONDS - start)) s"
exit $status
