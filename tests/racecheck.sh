#!/bin/sh
# racecheck.sh - races found on the device, spoken as TAP: NAME+racecheck targets are
# listed and selected by name only; catalogue kernels show the races, the out-of-bounds
# accesses and the writes of one value their Oclgrind goldens list, at the same lines,
# and their fixed twins nothing (tools/racecheck-agree); kernels of its own at full size
# (a barrier used as a grid sync at 2^20 items, a reduction missing its first barrier at
# 2^22); an application's captured launch replayed whole; grading whose simulate checks
# name racecheck, and mutate of such an assignment; an access a macro spells is said to
# be unchecked, never passed in silence; a disagreement with Oclgrind at one launch is
# said; the conformance corpus, without a false alarm; and hunt, which sweeps on
# racecheck where it can and has Oclgrind confirm what it finds, over the whole hunt
# corpus (tools/hunt-corpus).
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
# between work-groups, a fence of the wrong memory, atomics, out-of-bounds reads, writes
# of one value, which stay warnings, and barrier divergence, which PoCL runs a whole
# group through as its first item's branch decides.
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
		"$c/reduce/guarded_barriers.yaml" "$c/reduce/minmax_guarded.yaml" \
		>"$out" 2>&1 &&
		grep -q "racecheck-agree: 16 of 16 cases agree; .* 0 missed; 0 false alarms" "$out"
}
grid_sync_at_full_size() {
	run 1 check --device pocl-cpu+racecheck "$data/kernels/grid_sync_barrier.cl" \
		--kernel grid_sync --global 1048576 --local 256 &&
		has "grid_sync_barrier.cl:9:12: error: read-write data race on global memory: this write conflicts with a read at line 12" &&
		has "no barrier orders work-groups" &&
		grep -q "^race  *grid_sync random  *pocl-cpu+racecheck  *N=1048576 L=256 " "$out" &&
		lacks "shrunk" && lacks "simulated launch"
}
missing_barrier_at_full_size() {
	run 1 check --device pocl-cpu+racecheck "$data/kernels/sum_missing_barrier.cl" \
		--kernel sum_missing_barrier --global 4194304 --local 256 &&
		has "sum_missing_barrier.cl:7:12: error: read-write data race on local memory: this write conflicts with a read at line 10" &&
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

# hunt chooses racecheck by itself, finds the race the plain run misses, and Oclgrind
# confirms it at the launch it is shrunk to; a target that finds nothing is refused.
hunts_on_racecheck() {
	k=$root/kernels/shift/across_groups_barrier.cl
	run 1 hunt --budget 20 -j 2 "$k" --kernel shift_after_barrier --global 64 --local 16 &&
		has "error: read-write data race on global memory: this write conflicts with a read at line 12" &&
		grep -q "hunt: .*across_groups_barrier.cl: [0-9]* of [0-9]* trials in [0-9.]* s on pocl-cpu+racecheck" "$out" &&
		has "note: Oclgrind shows it too at that launch" &&
		has "Oclgrind confirmed 1 finding at its smallest launch, disagreed on 0" &&
		lacks "optimised build" &&
		run 1 hunt --json --budget 20 -j 2 "$k" --kernel shift_after_barrier --global 64 --local 16 &&
		has '"oclgrind":"shown"' && has '"trials_on":"pocl-cpu+racecheck"' &&
		run 2 hunt --device pocl-cpu --budget 5 "$k" --kernel shift_after_barrier --global 64 --local 16 &&
		has "hunt runs its trials where races are found, on oclgrind or a NAME+racecheck target" &&
		has "--device selects pocl-cpu, which find nothing"
}

# Where Oclgrind and racecheck ran one launch, what one reports and the other does not is
# said: racecheck reports each pair of lines that conflicts where the simulator reports
# one conflict an address, so a kernel whose items swap values through global memory
# across a local fence races at two pairs of lines for it alone. Where they agree,
# nothing is said: two work-items writing the two lanes of one float2 race for neither,
# and a race between work-groups is both's; nor where only the space's name differs (the
# simulator holds a __constant argument in global memory, and names it so).
disagreement_is_said() {
	run 1 check --device oclgrind,pocl-cpu+racecheck "$root/tests/conformance/local_fence_for_global_data.cl" \
		--kernel swap --global 32 --local 8 &&
		has "warning: pocl-cpu+racecheck and oclgrind ran this launch and disagree: pocl-cpu+racecheck reports a read-write data race on global memory at line 11 that oclgrind does not" &&
		run 0 check --device oclgrind,pocl-cpu+racecheck "$data/kernels/vector_lanes.cl" --kernel lanes \
			--global 2 --local 2 --arg '{name: v, buffer: float2, count: 1}' &&
		lacks "data race" && lacks "disagree" &&
		run 1 check --device oclgrind,pocl-cpu+racecheck "$root/tests/races/across_groups_neighbour.cl" \
			--kernel racy --global 32 --local 16 &&
		has "across_groups_neighbour.cl:8:9: error: read-write data race on global memory" &&
		lacks "disagree" &&
		run 1 check --device oclgrind,pocl-cpu+racecheck "$root/tests/conformance/constant_read_past_end.cl" \
			--kernel look_up --global 32 --local 8 --arg '{name: table, constant: float, count: L}' &&
		has "constant_read_past_end.cl:7:26: error: out-of-bounds read of constant memory" &&
		lacks "disagree"
}

# mutate grades an assignment's mutants with its simulate checks on racecheck: a barrier
# removed from the reference solution loses race_free's points there, at a million items.
mutants_on_racecheck() {
	run 0 mutate --operators barrier -j 2 "$root/tests/grading/reduce_sum_racecheck.yaml" &&
		grep -q "^killed  *barrier  .*guard_with_identity.cl:9:2  barrier(CLK_LOCAL_MEM_FENCE) removed  \[race_free 0 of 25\]" "$out" &&
		has "2 of 2 mutants killed (100.0%)"
}

# The conformance corpus under racecheck: no false alarm on a clean kernel, every kernel
# run to its end, and what racecheck sees of a kernel found: an atomic after a plain
# store of its own item still races with the others' atomics; an update past a local
# array both reads and writes there, and indexes past the array the kernel declares; an
# index past a private array, or past a struct's array field, is said as the simulator
# says it; a vstore past the end is one; divergence is found on PoCL, which runs a
# group's items one after another: an early return, a branch or a loop's uneven trips
# around a barrier, barriers in both arms, and fence flags that differ; a write to a
# buffer the host made read-only, and a read of one it made write-only; an async copy's
# race with the items of its group, written before it or read before the wait, and with
# another group's; an int read or written through a char pointer cast one byte off.
conformance_on_racecheck() {
	"$root/tools/racecheck-agree" --device pocl-cpu+racecheck --timeout 20 \
		--conformance "$root/tests/conformance" >"$out" 2>&1
	echo "# $(grep '^racecheck-agree: ' "$out")"
	has "0 false alarms on clean kernels" && has "0 kernels gave no result" &&
		lacks "atomic_and_plain_race.cl: missed" && lacks "vstore_past_end.cl: missed" &&
		lacks "oob_local_array_index.cl: missed" && lacks "local_read_before_start.cl: missed" &&
		lacks "oob_private_array_index.cl: missed" &&
		lacks "struct_array_field_past_end.cl: missed" &&
		lacks "write_to_read_only.cl: missed" && lacks "read_of_write_only.cl: missed" &&
		lacks "async_copy_overwrites_local.cl: missed" &&
		lacks "async_strided_copy_read_early.cl: missed" &&
		lacks "async_copy_across_groups.cl: missed" &&
		lacks "unaligned_read.cl: missed" && lacks "unaligned_write.cl: missed" &&
		lacks "barrier_after_early_return.cl: missed" &&
		lacks "barrier_in_divergent_branch.cl: missed" &&
		lacks "barrier_in_loop_uneven_trips.cl: missed" &&
		lacks "two_barriers_diverge.cl: missed" && lacks "fence_flags_differ.cl: missed"
}

# The hunt corpus under racecheck: every race found, every fixed twin clean.
hunt_corpus_on_racecheck() {
	"$root/tools/hunt-corpus" "$CLHARNESS" 2 racecheck >"$out" 2>&1
	echo "# $(grep '^races: ' "$out")"
	grep -q "^races: 31; .*hunt found 31 in .*fixed twins with a finding: check 0, hunt 0 (" "$out"
}

check "clharness devices lists pocl-cpu+racecheck, which only a run that names it runs" listed_and_named_only
check "catalogue bugs are found at their goldens' lines, and their fixed twins are clean" agrees_with_the_goldens
check "a barrier used as a grid sync races between work-groups at 2^20 items, run whole" grid_sync_at_full_size
check "a reduction missing its first barrier races at 2^22 items" missing_barrier_at_full_size
check "a captured launch replays at its full size and shows its race" captured_launch_whole
check "an assignment's simulate checks may run on racecheck, at a million items" grades_on_racecheck
check "an access a macro spells is a warning that it was not checked" macro_access_is_said
check "where Oclgrind and racecheck ran one launch and disagree, the report says so" disagreement_is_said
check "mutate's mutants of a racecheck assignment lose their race-free points there" mutants_on_racecheck
check "the conformance corpus under racecheck: no false alarm, every kernel run, atomics after plain stores race" conformance_on_racecheck
check "hunt sweeps on racecheck by itself and Oclgrind confirms what it finds" hunts_on_racecheck
check "the hunt corpus under racecheck: 31 of 31 races found, no fixed twin with a finding" hunt_corpus_on_racecheck
echo "1..$n"
