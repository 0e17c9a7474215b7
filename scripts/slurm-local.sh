#!/usr/bin/env bash
# A one-node Slurm on this machine, for the sweep tests (README, "Sweeps"):
#   scripts/slurm-local.sh start DIR   installs slurmctld, slurmd, the client and munge from
#                                      Debian when missing, writes DIR/slurm.conf, starts munged,
#                                      slurmctld and slurmd with their state, logs and sockets in
#                                      DIR, waits for the node, prints `export SLURM_CONF=...`
#   scripts/slurm-local.sh stop DIR    stops them
# Everything lives in DIR; nothing under /etc is touched. Ports 16817/16818.
set -euo pipefail
cmd=${1:?usage: slurm-local.sh start|stop DIR}
dir=$(mkdir -p "${2:?usage: slurm-local.sh start|stop DIR}" && cd "$2" && pwd)
stop() {
  for p in slurmd slurmctld munged; do
    [ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2>/dev/null || true
    rm -f "$dir/$p.pid"
  done
}
if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: slurm-local.sh start|stop DIR" >&2; exit 2; }

need=()
command -v slurmctld >/dev/null 2>&1 || need+=(slurmctld)
command -v slurmd    >/dev/null 2>&1 || need+=(slurmd)
command -v sbatch    >/dev/null 2>&1 || need+=(slurm-client)
command -v munged    >/dev/null 2>&1 || need+=(munge)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "installing ${need[*]} ..." >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

stop
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
[ -f "$dir/munge/munge.key" ] || { head -c 1024 /dev/urandom > "$dir/munge/munge.key"; chmod 400 "$dir/munge/munge.key"; }
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"

host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
user=$(id -un)
cat > "$dir/slurm.conf" <<CONF
ClusterName=local
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 60); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  case "$state" in idle*|mixed*|allocated*) echo "export SLURM_CONF=$SLURM_CONF"; exit 0;; esac
  sleep 0.5
done
echo "slurm-local: the node did not come up (state: ${state:-none}); logs in $dir" >&2
tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
exit 1
