#!/bin/sh
# html.sh - the HTML reports of run, check, hunt, grade and bench, spoken as TAP: each page
# well-formed by the HTML standard's parser (tests/html-check.py, html5lib in strict
# mode) and self-contained; a race shown with both of its lines marked in the source,
# each under the work-item that made it, and the fix; a wrong output and a broken case
# file at their lines; a page a student can open with the points a check; bench's plot
# in the page; and a run that checked nothing saying so.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL, Oclgrind and Debian's
# python3-html5lib.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
top=$data/../..
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! /usr/bin/python3 -c 'import html5lib' 2>/dev/null; then
	echo "1..0 # SKIP checking HTML needs Debian's python3-html5lib (tools/bootstrap installs it)"
	exit 0
fi
if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^oclgrind '; then
	echo "1..0 # SKIP the findings come from Oclgrind (install oclgrind)"
	exit 0
fi

# page FILE: FILE is well-formed and self-contained; what the checker printed is in $out.
page() {
	/usr/bin/python3 "$(dirname "$0")/html-check.py" "$1" >"$out" 2>&1 && has "ok"
}

race="kernels/barrier/broadcast_sum_no_barrier_after_load"
run_page() {
	(cd "$top" && "$CLHARNESS" run --device oclgrind --html "$work/run" \
		cases/barrier/broadcast_sum_no_barrier_after_load.yaml >/dev/null 2>&1) || return 1
	page "$work/run/index.html" &&
		has "race error $race.cl:7:15" &&
		has "  line 7: this write, by work-item global (16,0,0) local (16,0,0) group (0,0,0) | hit 7" &&
		has "  line 10: the read it races with, by work-item global (0,0,0) local (0,0,0) group (0,0,0) | hit 10" &&
		has "  fix: Fix (line 7): nothing orders line 7 before line 10" &&
		has "count passed 0" && has "count expected bugs 3" && lacks "incomplete:"
}
failed_runs_shown() {
	run 1 run --device pocl --html "$work/fail" "$data/cases/reference_file_wrong.yaml" "$data/cases/typo_key.yaml" &&
		page "$work/fail/index.html" &&
		has "wrong-output error " && has "reference_file_wrong.yaml:11:3" &&
		has "case-error error " && has "typo_key.yaml:7:16" && has "  line 7 | hit 7" &&
		has "count failed 1" &&
		has "incomplete: Not everything asked for was checked: 1 case file did not load" &&
		grep -q "<th>the outputs that differ</th>" "$work/fail/index.html" &&
		grep -q "<td class=\"t\">pocl-cpu N=1024 L=16 of reference_file_wrong</td><td>out\[100\]: got 100, want -1;" "$work/fail/index.html"
}
check_and_hunt_pages() {
	run 1 check --device oclgrind --html "$work/check" "$data/kernels/neighbour_race.cl" \
		--kernel neighbour --global 64 --local 16 &&
		page "$work/check/index.html" && has "race error " && has "neighbour_race.cl:7" &&
		has "| hit 7" &&
		run 1 hunt --budget 20 -j 2 --html "$work/hunt" "$data/kernels/neighbour_race.cl" \
			--kernel neighbour --global 64 --local 16 &&
		page "$work/hunt/index.html" && has "race error "
}
grade_pages() {
	run 1 grade -j 2 -o "$work/g" --html "$work/gh" "$top/assignments/reduce_sum.yaml" \
		"$data/../grading/reduce_sum/racy.cl" "$data/../grading/reduce_sum/not_compiling.cl" \
		--min-score 100 &&
		page "$work/gh/index.html" && has "link racy.html" && has "link not_compiling.html" &&
		page "$work/gh/racy.html" && has "title: reduce_sum: racy, " && has " of 85 visible points" &&
		has "race error " && has "racy.cl:8" && has "| hit 12" &&
		grep -q "passed (hidden check)" "$work/gh/racy.html" &&
		grep -q '<b>1</b>error</li>' "$work/gh/racy.html" &&
		grep -q '<td class="t">racy: race_free</td><td>read-write data race on local memory' "$work/gh/racy.html" &&
		! grep -q "sums_any_n.*runs right" "$work/gh/racy.html" &&
		page "$work/gh/not_compiling.html" && has "build-error error " &&
		grep -q "The build log" "$work/gh/not_compiling.html"
}
bench_page() {
	if ! command -v gnuplot >/dev/null; then
		echo "gnuplot missing" >"$out"
		return 1
	fi
	(cd "$top" && "$CLHARNESS" bench --device pocl --size 4096 --rounds 2 --html "$work/bench" \
		cases/reduce/grid_float4.yaml >/dev/null 2>&1) || return 1
	page "$work/bench/index.html" && grep -q "<svg" "$work/bench/index.html" &&
		grep -q "reduce/grid_float4</td><td>pocl-cpu</td><td>4096</td>" "$work/bench/index.html"
}
nothing_checked_said() {
	run 1 run --device pocl --html "$work/skip" "$data/cases/needs_fp16.yaml" ;
	page "$work/skip/index.html" && has "incomplete: Not everything asked for was checked" &&
		has "title: clharness run: 0 errors, not everything checked" &&
		: >"$work/file" && run 2 run --device pocl --html "$work/file" "$data/cases/good.yaml" &&
		has "cannot write the HTML report in '$work/file'"
}

check "run's page: the race's two lines side by side, marked, each with its work-item, and the fix" run_page
check "a wrong output and a broken case file are shown at their lines" failed_runs_shown
check "check and hunt write their findings as a page" check_and_hunt_pages
check "grade: a page a student with the points and the student's lines, and the class's" grade_pages
check "bench's page holds its plot and every row" bench_page
check "a run that checked nothing says so on its page; a page that cannot be written is a usage error" nothing_checked_said

echo "1..$n"
exit 0
