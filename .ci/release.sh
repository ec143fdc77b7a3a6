#!/usr/bin/env bash
# Builds Soppo's release binaries for one platform and packs them for download:
#
#   bash .ci/release.sh windows   # x86-64 Windows, cross-built with MinGW-w64 -> .zip
#   bash .ci/release.sh linux     # x86-64 Linux                               -> .tar.gz
#   bash .ci/release.sh macos     # arm64 macOS, on a macOS machine            -> .tar.gz
#
# The archive, dist/soppo-<version>-<platform>-<arch>.<zip|tar.gz>, holds one folder with
# `soppo` and `soppo-tools` (`.exe` on Windows), the README, the licence files, the licences
# of the crates linked into the binaries, and empty `eval/` and `book/` folders, each with a
# note of what goes there. A `.sha256` file beside it gives its SHA-256 sum (`sha256sum -c`).
# .github/workflows/release.yml runs this script on a version tag; .ci/windows.sh runs it with
# SOPPO_RELEASE_PROFILE=ci-windows (a quicker build) and tests the archive under Wine.
#
# Environment: SOPPO_RELEASE_PROFILE (cargo profile, default `release`: fat LTO),
# SOPPO_DIST (output folder, default dist), CARGO_TARGET_DIR.
# Windows needs the `x86_64-pc-windows-gnu` Rust target (added with rustup when missing) and
# Debian's `gcc-mingw-w64-x86-64` (the linker set in .cargo/config.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

platform=${1:-}
profile=${SOPPO_RELEASE_PROFILE:-release}
dist=${SOPPO_DIST:-dist}
case $dist in /*) ;; *) dist=$root/$dist ;; esac
target_dir=${CARGO_TARGET_DIR:-target}
case $target_dir in /*) ;; *) target_dir=$root/$target_dir ;; esac

host_arch=$(uname -m)
case $platform in
    windows) triple=x86_64-pc-windows-gnu arch=x86_64 exe=.exe format=zip ;;
    linux) triple=x86_64-unknown-linux-gnu arch=x86_64 exe= format=tar.gz ;;
    macos) triple=aarch64-apple-darwin arch=arm64 exe= format=tar.gz ;;
    *)
        echo "usage: bash .ci/release.sh windows|linux|macos" >&2
        exit 2
        ;;
esac

die() {
    echo "release.sh: $*" >&2
    exit 1
}

python=${PYTHON:-python3}
command -v "$python" >/dev/null || die "$python is needed to pack the archive"

# The target and its linker.
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$triple"; then
    echo "== rustup target add $triple"
    rustup target add "$triple"
fi
if [ "$platform" = windows ]; then
    command -v x86_64-w64-mingw32-gcc >/dev/null ||
        die "x86_64-w64-mingw32-gcc not found: install MinGW-w64 (Debian/Ubuntu: apt-get install gcc-mingw-w64-x86-64)"
fi

# Build. The host's own target is built without --target, so that a Linux release reuses
# target/release (and its bench and tests) rather than building a second copy.
host_triple=$(rustc -vV | sed -n 's/^host: //p')
case $profile in dev) profile_dir=debug ;; *) profile_dir=$profile ;; esac
if [ "$triple" = "$host_triple" ]; then
    target_args=()
    out=$target_dir/$profile_dir
else
    target_args=(--target "$triple")
    out=$target_dir/$triple/$profile_dir
fi
echo "== cargo build --locked --profile $profile ${target_args[*]+${target_args[*]}} (soppo, soppo-tools)"
start=$SECONDS
# (${a[@]+"${a[@]}"}: an empty array under `set -u` in macOS's bash 3.2.)
cargo build --locked --profile "$profile" ${target_args[@]+"${target_args[@]}"} -p soppo-engine --bin soppo -p soppo-tools --bin soppo-tools
echo "built in $((SECONDS - start)) s"

version=$(cargo metadata --no-deps --format-version 1 --locked |
    "$python" -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "soppo-engine"))')
name=soppo-$version-$platform-$arch

# Debug information is dropped from the shipped copies (the symbols stay, for backtraces).
case $platform in
    windows) strip_cmd=(x86_64-w64-mingw32-strip --strip-debug) ;;
    linux) strip_cmd=(strip --strip-debug) ;;
    macos) strip_cmd=(strip -S) ;;
esac
command -v "${strip_cmd[0]}" >/dev/null || {
    echo "release.sh: ${strip_cmd[0]} not found; the binaries are shipped with their debug information"
    strip_cmd=(true)
}

"$python" .ci/release_package.py \
    --name "$name" --format "$format" --dist "$dist" --triple "$triple" \
    --binary "$out/soppo$exe" --binary "$out/soppo-tools$exe" \
    --strip "${strip_cmd[*]}"
