#!/usr/bin/env bash
# The main job (README, Quick start): the two-NIC CloudBurst demo over the simulated NIC (two
# simulator processes running the Verilated NIC top, four UDP paths on loopback, 20 % loss),
# then every committed vector replayed on the Verilated RTL.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cargo build --release -q -p host-driver -p rtl-sim -p sim-tests
target/release/cbnic demo --engine sim --paths 4 --loss 0.2 --messages 3 --msg-size 50000
target/release/cbnic demo --engine sim --paths 4 --loss 0.05 --cut 3 --messages 3 --msg-size 93440
cargo run --release -q -p sim-tests --bin replay -- testbench-vectors/*/*.jsonl --engine verilator
