#!/usr/bin/env bash
# Runs a Windows executable under Wine with the test-only bcryptprimitives.dll beside it (see
# processprng.c), e.g. as cargo's runner for the Windows target:
#   CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=.ci/wine/run.sh cargo test --target x86_64-pc-windows-gnu ...
# WINEPREFIX defaults to target/wine-prefix; Wine's own messages are silenced (WINEDEBUG=-all).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=$1
shift
wine=${WINE:-$(command -v wine64 || command -v wine || echo /usr/lib/wine/wine64)}
export WINEPREFIX=${WINEPREFIX:-$here/../../target/wine-prefix}
export WINEDEBUG=${WINEDEBUG:--all}
# No Mono or Gecko install prompts when Wine makes the prefix.
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
dll=$(dirname "$exe")/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ "$here/processprng.c" -nt "$dll" ]; then
    x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dll" "$here/processprng.c" -ladvapi32
fi
exec "$wine" "$exe" "$@"
