#!/bin/sh
# make test-slurm: the Slurm path of `dlasim sweep` on a one-node cluster
# started here: munged, slurmctld and slurmd from Debian's munge and
# slurm-wlm packages, as root, with their state, logs and configuration in
# a temporary directory and their own ports; the sweep's sbatch script as a
# job array; the merged results against the same run list under GNU
# parallel.  The daemons it started are stopped by their process ids at
# the end.  Prints "ok - ..." / "FAIL - ..." and "N passed, N failed".
# docs/sweeps.md.
: "${BUILD:=build}"
cd "$(dirname "$0")/.." || exit 1
TEST=slurm
. test/lib.sh
log=$TMP/results
D=$(pwd)/$BUILD/dlasim
ok() { echo "ok - $TEST: $1" | tee -a "$log"; }
not_ok() { echo "FAIL - $TEST: $1: $2" | tee -a "$log"; }
finish() {
	for pidfile in "$TMP"/slurmd.pid "$TMP"/slurmctld.pid "$TMP"/munged.pid; do
		[ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2> /dev/null
	done
	sleep 1
	echo "$(grep -c '^ok' "$log") passed, $(grep -c '^FAIL' "$log") failed"
	rm -rf "$TMP"
}
trap finish EXIT
: > "$log"

if [ "$(id -u)" != 0 ]; then
	not_ok "root" "the daemons need root (run as root, or see docs/sweeps.md)"
	exit 1
fi
for tool in munged slurmctld slurmd sbatch sinfo parallel; do
	command -v $tool > /dev/null || { not_ok "$tool installed" "apt-get install munge slurm-wlm parallel (make deps)"; exit 1; }
done
chmod 755 "$TMP"
host=$(hostname -s)

# munge: a key of our own, a socket of our own.
dd if=/dev/urandom bs=1 count=1024 of="$TMP/munge.key" 2> /dev/null
chown munge:munge "$TMP" "$TMP/munge.key" && chmod 400 "$TMP/munge.key"
sock=$TMP/munge.socket
runuser -u munge -- munged --key-file="$TMP/munge.key" --socket="$sock" \
	--pid-file="$TMP/munged.pid" --log-file="$TMP/munged.log" --seed-file="$TMP/munged.seed" \
	|| { not_ok "munged starts" "$(tail -n 3 "$TMP/munged.log" 2>/dev/null)"; exit 1; }
chown root:root "$TMP"
ok "munged starts"

mkdir -p "$TMP/state" "$TMP/spool"
conf=$TMP/slurm.conf
cat > "$conf" <<CONF
ClusterName=dlasim-test
SlurmctldHost=$host
SlurmctldPort=26817
SlurmdPort=26818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"
slurmctld -f "$conf" || { not_ok "slurmctld starts" "$(tail -n 3 "$TMP/slurmctld.log")"; exit 1; }
slurmd -f "$conf" || { not_ok "slurmd starts" "$(tail -n 3 "$TMP/slurmd.log")"; exit 1; }
state=
for i in $(seq 60); do
	state=$(sinfo -h -n "$host" -o %T 2> /dev/null)
	[ "$state" = idle ] && break
	sleep 1
done
if [ "$state" = idle ]; then ok "the node is up"; else not_ok "the node is up" "state '$state': $(tail -n 3 "$TMP/slurmd.log")"; exit 1; fi

# A sweep: 3 workloads x 2 page-allocation policies on the MC-DLA ring.
cat > "$TMP/mc.spec" <<SPEC
command = train
platform = mc-ring-8
workload = alexnet rnn-gru workloads/chakra/memory.et
page-alloc = local bw_aware
SPEC
"$D" sweep "$TMP/mc.spec" --out "$TMP/slurm-sweep" > /dev/null && "$D" sweep "$TMP/mc.spec" --out "$TMP/parallel-sweep" > /dev/null \
	&& ok "dlasim sweep writes the run lists" || not_ok "dlasim sweep writes the run lists" "failed"
if timeout 300 sbatch --wait --quiet "$TMP/slurm-sweep/sweep.sbatch" > "$TMP/sbatch.out" 2>&1; then
	ok "sbatch --wait runs the job array"
else
	not_ok "sbatch --wait runs the job array" "$(cat "$TMP/sbatch.out" "$TMP"/slurm-sweep/slurm/*.out 2>/dev/null | head -c 500)"
fi
n=$(ls "$TMP/slurm-sweep/runs" | grep -c '\.json$')
[ "$n" = 6 ] && ok "6 results from 6 array tasks" || not_ok "6 results from 6 array tasks" "$n"
parallel --will-cite -j2 < "$TMP/parallel-sweep/runs.txt" && ok "parallel runs the same list" || not_ok "parallel runs the same list" "failed"
"$D" merge "$TMP/slurm-sweep" > "$TMP/slurm.csv" && "$D" merge "$TMP/parallel-sweep" > "$TMP/parallel.csv"
# Identical but for the output directory the parallel copy names nowhere:
# the merged tables carry parameters and results only.
if cmp -s "$TMP/slurm.csv" "$TMP/parallel.csv" && [ "$(grep -c . "$TMP/slurm.csv")" = 7 ]; then
	ok "Slurm and GNU parallel give the same merged table"
else
	not_ok "Slurm and GNU parallel give the same merged table" "$(diff "$TMP/slurm.csv" "$TMP/parallel.csv" | head -c 500)"
fi
[ "$(grep -c '^FAIL' "$log")" = 0 ]
