#!/bin/sh
# evidence.sh - missing evidence is never a clean result, spoken as TAP: a simulator that
# stops reporting (its cap on diagnostics, here lowered by CLHARNESS_OCLGRIND_MAX_ERRORS)
# leaves its run incomplete in the verdict, the JSON, the summary and the exit status,
# and never makes a race "same value"; a worker whose Oclgrind went quiet is replaced
# before the next run; check and hunt that checked nothing say so and exit 1, or 77 when
# every run was a skip, as run does when every result was; a case with no output is a
# skip on a device; and no golden is blessed from a run cut short.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both) and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^oclgrind '; then
	echo "1..0 # SKIP Oclgrind cannot run here (install oclgrind)"
	exit 0
fi

# The issue's race: different values to one element. With the cap met, the lenient run
# that tells same values apart reports nothing; that silence is no evidence.
capped_race_stays_an_error() {
	CLHARNESS_OCLGRIND_MAX_ERRORS=20 run 1 check --device oclgrind "$data/kernels/one_place_local_ids.cl" \
		--kernel one_place --global 64 --local 16 &&
		has "one_place_local_ids.cl:5:7: error: write-write data race on global memory" &&
		has "error: Oclgrind stopped reporting after 20 diagnostics, so this run is incomplete" &&
		lacks "same value" &&
		has "0 of 3 runs ran to the end (3 cut short)"
}
same_value_with_whole_evidence() {
	run 0 check --device oclgrind "$data/kernels/one_place_same_value.cl" --kernel same_value \
		--global 64 --local 16 &&
		has "one_place_same_value.cl:6:7: warning: write-write data race on global memory" &&
		has "both writes store the same value" &&
		has "3 of 3 runs ran to the end; 0 errors and 1 warning found"
}
# The first size meets the cap; the second runs in a fresh worker, whose Oclgrind reports.
cut_short_run() {
	CLHARNESS_OCLGRIND_MAX_ERRORS=20 run 1 run --device oclgrind --json "$data/cases/cut_short.yaml" &&
		grep -q '"N":64,.*"verdict":"race","expected":false,"complete":false' "$out" &&
		grep -q '"N":16,.*"verdict":"race","expected":true,"complete":true' "$out" &&
		grep '"N":16,' "$out" | grep -q '"kind":"race"' &&
		has "1 cut short, the simulator having stopped reporting"
}
# With its race suppressed, what is left of the run is no pass.
cut_short_is_no_pass() {
	CLHARNESS_OCLGRIND_MAX_ERRORS=20 run 1 run --device oclgrind "$data/cases/cut_short_suppressed.yaml" &&
		grep -q '^incomplete  *cut_short_suppressed  *oclgrind' "$out" &&
		has "0 pass" && has "1 failed"
}
# Under TAP the skip lines say it to Automake's driver.
run_all_skips() {
	run 77 run --device oclgrind "$data/cases/needs_fp16.yaml" &&
		has "1 skipped, 0 failed; every result a skip, so nothing was checked" &&
		run 0 run --tap --device oclgrind "$data/cases/needs_fp16.yaml" &&
		has "ok 1 - needs_fp16 [oclgrind] build # SKIP"
}
# A case with no output is judged by the simulator's findings; on a device, which finds
# nothing, its run compared nothing, and a pass there would read as a checked output.
no_output_no_device_pass() {
	run 77 run --device pocl "$data/cases/same_value.yaml" &&
		has "note: nothing to compare on pocl-cpu: the case has no output" &&
		has "every result a skip, so nothing was checked" &&
		run 0 run --device pocl,oclgrind --json "$data/cases/same_value.yaml" &&
		has '"target":"pocl-cpu","backend":"device","N":64,"L":16,"shape":"N=64 L=16","verdict":"skip"' &&
		has '"target":"oclgrind","backend":"oclgrind","N":64,"L":16,"shape":"N=64 L=16","verdict":"pass"'
}
check_all_skips() {
	run 77 check "$data/kernels/fp16_sum.cl" --kernel twice --global 64 --local 16 &&
		has "0 of 6 runs ran to the end (6 skipped)" &&
		has "check: nothing was checked: every run was a skip"
}
# Without the simulator no race is looked for, which the summary and SARIF say; with one
# device and no --expect nothing is compared either, and the check is no pass.
check_without_simulator() {
	k=$data/kernels/doubles.cl
	in="{name: in, buffer: int, count: N, init: {iota: 1}}"
	run 77 check --device pocl --sarif "$work/nothing.sarif" "$k" --kernel twice --global 4 --local 2 &&
		has "check: nothing was checked: one device, no simulator and no --expect" &&
		grep -q '"executionSuccessful": *false' "$work/nothing.sarif" &&
		run 0 check --device pocl "$k" --kernel twice --global 4 --local 2 --arg "$in" \
			--expect 'out=[2, 4, 6, 8]' &&
		has "check: no simulator among the targets: races, out-of-bounds and uninitialised accesses were not looked for" &&
		run 0 check "$k" --kernel twice --global 4 --local 2 && lacks "no simulator"
}
hunt_all_skips() {
	run 77 hunt --device oclgrind --budget 10 -j 2 "$data/kernels/fp16_sum.cl" --kernel twice --global 64 --local 16 &&
		has "0 of 2 trials ran to the end (2 skipped)" &&
		has "nothing was checked: every trial was a skip; $data/kernels/fp16_sum.cl enables cl_khr_fp16" &&
		GITHUB_ACTIONS=true run 77 hunt --device oclgrind --budget 10 -j 2 "$data/kernels/fp16_sum.cl" --kernel twice \
			--global 64 --local 16 &&
		has "::warning file=$data/kernels/fp16_sum.cl,title=clharness nothing was checked::nothing was checked: every trial was a skip"
}
# An output element the kernel never wrote still holds its poison: said so, not as a value.
never_written() {
	run 1 run --device pocl "$data/cases/never_written.yaml" &&
		has "out[1]: got nothing: it was never written, want 6; 32 of 64 elements differ, 32 of them never written" &&
		run 1 run --device pocl --json "$data/cases/never_written.yaml" &&
		has '"differ":32,"compared":64,"never_written":32}'
}
no_golden_from_a_cut() {
	mkdir -p "$work/cases" "$work/kernels" &&
		cp "$data/cases/cut_short.yaml" "$work/cases/" &&
		cp "$data/kernels/one_place_local_ids.cl" "$work/kernels/" &&
		CLHARNESS_OCLGRIND_MAX_ERRORS=20 run 1 run --device oclgrind --bless "$work/cases/cut_short.yaml" &&
		has "cut_short.yaml: not blessed: its run 'oclgrind N=64 L=16' was cut short" &&
		[ ! -e "$work/expected/cut_short.expect" ]
}

check "a race past Oclgrind's cap stays an error, never 'same value', and the runs are cut short" capped_race_stays_an_error
check "writes of one value are a warning where every diagnostic was seen" same_value_with_whole_evidence
check "a run cut short says so in its verdict, JSON and exit status, and the next size gets a fresh Oclgrind" cut_short_run
check "a run cut short with nothing else found is 'incomplete', not a pass" cut_short_is_no_pass
check "run whose every result is a skip exits 77 and says nothing was checked" run_all_skips
check "a case with no output is a skip on a device, which compared nothing, and judged by the simulator" no_output_no_device_pass
check "check whose every run is a skip exits 77 and says nothing was checked" check_all_skips
check "check without the simulator says what it did not look for, and with one device alone exits 77" check_without_simulator
check "hunt whose every trial is a skip stops after the plain run and exits 77" hunt_all_skips
check "an output element never written is said to be that, in text and JSON" never_written
check "--bless writes no golden from a run cut short" no_golden_from_a_cut
echo "1..$n"
