#!/usr/bin/env bash
# The whole test suite (README, Quick start; .ci/run calls it). Ends with the summed
# "N passed, N failed" over every test binary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# the driver and its CLI as a user's program builds them: without rust-hdl (the workspace's
# tests turn the `rtl` feature on, which would hide a model module that needs it)
cargo build --release -p host-driver --bins
log=$(mktemp)
set +e
cargo test --release --workspace 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "Total: %d passed, %d failed\n", p, f }' "$log"
rm -f "$log"
exit "$rc"
