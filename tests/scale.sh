#!/bin/sh
# scale.sh - grading where courses grade, spoken as TAP: shards of a class and of a run
# merged into exactly what one grading or run gives, a missing shard named, a grading
# stopped by Ctrl-C finished with --resume, Gradescope's results.json checked against
# the format's documented fields, JUnit and --min-score for a classroom's CI, and the
# progress line on a terminal only.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
corpus=$CLH_TEST_DATA/../grading
top=$(cd "$CLH_TEST_DATA/../.." && pwd)
schema=$(dirname "$CLHARNESS")/tests/gradescope_schema
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0

# reduce_sum without its speed check, whose points a test run beside this one (make
# check -j) can move.
. "$(dirname "$0")/untimed.sh"
assignment=$work/reduce_sum.yaml
untimed_assignment "$top/assignments/reduce_sum.yaml" "$assignment" || { echo "Bail out!"; exit 1; }

check() {
	n=$((n + 1))
	: >"$work/why"
	if "$2"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# /' "$work/why"
	fi
}
has() { grep -F -q -- "$2" "$1" || { echo "$1 lacks: $2" >>"$work/why"; return 1; }; }
lacks() { ! grep -F -q -- "$2" "$1" || { echo "$1 holds: $2" >>"$work/why"; return 1; }; }
same() { diff -u "$1" "$2" >>"$work/why"; }

# Points of every check in a student's report, without the timings a speed check quotes.
# A crash's messages differ from run to run (and hold brackets), so diagnostics
# go whole: a string in them is skipped as a string, escapes included.
points() {
	sed 's/"summary":"\([^"\\]\|\\.\)*"//g
		s/"diagnostics":\[\([^]"]\|"\([^"\\]\|\\.\)*"\)*\]//g
		s/"speed":[0-9.]*//g' "$1"
}

# One grading of the class, and the same class in three shards merged.
"$CLHARNESS" grade -j 2 -o "$work/one" "$assignment" "$corpus/reduce_sum/" >"$work/one.md" 2>/dev/null
for k in 1 2 3; do
	"$CLHARNESS" grade -j 2 --shard $k/3 -o "$work/shard$k" "$assignment" "$corpus/reduce_sum/" \
		>/dev/null 2>"$work/shard$k.err"
done

grade_shards_merge() {
	"$CLHARNESS" merge -o "$work/merged" "$assignment" "$work/shard1" "$work/shard2" \
		"$work/shard3" >"$work/merged.md" 2>"$work/merge.err" || { cat "$work/merge.err" >>"$work/why"; return 1; }
	same "$work/one/class.csv" "$work/merged/class.csv" &&
		same "$work/one/class.md" "$work/merged/class.md" &&
		same "$work/one.md" "$work/merged.md" &&
		has "$work/merged/class.csv" "racy,25,15,0,15,55," || return 1
	for r in "$work"/one/*.json; do
		s=$(basename "$r")
		[ -f "$work/merged/$s" ] && [ -f "$work/merged/${s%.json}.txt" ] ||
			{ echo "no merged report $s" >>"$work/why"; return 1; }
		points "$r" >"$work/a" && points "$work/merged/$s" >"$work/b" && same "$work/a" "$work/b" || return 1
	done
}

missing_shard_named() {
	"$CLHARNESS" merge -o "$work/partial" "$assignment" "$work/shard1" "$work/shard3" \
		>/dev/null 2>"$work/missing.err"
	[ $? -eq 2 ] || { echo "merge of two shards of three did not fail with 2" >>"$work/why"; return 1; }
	has "$work/missing.err" "shard 2 of 3 is missing" &&
		[ ! -f "$work/partial/class.csv" ]
}

unfinished_shard_named() {
	cp -r "$work/shard2" "$work/shard2-cut"
	student=$(basename "$(ls "$work"/shard2-cut/*.json | head -n 1)" .json)
	rm "$work/shard2-cut/$student.json"
	"$CLHARNESS" merge -o "$work/cut" "$assignment" "$work/shard1" "$work/shard2-cut" \
		"$work/shard3" >/dev/null 2>"$work/cut.err"
	[ $? -eq 2 ] && has "$work/cut.err" "no report for $student of shard 2 of 3" &&
		has "$work/cut.err" "--shard 2/3 --resume"
}

run_shards_merge() {
	cases=$(cd "$CLH_TEST_DATA/../../cases" && pwd)
	# Two runs are compared verdict by verdict: a twin whose wrong output on PoCL comes
	# and goes with the threads' timing would differ between them for no fault of the
	# shards. Both look-back twins do: the one that reads before the flag in some runs,
	# the one with no fence in about 1 run of 100 on a loaded machine (its case says why).
	set -- "$cases/reduce" $(ls "$cases"/scan/*.yaml | grep -v 'decoupled_lookback_')
	"$CLHARNESS" run --json -d pocl-cpu "$@" >"$work/run-one.jsonl" 2>/dev/null
	for k in 1 2 3; do
		"$CLHARNESS" run --json -d pocl-cpu --shard $k/3 "$@" \
			>"$work/run-$k.jsonl" 2>/dev/null
	done
	mkdir -p "$work/m" && "$CLHARNESS" merge -o "$work/m/run-one.jsonl" "$work/run-1.jsonl" \
		"$work/run-2.jsonl" "$work/run-3.jsonl" 2>>"$work/why" || return 1
	# The lines without their timings: what ran, where, at what shape, and its verdict.
	for f in "$work/run-one.jsonl" "$work/m/run-one.jsonl"; do
		sed 's/"kernel_ms".*"verdict"/"verdict"/; s/"_ms":[0-9.e-]*//g' "$f" |
			cut -d, -f1-8 >"$f.keys"
	done
	has "$work/run-one.jsonl.keys" "reduce/halving" &&
		same "$work/run-one.jsonl.keys" "$work/m/run-one.jsonl.keys" || return 1
	(cd "$work" && "$CLHARNESS" catalogue --results run-one.jsonl "$@" >page-one.md)
	(cd "$work/m" && "$CLHARNESS" catalogue --results run-one.jsonl "$@" >page.md)
	has "$work/m/page.md" "reduce/halving" && same "$work/page-one.md" "$work/m/page.md" &&
		"$CLHARNESS" merge "$work/run-1.jsonl" "$work/run-3.jsonl" >/dev/null 2>"$work/run-missing.err"
	[ $? -eq 2 ] && has "$work/run-missing.err" "shard 2 of 3 is missing"
}

# A shard's run killed part-way leaves whole lines and fewer of them, and no closing line:
# merged as they were, its missing cases read as never run. The shards are run_shards_merge's.
cut_run_shard_named() {
	tail -1 "$work/run-2.jsonl" | grep -q '"end":true' ||
		{ echo "run-2.jsonl does not end with its closing line" >>"$work/why"; return 1; }
	head -n 4 "$work/run-2.jsonl" >"$work/run-2-cut.jsonl"
	"$CLHARNESS" merge "$work/run-1.jsonl" "$work/run-2-cut.jsonl" "$work/run-3.jsonl" \
		>"$work/run-cut.jsonl" 2>"$work/run-cut.err"
	[ $? -eq 2 ] || { echo "a merge with a shard cut short did not fail with 2" >>"$work/why"; return 1; }
	[ ! -s "$work/run-cut.jsonl" ] || { echo "the merge printed lines" >>"$work/why"; return 1; }
	has "$work/run-cut.err" "run-2-cut.jsonl:4:1: error: shard 2 of 3 has no closing line" &&
		has "$work/run-cut.err" "clharness run --json --shard 2/3" || return 1
	cat "$work/run-1.jsonl" "$work/run-2.jsonl" >"$work/run-1-2.jsonl"
	"$CLHARNESS" merge "$work/run-1-2.jsonl" "$work/run-3.jsonl" >/dev/null 2>"$work/run-joined.err"
	[ $? -eq 2 ] && has "$work/run-joined.err" "lines after the shard's closing line" &&
		has "$work/run-joined.err" "shard 2 of 3 is missing"
}

# Ctrl-C after some students: every report there is whole, the table holds those
# students, and --resume grades only the others, to the scores one grading gives.
stopped_then_resumed() {
	out=$work/stopped
	"$CLHARNESS" grade -j 1 -o "$out" "$assignment" "$corpus/reduce_sum/" >/dev/null 2>"$work/stop.err" &
	pid=$!
	while [ "$(ls "$out"/*.json 2>/dev/null | wc -l)" -lt 3 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.2
	done
	kill -INT $pid
	wait $pid
	status=$?
	[ $status -eq 130 ] || { echo "stopped grading exited $status, not 130" >>"$work/why"; return 1; }
	finished=$(ls "$out"/*.json | wc -l)
	rows=$(($(wc -l <"$out/class.csv") - 1))
	class=$(ls "$corpus"/reduce_sum/*.cl | wc -l)
	[ "$finished" -eq "$rows" ] && [ "$finished" -lt "$class" ] ||
		{ echo "$finished reports, $rows rows in the table" >>"$work/why"; return 1; }
	"$CLHARNESS" grade -j 2 --resume -o "$out" "$assignment" "$corpus/reduce_sum/" >/dev/null \
		2>"$work/resume.err" || { cat "$work/resume.err" >>"$work/why"; return 1; }
	kept=$(grep -c '^kept ' "$work/resume.err")
	graded=$(grep -c '^graded ' "$work/resume.err")
	[ "$kept" -eq "$finished" ] && [ "$graded" -eq $((class - finished)) ] ||
		{ echo "kept $kept, graded $graded after $finished finished" >>"$work/why"; return 1; }
	same "$work/one/class.csv" "$out/class.csv"
}

# --resume keeps a report only for the file it graded: a student who handed in again is
# graded again.
resubmitted_graded_again() {
	mkdir -p "$work/again/class"
	cp "$corpus/reduce_sum/correct.cl" "$corpus/reduce_sum/racy.cl" "$work/again/class/"
	"$CLHARNESS" grade -o "$work/again/out" "$assignment" "$work/again/class" >/dev/null 2>&1
	# racy hands in the fixed kernel.
	cp "$corpus/reduce_sum/correct.cl" "$work/again/class/racy.cl"
	"$CLHARNESS" grade --resume -o "$work/again/out" "$assignment" "$work/again/class" \
		>/dev/null 2>"$work/again.err"
	has "$work/again.err" "kept correct: 80.00" && has "$work/again.err" "graded racy: 80.00"
}

gradescope_results() {
	mkdir -p "$work/gs/results"
	"$CLHARNESS" grade --gradescope "$work/gs/results" -o "$work/gs/out" "$assignment" \
		"$corpus/reduce_sum/racy.cl" >/dev/null 2>>"$work/why" || return 1
	r=$work/gs/results/results.json
	"$schema" "$r" 2>>"$work/why" &&
		has "$r" '"score":55.00' &&
		has "$r" '"visibility":"after_published"' &&
		has "$r" 'racy.cl:8:12: error: read-write data race on local memory' &&
		lacks "$r" "N=1000," || return 1
	# The checker is no rubber stamp: a field out of the format fails it.
	sed 's/"status":"passed"/"status":"fine"/' "$r" >"$work/gs/bad.json"
	! "$schema" "$work/gs/bad.json" 2>/dev/null || { echo "the checker took a bad status" >>"$work/why"; return 1; }
	"$CLHARNESS" grade --gradescope "$work/gs/results" -o "$work/gs/out" "$assignment" \
		"$corpus/reduce_sum/racy.cl" "$corpus/reduce_sum/correct.cl" >/dev/null 2>"$work/gs/many.err"
	[ $? -eq 2 ] && has "$work/gs/many.err" "--gradescope grades one submission" || return 1
	# Gradescope's submission folder is one student's, however many .cl files it holds.
	"$CLHARNESS" grade --gradescope "$work/gs/results" -o "$work/gs/out" "$assignment" \
		"$corpus/hand_in/two_kernels" >/dev/null 2>>"$work/why" &&
		has "$r" "two_kernels holds 2 .cl files (reduce_sum.cl, reduce_sum_old.cl)"
}

# tools/gradescope/run_autograder in Gradescope's layout: the submission folder graded,
# results.json written where Gradescope reads it.
gradescope_autograder() {
	ag=$work/autograder
	mkdir -p "$ag/source" "$ag/submission"
	ln -s "$(cd "$CLH_TEST_DATA/../.." && pwd)" "$ag/source/clharness"
	echo reduce_sum >"$ag/source/ASSIGNMENT"
	cp "$corpus/reduce_sum/racy.cl" "$ag/submission/reduce_sum.cl"
	AUTOGRADER_ROOT=$ag CLHARNESS=$CLHARNESS "$ag/source/clharness/tools/gradescope/run_autograder" \
		>"$work/ag.out" 2>&1 || { cat "$work/ag.out" >>"$work/why"; return 1; }
	"$schema" "$ag/results/results.json" 2>>"$work/why" &&
		has "$ag/results/results.json" '"name":"speed"' &&
		has "$ag/results/results.json" 'submission/reduce_sum.cl:8:12: error: read-write data race' &&
		[ -s "$ag/results/reports/submission.txt" ]
}

# make-zip packs a course kept anywhere (its assignment, cases and kernels, not committed
# here) beside clharness's tree, and run_autograder grades from the unpacked zip.
course_zip() {
	top=$(cd "$CLH_TEST_DATA/../.." && pwd)
	git -C "$top" rev-parse HEAD >/dev/null 2>&1 ||
		{ echo "# no git tree to pack (a release tarball): nothing to check"; return 0; }
	c=$work/my-course
	mkdir -p "$c/assignments" "$c/cases" "$c/kernels"
	cp "$top/kernels/matrix/transpose_tiled.cl" "$c/kernels/"
	sed 's|kernels/matrix/transpose_tiled.cl|kernels/transpose_tiled.cl|' \
		"$top/cases/matrix/transpose_tiled.yaml" >"$c/cases/transpose_tiled.yaml"
	sed 's|cases/matrix/transpose_tiled.yaml|cases/transpose_tiled.yaml|' \
		"$top/tests/grading/transpose.yaml" >"$c/assignments/transpose.yaml"
	"$top/tools/gradescope/make-zip" "$c/assignments/transpose.yaml" "$work/ag.zip" \
		>>"$work/why" 2>&1 || return 1
	ag=$work/ag-course
	mkdir -p "$ag/source" "$ag/submission"
	(cd "$ag/source" && python3 -m zipfile -e "$work/ag.zip" .) || return 1
	has "$ag/source/ASSIGNMENT" "course/assignments/transpose.yaml" &&
		[ -f "$ag/source/course/kernels/transpose_tiled.cl" ] || return 1
	cp "$top/kernels/matrix/transpose_tiled.cl" "$ag/submission/"
	AUTOGRADER_ROOT=$ag CLHARNESS=$CLHARNESS sh "$ag/source/run_autograder" \
		>"$work/ag-course.out" 2>&1 || { cat "$work/ag-course.out" >>"$work/why"; return 1; }
	has "$ag/results/results.json" '"score":100.00'
}

classroom_exit_and_junit() {
	"$CLHARNESS" grade --min-score 50 --junit "$work/ci.xml" -o "$work/ci" "$assignment" \
		"$corpus/reduce_sum/racy.cl" >/dev/null 2>&1 || { echo "55 points failed --min-score 50" >>"$work/why"; return 1; }
	"$CLHARNESS" grade --min-score 60 -o "$work/ci" "$assignment" \
		"$corpus/reduce_sum/racy.cl" >/dev/null 2>"$work/ci.err"
	[ $? -eq 1 ] && has "$work/ci.err" "racy scored 55.00, below the --min-score of 60.00" &&
		has "$work/ci.xml" '<testsuite name="racy" tests="4" failures="1">' &&
		has "$work/ci.xml" '<testcase classname="racy" name="race_free">' &&
		has "$work/ci.xml" '<failure message="0 of 25 points">' &&
		has "$work/ci.xml" 'racy.cl:8:12: error: read-write data race'
}

progress_on_a_terminal_only() {
	subs="$corpus/reduce_sum/correct.cl $corpus/reduce_sum/racy.cl"
	# shellcheck disable=SC2086 # two submissions
	"$CLHARNESS" grade -j 1 -o "$work/p" "$assignment" $subs >/dev/null 2>"$work/pipe.err"
	lacks "$work/pipe.err" "grading correct" || return 1
	command -v script >/dev/null || { echo "no script(1) to stand in for a terminal" >>"$work/why"; return 1; }
	env -u CI TERM=xterm script -qec "\"$CLHARNESS\" grade -j 1 -o \"$work/p\" \"$assignment\" $subs" \
		/dev/null >"$work/tty.out" 2>&1
	has "$work/tty.out" "[0/2] grading correct" && has "$work/tty.out" "[1/2] grading racy" &&
		has "$work/tty.out" "s left"
}

check "a class graded in three shards merges into the table and reports one grading gives" grade_shards_merge
check "a merge names the shard that is missing and writes no table" missing_shard_named
check "a merge names the student a shard did not finish" unfinished_shard_named
check "a run in three shards merges into one run's results and catalogue page" run_shards_merge
check "a merge names a run's shard that stopped before its end" cut_run_shard_named
check "a grading stopped by Ctrl-C keeps whole reports, and --resume grades only the rest" stopped_then_resumed
check "--resume grades again a student who handed in again" resubmitted_graded_again
check "Gradescope's results.json has only the format's fields, with hidden checks after publishing" gradescope_results
check "tools/gradescope/run_autograder grades Gradescope's submission folder into results.json" gradescope_autograder
check "make-zip packs a course folder kept anywhere, and run_autograder grades from it" course_zip
check "--min-score sets the exit status and --junit reports a test case a check" classroom_exit_and_junit
check "the progress line shows on a terminal and never in a pipe" progress_on_a_terminal_only

echo "1..$n"
exit 0
