#!/usr/bin/env bash
# The main job (README, Quick start): replay every AQM vector on the Verilated RTL.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cargo run --release -q -p sim-tests --bin replay -- testbench-vectors/aqm/*.jsonl --engine verilator
