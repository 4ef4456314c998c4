#!/bin/sh
# racecheck.sh - races found on the device, spoken as TAP: NAME+racecheck targets are
# listed and selected by name only; catalogue kernels show the races, the out-of-bounds
# accesses and the writes of one value their Oclgrind goldens list, at the same lines,
# and their fixed twins nothing (tools/racecheck-agree); kernels of its own at full size
# (a barrier used as a grid sync at 2^20 items, a reduction missing its first barrier at
# 2^22); an application's captured launch replayed whole; grading whose simulate checks
# name racecheck; and an access a macro spells
# is said to be unchecked, never passed in silence.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL and libclang.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
root=$data/../..
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^pocl-cpu+racecheck  *racecheck'; then
	echo "1..0 # SKIP no racecheck target here (PoCL)"
	exit 0
fi
printf 'kernel void k(global int *p) { p[get_global_id(0)] = 1; }\n' >"$work/probe.cl"
if "$CLHARNESS" check --device pocl-cpu+racecheck "$work/probe.cl" --kernel k --global 64 \
	--local 64 2>&1 | grep -q libclang; then
	echo "1..0 # SKIP racecheck cannot rewrite kernels here (libclang)"
	exit 0
fi

listed_and_named_only() {
	run 0 devices && has "the device with each kernel rewritten to check its accesses" &&
		run 0 run --device pocl-cpu "$root/cases/reduce/halving.yaml" &&
		lacks "racecheck" &&
		run 0 run --device pocl-cpu+racecheck "$root/cases/reduce/halving_nobarrier.yaml" &&
		has "[pocl-cpu+racecheck N=65536 L=32]"
}
# Each bug beside its fix: races in local and global memory, within a work-group and
# between work-groups, a fence of the wrong memory, atomics, out-of-bounds reads, and
# writes of one value, which stay warnings.
agrees_with_the_goldens() {
	c=$root/cases
	python3 "$root/tools/racecheck-agree" --device pocl-cpu+racecheck \
		"$c/reduce/halving.yaml" "$c/reduce/halving_nobarrier.yaml" \
		"$c/fence/global_data_local_fence.yaml" "$c/fence/global_data_global_fence.yaml" \
		"$c/fence/local_data_global_fence.yaml" "$c/fence/local_data_local_fence.yaml" \
		"$c/shift/across_groups_barrier.yaml" "$c/shift/across_groups_two_launches.yaml" \
		"$c/atomics/histogram_racy.yaml" "$c/atomics/histogram_atomic.yaml" \
		"$c/reduce/result_same_value_by_all.yaml" "$c/student/index_overflow.yaml" \
		"$c/scan/blelloch_downsweep_no_barrier.yaml" "$c/scan/blelloch_block.yaml" \
		>"$out" 2>&1 &&
		grep -q "racecheck-agree: 14 of 14 cases agree; .* 0 missed; 0 false alarms" "$out"
}
grid_sync_at_full_size() {
	run 1 check --device pocl-cpu+racecheck "$data/kernels/grid_sync_barrier.cl" \
		--kernel grid_sync --global 1048576 --local 256 &&
		has "grid_sync_barrier.cl:9:3: error: read-write data race on global memory: this write conflicts with a read at line 12" &&
		has "no barrier orders work-groups" &&
		grep -q "^race  *grid_sync random  *pocl-cpu+racecheck  *N=1048576 L=256 " "$out" &&
		lacks "shrunk" && lacks "simulated launch"
}
missing_barrier_at_full_size() {
	run 1 check --device pocl-cpu+racecheck "$data/kernels/sum_missing_barrier.cl" \
		--kernel sum_missing_barrier --global 4194304 --local 256 &&
		has "sum_missing_barrier.cl:7:2: error: read-write data race on local memory: this write conflicts with a read at line 10" &&
		grep -q "^race  *sum_missing_barrier random  *pocl-cpu+racecheck  *N=4194304 L=256 " "$out"
}
# An application's launch, captured, replays whole: its race at 65536 items, which the
# simulator sees only in a few work-groups.
captured_launch_whole() {
	host=$(dirname "$CLHARNESS")/tests/capture/race_host
	run 3 capture -o "$work/big" --kernel block_sum -- "$host" big &&
		run 1 run --device pocl-cpu+racecheck "$work/big" &&
		grep -q "^race  *block_sum-1  *pocl-cpu+racecheck  *N=65536 L=64 " "$out"
}
# An assignment whose simulate checks name racecheck as their target grades races at a
# million items on the grading device: the correct kernel earns all, the racy one loses
# race_free, the empty one nothing.
grades_on_racecheck() {
	mkdir -p "$work/subs" &&
		cp "$root/tests/grading/reduce_sum/correct.cl" "$root/tests/grading/reduce_sum/racy.cl" \
			"$root/tests/grading/reduce_sum/empty_body.cl" "$work/subs/" &&
		run 0 grade -o "$work/graded" "$root/tests/grading/reduce_sum_racecheck.yaml" "$work/subs" &&
		has "graded on pocl-cpu and pocl-cpu+racecheck" &&
		grep -q "^| correct | 25 | 15 | 25 | 15 | 20 | 100 |" "$out" &&
		grep -q "^| racy | 25 | 15 | 0 | 15 | 20 | 75 |" "$out" &&
		grep -q "^| empty_body | 0 | 0 | 0 | 0 | 0 | 0 |" "$out"
}
macro_access_is_said() {
	cat >"$work/macro.cl" <<'K'
#define AT(p, i) p[i]
kernel void copy(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = AT(in, i);
}
K
	run 0 check --device pocl-cpu+racecheck "$work/macro.cl" --kernel copy --global 1024 \
		--local 64 &&
		has "macro.cl:5:11: warning: racecheck did not instrument this: an access written through a macro, so it was not checked"
}

check "clharness devices lists pocl-cpu+racecheck, which only a run that names it runs" listed_and_named_only
check "catalogue bugs are found at their goldens' lines, and their fixed twins are clean" agrees_with_the_goldens
check "a barrier used as a grid sync races between work-groups at 2^20 items, run whole" grid_sync_at_full_size
check "a reduction missing its first barrier races at 2^22 items" missing_barrier_at_full_size
check "a captured launch replays at its full size and shows its race" captured_launch_whole
check "an assignment's simulate checks may run on racecheck, at a million items" grades_on_racecheck
check "an access a macro spells is a warning that it was not checked" macro_access_is_said
echo "1..$n"
