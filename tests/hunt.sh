#!/bin/sh
# hunt.sh - `clharness hunt` as a user meets it, spoken as TAP: a race that the plain run
# misses is found by the sweep and shrunk, its saved reproducer shows it in one Oclgrind
# run, a fixed kernel gives no finding, and mistakes in the command are usage errors.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both) and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
top=$CLH_TEST_DATA/../..
out=$(mktemp)
saved=$(mktemp -d)
trap 'rm -rf "$out" "$saved"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

# The shift reads what another work-group wrote: at its own launch the shift is a whole
# number of groups' worth only for some scalars, so the plain run shows nothing.
missed_by_the_plain_run() {
	run 1 hunt --device oclgrind --budget 20 -j 2 "$top/kernels/shift/across_groups_barrier.cl" \
		--kernel shift_after_barrier --global 64 --local 16 &&
		has "across_groups_barrier.cl:10:9: error: read-write data race on global memory: this write conflicts with a read at line 12" &&
		has "note: first shown by trial" &&
		has "1 error and 0 warnings found, 0 of them by the plain run"
}
# A case's finding shrinks below the case's own launch, and the saved case shows it.
shrunk_and_saved() {
	run 1 hunt --device oclgrind --budget 20 -j 2 --save "$saved" "$top/cases/reduce/halving_nobarrier.yaml" &&
		has "halving_nobarrier.cl:14:17: error: read-write data race on local memory" &&
		has "1 of them by the plain run" &&
		grep -q "note: the smallest launch that shows it: [a-z ]* inputs, N=[0-9]* L=[0-9]*, built as written; saved as $saved/halving_nobarrier-hunt-1.yaml" "$out" &&
		run 0 run --device oclgrind "$saved/halving_nobarrier-hunt-1.yaml" &&
		has "halving_nobarrier.cl:14:17: error: read-write data race on local memory" &&
		has "summary: 1 result on 1 device"
}
# A race whose writes store differing values under random inputs and the same value under
# zeros: the finding is the error, and the launch it is shrunk to shows the error, not a
# same-value warning that would call it benign.
shrunk_keeps_severity() {
	mkdir -p "$saved/severity" &&
		run 1 hunt --device oclgrind --any-local --budget 4 -j 2 --save "$saved/severity" "$top/tests/races/planes_share_a_plane.cl" \
			--kernel racy --global 4x4x4 --local 4x4x1 &&
		has "planes_share_a_plane.cl:9:19: error: write-write data race on local memory" &&
		lacks "store the same value" &&
		run 1 run --device oclgrind "$saved/severity/planes_share_a_plane-hunt-1.yaml" &&
		has "planes_share_a_plane.cl:9:19: error: write-write data race on local memory" &&
		lacks "store the same value"
}
# A race only work-group shapes the sweep chose show, none the launch as given uses, is a
# warning that names the shape and --fixed-local; --any-local makes it the kernel's error.
other_groups_warn() {
	k=$top/tests/races/slots_mod_32.cl
	run 0 hunt --device oclgrind --budget 8 -j 2 "$k" --kernel racy --global 64 --local 16 &&
		has "slots_mod_32.cl:6:20: warning: write-write data race on local memory" &&
		has "none the launch as given uses (16); a kernel meant for its own shape alone may be fine: hunt with --fixed-local" &&
		has "hunt: racy: no --arg or option gives these, so clharness chose them:" &&
		has "  scratch = 16 ints: one a work-item of the work-group 16" &&
		run 1 hunt --device oclgrind --any-local --budget 8 -j 2 "$k" --kernel racy --global 64 --local 16 &&
		has "slots_mod_32.cl:6:20: error: write-write data race on local memory" &&
		run 2 hunt --device oclgrind --any-local --fixed-local --budget 8 "$k" --kernel racy --global 64 --local 16 &&
		has "give one of them"
}
# The launch as given hangs though smaller ones end: the hunt fails, naming the plain run;
# a --save folder that does not exist is made before the hunt.
plain_run_hangs() {
	run 1 hunt --device oclgrind --budget 8 --timeout 2 -j 2 --save "$saved/made/here" "$CLH_TEST_DATA/kernels/hangs_as_given.cl" \
		--kernel spin --global 64 --local 16 &&
		has "the plain run: the launch as given), gave timeout" && [ -d "$saved/made/here" ] &&
		run 2 hunt --device oclgrind --budget 8 --save /proc/nowhere/at/all "$CLH_TEST_DATA/kernels/hangs_as_given.cl" \
			--kernel spin --global 64 --local 16 &&
		has "cannot make --save folder /proc/nowhere/at/all" && lacks "trials in"
}
# The same reduction with its barrier: nothing to find at any input, shape or build.
fixed_twin_is_clean() {
	run 0 hunt --device oclgrind --budget 10 -j 2 "$top/cases/reduce/halving.yaml" &&
		has "0 errors and 0 warnings found"
}
# sim_build: optimised simulates what the optimiser leaves: an unused racy load is gone,
# and with it the race that the program as written has; any other build is a case error.
optimised_build_is_real() {
	run 1 run --device oclgrind "$CLH_TEST_DATA/cases/dead_racy_load.yaml" \
		"$CLH_TEST_DATA/cases/optimised_build.yaml" "$CLH_TEST_DATA/cases/sim_build_unknown.yaml" &&
		has "dead_racy_load.cl:8:9: error: read-write data race on global memory: this write conflicts with a read at line 6" &&
		grep -q "^pass  *optimised_build  *oclgrind" "$out" &&
		has "sim_build_unknown.yaml:3:12: error: sim_build must be 'as-written'"
}
# Oclgrind crashes on this kernel's optimised program: one probe shows it, and the
# sweep goes on as written, saying so.
unsimulable_build_left_out() {
	run 0 hunt --device oclgrind --budget 4 -j 2 "$top/cases/reduce/grid_float4.yaml" &&
		has "the optimised build was left out: Oclgrind could not simulate it (crash at the plain run's shape)" &&
		lacks "the first trial that failed"
}
# A kernel that hangs on some inputs: the trials that time out are counted, and the first
# of them in the sweep's order is named with its launch and what became of it, in text
# and JSON, and the SARIF run is marked incomplete with it, so the count can be acted
# on. The zeros that hang it come with trial 8.
first_failed_trial_named() {
	run 0 hunt --device oclgrind --budget 8 --timeout 2 -j 2 "$CLH_TEST_DATA/kernels/hang.cl" --kernel hang \
		--global 16 --local 16 &&
		grep -q "of the others, [0-9]* of [0-9]* trials ran to the end ([0-9]* failed: timeout, crash or build error)" "$out" &&
		has "hang.cl: the first trial that failed, trial 8 (zeros inputs, N=1 L=1, built as written), gave timeout: no result after 2 s: the kernel hangs, or this launch is too costly to simulate" &&
		run 0 hunt --device oclgrind --json --sarif "$saved/failed.sarif" --budget 8 --timeout 2 -j 2 \
			"$CLH_TEST_DATA/kernels/hang.cl" --kernel hang --global 16 --local 16 &&
		has '"first_failed":{"trial":8,"verdict":"timeout","launch":{"inputs":"zeros","N":1,"L":1,"build":"as-written"},"message":"no result after 2 s: the kernel hangs' &&
		grep -q '"executionSuccessful":false,"toolExecutionNotifications":\[{"level":"error","message":{"text":"[0-9]* trials gave nothing to judge; the first trial that failed, trial 8 (zeros inputs, N=1 L=1, built as written), gave timeout' "$saved/failed.sarif"
}
# JSON Lines for a pipeline: the finding with its trials, then the sweep's counts.
json_lines() {
	run 1 hunt --device oclgrind --json --budget 20 -j 2 "$top/kernels/shift/across_groups_barrier.cl" \
		--kernel shift_after_barrier --global 64 --local 16 &&
		grep -q '^{"target":"[^"]*across_groups_barrier.cl","finding":{"severity":"error","kind":"race".*"first_trial":[0-9]*,"plain_run":false,"first":{"inputs":"[a-z0-9-]*","N":[0-9]*,"L":[0-9]*,"build":"as-written"}.*"smallest":{.*"shrunk":\(true\|false\),"oclgrind":"not-asked","saved":null}$' "$out" &&
		grep -q '^{"target":"[^"]*across_groups_barrier.cl","summary":{"trials_on":"oclgrind","trials":[0-9]*,"trials_run":[0-9]*,.*"errors":1,"warnings":0,"by_plain_run":0,.*"failed":0,"first_failed":null,.*"optimised_left_out":null,"fixed_group":null,"cut_short":\(null\|"budget"\),"chosen":\[{"name":"in","value":"64 floats",.*{"name":"k","value":"64, and 0 and 1 in the scalar-0 and scalar-1 inputs",.*\]}}$' "$out" &&
		! grep -q "note:" "$out"
}
# Both children show the race in their first trials, and either may report first: the
# report names the earlier trial, with that trial's work-items and count, every time.
# (Before, the example was whichever came first: one hunt in eight differed.) The
# budget leaves the sanitizer build, about 3 times slower, its margin too: a second
# was not enough there to reach the seventh trial. The corpus kernel is meant for every
# work-group shape (--any-local), so the race is an error at whichever shape shows it.
same_finding_every_time() {
	for i in 1 2 3 4; do
		run 1 hunt --device oclgrind --any-local --json --budget 3 -j 2 "$top/tests/races/rows_read_next_row_group.cl" \
			--kernel racy --global 16x16 --local 16x16 &&
			grep '"finding"' "$out" | sed 's/"after_s":[^,]*,//; s/"smallest":.*//' >"$saved/finding$i" &&
			grep -q '"first_trial":' "$saved/finding$i" &&
			cmp -s "$saved/finding1" "$saved/finding$i" || return 1
	done
}
# A kernel that needs its work-group shape keeps it: no finding from shapes the
# application never launches.
group_shape_kept() {
	run 0 hunt --device oclgrind --budget 10 -j 2 "$CLH_TEST_DATA/kernels/tile_of_sixteen.cl" --kernel tiled \
		--global 64 --local 16 &&
		has "0 errors and 0 warnings found" &&
		has "no other work-group shape was tried: its local array tile (line 6) is sized for work-groups of 16" &&
		run 0 hunt --device oclgrind --budget 10 -j 2 "$CLH_TEST_DATA/kernels/required_group.cl" --kernel reqd \
			--global 64 --local 8 &&
		has "the kernel requires work-groups of 8x1x1 (reqd_work_group_size)" &&
		run 1 hunt --device oclgrind --budget 10 -j 2 --fixed-local "$top/kernels/shift/across_groups_barrier.cl" \
			--kernel shift_after_barrier --global 64 --local 16 &&
		has "--fixed-local keeps work-groups of 16"
}
usage() {
	run 2 hunt --device oclgrind "$top/kernels/shift/across_groups_barrier.cl" &&
		has "hunt FILE.cl needs --kernel NAME, --global G and --local L" &&
		run 2 hunt --device oclgrind --budget 0 "$top/cases/reduce/halving.yaml" &&
		has "--budget takes whole seconds from 1"
}

check "hunt finds a race the plain run misses" missed_by_the_plain_run
check "a finding is shrunk, and its saved case shows it in one Oclgrind run" shrunk_and_saved
check "a race shrunk to a smaller launch keeps its severity in the reproducer" shrunk_keeps_severity
check "a race only at work-group shapes the launch as given does not use is a warning, unless --any-local" other_groups_warn
check "a plain run that hangs fails the hunt; --save makes its folder first, or refuses at once" plain_run_hangs
check "a kernel with its barrier gives no finding anywhere in the sweep" fixed_twin_is_clean
check "sim_build: optimised simulates the optimised program" optimised_build_is_real
check "an optimised build Oclgrind cannot simulate is left out of the sweep, and said so" unsimulable_build_left_out
check "--json writes each finding with its trials, then the sweep's counts" json_lines
check "the first trial that failed is named with its launch and what became of it" first_failed_trial_named
check "a finding is reported with its first trial's work-items, the same every time" same_finding_every_time
check "a kernel that needs its work-group shape is hunted at that shape alone" group_shape_kept
check "a kernel file without --kernel, or a budget of 0, is a usage error" usage
echo "1..$n"
