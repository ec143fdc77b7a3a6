#!/usr/bin/env bash
# Real USI clients against the release `soppo`: a scripted cshogi.usi.Engine session, a short
# cshogi.cli match (illegal moves, time losses, crashes fail it), and ShogiArena (a two-game
# SPRT run and one mate problem; skipped with the reason when ShogiArena cannot run here).
# Needs python3 with venv and network access to PyPI on the first run; the venv in
# target/ci-venv is reused afterwards. Outputs (CSA records, ShogiArena runs) go to
# target/ci-clients. Set SOPPO_ARENA_SKIP=<reason> to skip the ShogiArena part.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target_dir=${CARGO_TARGET_DIR:-target}
case $target_dir in /*) ;; *) target_dir=$root/$target_dir ;; esac
venv=$target_dir/ci-venv
export SOPPO_CLIENTS_OUT=$target_dir/ci-clients
# Keep tests/clients free of __pycache__ (not ignored by .gitignore).
export PYTHONDONTWRITEBYTECODE=1
mkdir -p "$SOPPO_CLIENTS_OUT"
start=$SECONDS

echo "== clients: python venv ($venv)"
python=${PYTHON:-python3}
command -v "$python" >/dev/null || { echo "clients.sh: $python not found" >&2; exit 1; }
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" || { echo "clients.sh: '$python -m venv' failed (install python3-venv)" >&2; exit 1; }
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet -r tests/clients/requirements-cshogi.txt
arena_log=$SOPPO_CLIENTS_OUT/pip-shogiarena.log
if "${pip[@]}" install --quiet -r tests/clients/requirements-shogiarena.txt >"$arena_log" 2>&1; then
    echo "shogiarena installed"
else
    echo "shogiarena could not be installed (its check will be skipped); pip said:"
    tail -n 5 "$arena_log" | sed 's/^/  /'
    export SOPPO_ARENA_SKIP="pip could not install $(grep -v '^#' tests/clients/requirements-shogiarena.txt | tr -d '\n') (log: $arena_log)"
fi
"$venv/bin/python" - <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
def v(name):
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"
print("python", sys.version.split()[0], "| cshogi", v("cshogi"), "| shogiarena", v("shogiarena"))
PY

echo "== clients: cargo build --release -p soppo-engine --bin soppo"
cargo build --release -p soppo-engine --bin soppo
soppo=$target_dir/release/soppo
[ -x "$soppo" ] || { echo "clients.sh: $soppo was not built" >&2; exit 1; }

status=0
passed=0
failed=0
for script in cshogi_session cshogi_match shogiarena_run; do
    echo "== clients: $script"
    if "$venv/bin/python" "tests/clients/$script.py" "$soppo"; then
        passed=$((passed + 1))
    else
        echo "clients.sh: $script FAILED" >&2
        failed=$((failed + 1))
        status=1
    fi
done
echo "== clients: done in $((SECONDS - start)) s"
echo "clients: $passed passed, $failed failed"
exit $status
