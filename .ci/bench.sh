#!/usr/bin/env bash
# Checks the bench signature: `soppo bench` must print the node count written in
# .ci/bench-signature (see that file). Builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(grep -v '^#' .ci/bench-signature | tr -d '[:space:]')
cargo build --release -p soppo-engine --bin soppo
target_dir=${CARGO_TARGET_DIR:-target}
last=$("$target_dir/release/soppo" bench | tail -n 1)
got=${last%% nodes*}
echo "soppo bench: $last (signature $want)"
if [ "$got" != "$want" ]; then
    echo "bench.sh: soppo bench gives $got nodes, .ci/bench-signature says $want." >&2
    echo "  A change of search behaviour must state 'Bench: $got' and update .ci/bench-signature." >&2
    exit 1
fi
