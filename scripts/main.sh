#!/usr/bin/env bash
# The main job (README, Quick start): replay every committed vector on the Verilated RTL.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cargo run --release -q -p sim-tests --bin replay -- testbench-vectors/*/*.jsonl --engine verilator
