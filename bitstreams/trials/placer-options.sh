#!/usr/bin/env bash
# Place one iCE40 top's netlist with extra nextpnr-ice40 options, seed by seed, and print each
# seed's post-route Fmax and the median: what a placer or router option gives against the
# report's figure (`bitstreams/trials/README.md`, *Placer and router options*).
#
#   bitstreams/trials/placer-options.sh TOP "OPTIONS" [SEED...]     (seeds 1-5 by default)
#
# The netlist is the flow's own, `target/bitstreams/TOP/TOP.json`: run
# `cargo run --release -p bitstreams -- --trial TOP` first (with no OPTIONS this script then
# repeats its figures exactly: nextpnr is deterministic for a netlist and a seed). Two seeds run
# at a time; the logs go to `target/bitstreams/TOP/options/`.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=${1:?usage: placer-options.sh TOP \"OPTIONS\" [SEED...]}
opts=${2-}
shift $(($# >= 2 ? 2 : 1))
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5)
dir=target/bitstreams/$top
[ -f "$dir/$top.json" ] || { echo "no netlist $dir/$top.json: run cargo run --release -p bitstreams -- --trial $top first" >&2; exit 2; }
mkdir -p "$dir/options"
tag=$(echo "${opts:-default}" | tr -c 'A-Za-z0-9\n' '_')
place() {
    local log="options/$top.$tag.seed$1.log"
    (cd "$dir" && nextpnr-ice40 --hx8k --package cb132 --freq 100 --seed "$1" --json "$top.json" \
        --pcf alchitry_cu.pcf --timing-allow-fail $opts >"$log" 2>&1) ||
        { echo "seed $1: nextpnr-ice40 failed, see $dir/$log" >&2; return 1; }
    grep 'Max frequency for clock' "$dir/$log" | tail -1 | sed -E "s/.*: ([0-9.]+) MHz.*/\1/"
}
fmax=()
for ((i = 0; i < ${#seeds[@]}; i += 2)); do
    a=${seeds[i]} b=${seeds[i + 1]:-}
    fa=$(mktemp) fb=$(mktemp)
    place "$a" >"$fa" &
    [ -z "$b" ] || place "$b" >"$fb" &
    wait
    fmax+=("$(cat "$fa")")
    echo "$top ${opts:-(default)} seed $a: $(cat "$fa") MHz"
    if [ -n "$b" ]; then
        fmax+=("$(cat "$fb")")
        echo "$top ${opts:-(default)} seed $b: $(cat "$fb") MHz"
    fi
    rm -f "$fa" "$fb"
done
for f in "${fmax[@]}"; do
    [ -n "$f" ] || { echo "a seed gave no Fmax (its log is in $dir/options/)" >&2; exit 1; }
done
printf '%s\n' "${fmax[@]}" | sort -g | awk -v t="$top" -v o="${opts:-(default)}" \
    '{ v[NR] = $1 } END { printf "%s %s: median %.2f MHz (%.2f-%.2f) over %d seeds\n", t, o, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR], NR }'
