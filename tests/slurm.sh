#!/bin/sh
# slurm.sh - make check-slurm: a real single-node Slurm on localhost (Debian's slurm-wlm
# and munge), started for this test and stopped after it, grades reduce_sum's sample
# class (reduce_sum without its speed check) as a job array of three shards with
# tools/slurm/grade-class, and the merged class table must equal a plain `clharness
# grade` of the same class. Spoken as TAP.
# Needs root (slurmd runs jobs as their owner), slurmctld, slurmd, munged, and
# $CLHARNESS and $CLH_TEST_DATA (the make target sets both).

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
top=$(cd "$CLH_TEST_DATA/../.." && pwd)
for prog in slurmctld slurmd munged sbatch; do
	command -v "$prog" >/dev/null || PATH=$PATH:/usr/sbin
	command -v "$prog" >/dev/null || { echo "1..0 # SKIP no $prog: apt-get install slurm-wlm munge"; exit 0; }
done
[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP a Slurm of its own needs root"; exit 0; }

work=$(mktemp -d /tmp/clh-slurm.XXXXXX)
chmod 755 "$work"
conf=$work/slurm.conf
export SLURM_CONF=$conf
node=$(hostname -s)
started_munge=

stop() {
	[ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null
	[ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null
	[ -n "$started_munge" ] && kill "$(cat "$work/munged.pid")" 2>/dev/null
	sleep 1
	rm -rf "$work"
}
trap stop EXIT

# A munge of our own where none runs: its socket in the work folder, its key a fresh one.
socket=/run/munge/munge.socket.2
if ! munge -n </dev/null >/dev/null 2>&1; then
	socket=$work/munge.socket
	dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 2>/dev/null
	chmod 400 "$work/munge.key"
	munged --force --key-file="$work/munge.key" --socket="$socket" \
		--pid-file="$work/munged.pid" --log-file="$work/munged.log" \
		--seed-file="$work/munged.seed" || { echo "Bail out! munged did not start"; exit 1; }
	started_munge=yes
fi

# Ports of our own, so that a cluster already on this machine is left alone.
cat >"$conf" <<CONF
ClusterName=clh-check
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmdTimeout=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$work/state" "$work/spool"
slurmctld -f "$conf" -i || { echo "Bail out! slurmctld did not start"; cat "$work/slurmctld.log"; exit 1; }
slurmd -f "$conf" || { echo "Bail out! slurmd did not start"; cat "$work/slurmd.log"; exit 1; }
tries=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	tries=$((tries + 1))
	if [ $tries -gt 60 ]; then
		echo "Bail out! the node never became idle"
		sed 's/^/# /' "$work/slurmctld.log" "$work/slurmd.log" | tail -40
		exit 1
	fi
	sleep 1
done

echo "1..2"
class=$top/tests/grading/reduce_sum/
# Without its speed check: the job array's three shards time kernels on the cores at
# once, the plain grading does not, and a submission near a speed line (slow.cl) then
# scores differently in each.
. "$top/tests/untimed.sh"
assignment=$work/reduce_sum.yaml
untimed_assignment "$top/assignments/reduce_sum.yaml" "$assignment" || { echo "Bail out!"; exit 1; }
"$top/tools/slurm/grade-class" -n 3 -c 1 --wait "$CLHARNESS" "$assignment" "$work/out" "$class" \
	>"$work/submit.out" 2>&1
status=$?
if [ $status -eq 0 ] && [ -f "$work/out/class.csv" ] && [ -f "$work/out/shard-3/shard-3-of-3.json" ]; then
	echo "ok 1 - the class ran as a 3-task job array and a merge job after it"
else
	echo "not ok 1 - the class ran as a 3-task job array and a merge job after it (status $status)"
	sed 's/^/# /' "$work/submit.out" "$work"/out/*.log 2>/dev/null | tail -40
fi
"$CLHARNESS" grade -j 2 -o "$work/plain" "$assignment" "$class" >/dev/null 2>&1
if diff -u "$work/plain/class.csv" "$work/out/class.csv" >"$work/diff" 2>&1 &&
	diff -u "$work/plain/class.md" "$work/out/class.md" >>"$work/diff" 2>&1; then
	echo "ok 2 - the merged class table is the plain grading's"
else
	echo "not ok 2 - the merged class table is the plain grading's"
	sed 's/^/# /' "$work/diff"
fi
exit 0
