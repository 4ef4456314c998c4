#!/bin/sh
# sarif.sh - the SARIF 2.1.0 logs of run, check, hunt and grade, spoken as TAP: each valid
# against the SARIF 2.1.0 schema and code scanning's documented requirements
# (tests/sarif-check.py), each finding a result at its line with the conflicting access
# as a related location, the work-items and the fix; a failed run without a finding a
# result of its own; a hidden check's findings kept out; and a log of a run that checked
# nothing saying so.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL, Oclgrind and Debian's
# python3-jsonschema.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
top=$data/../..
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	echo "1..0 # SKIP validating SARIF needs Debian's python3-jsonschema (tools/bootstrap installs it)"
	exit 0
fi
if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^oclgrind '; then
	echo "1..0 # SKIP the findings come from Oclgrind (install oclgrind)"
	exit 0
fi

# valid LOG: LOG passes the schema and code scanning's requirements; what the checker
# printed (a line a result) is in $out.
valid() {
	/usr/bin/python3 "$(dirname "$0")/sarif-check.py" "$data/sarif/sarif-2.1.0-rtm.5.json" "$1" >"$out" 2>&1 &&
		has "ok"
}
# json LOG EXPR: the Python expression EXPR over the log (bound as `log`) is true.
json() {
	/usr/bin/python3 -c "import json, sys; log = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1" ||
		{ echo "not true of $1: $2" >>"$out"; return 1; }
}

# run: the race at the kernel's line, the other access as a related location, the
# work-items and the fix; paths relative to the working directory.
run_log() {
	(cd "$top" && "$CLHARNESS" run --device oclgrind --sarif "$work/run.sarif" \
		cases/barrier/broadcast_sum_no_barrier_after_load.yaml >/dev/null 2>&1) || return 1
	valid "$work/run.sarif" &&
		has "race error kernels/barrier/broadcast_sum_no_barrier_after_load.cl:7 -> 10" &&
		has "uninitialized error kernels/barrier/broadcast_sum_no_barrier_after_load.cl:" &&
		json "$work/run.sarif" 'any(r["ruleId"] == "race" and r["properties"]["workItems"] and "fix" in r["properties"] and r["properties"]["seenIn"] and "[line 10](1)" in r["message"]["text"] for r in log["runs"][0]["results"])' &&
		json "$work/run.sarif" 'log["runs"][0]["invocations"][0]["executionSuccessful"]'
}
# A wrong output with no finding to explain it is a result at the case's check line; a
# broken case file is one at its own line.
failed_runs_logged() {
	run 1 run --device pocl --sarif "$work/fail.sarif" "$data/cases/reference_file_wrong.yaml" "$data/cases/typo_key.yaml" &&
		valid "$work/fail.sarif" && has "wrong-output error " && has "case-error error " &&
		has "typo_key.yaml:7"
}
# check and hunt: a kernel named on the command line, its race in the log.
check_and_hunt_logs() {
	run 1 check --device oclgrind --sarif "$work/check.sarif" "$data/kernels/neighbour_race.cl" \
		--kernel neighbour --global 64 --local 16 &&
		valid "$work/check.sarif" && has "race error " && has "neighbour_race.cl:7" &&
		run 1 hunt --budget 20 -j 2 --sarif "$work/hunt.sarif" "$data/kernels/neighbour_race.cl" \
			--kernel neighbour --global 64 --local 16 &&
		valid "$work/hunt.sarif" && has "race error " &&
		json "$work/hunt.sarif" 'all(r["properties"]["seenIn"] for r in log["runs"][0]["results"])'
}
# grade: each student's errors at the student's lines, seen in "student: check"; a hidden
# check's stay out, as of every report a student reads.
grade_log() {
	run 1 grade -j 2 -o "$work/g" --sarif "$work/grade.sarif" "$top/assignments/reduce_sum.yaml" \
		"$data/../grading/reduce_sum/racy.cl" "$data/../grading/reduce_sum/not_power_of_two.cl" \
		"$data/../grading/reduce_sum/not_compiling.cl" --min-score 100 &&
		valid "$work/grade.sarif" && has "race error " && has "racy.cl:8" && has "build-error error " &&
		json "$work/grade.sarif" 'any("racy: race_free" in r["properties"]["seenIn"] for r in log["runs"][0]["results"])' &&
		json "$work/grade.sarif" 'not any("sums_any_n" in " ".join(r["properties"].get("seenIn", [])) for r in log["runs"][0]["results"])'
}
# A run that checked nothing is no clean log; an unwritable log is a usage error.
nothing_checked_said() {
	run 1 run --device pocl --sarif "$work/skip.sarif" "$data/cases/needs_fp16.yaml" ;
	valid "$work/skip.sarif" &&
		json "$work/skip.sarif" 'not log["runs"][0]["invocations"][0]["executionSuccessful"]' &&
		run 2 run --device pocl --sarif /nonexistent-folder/x.sarif "$data/cases/good.yaml" &&
		has "cannot write the SARIF log '/nonexistent-folder/x.sarif'"
}

check "run's log: the race at its line, the other access related, work-items and fix" run_log
check "a wrong output and a broken case file are results at their lines" failed_runs_logged
check "check and hunt write their findings as SARIF" check_and_hunt_logs
check "grade's log: each student's errors at their lines, hidden checks left out" grade_log
check "a run that checked nothing says so in its log; an unwritable log is a usage error" nothing_checked_said

echo "1..$n"
exit 0
