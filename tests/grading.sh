#!/bin/sh
# grading.sh - `clharness grade` over the sample submissions in tests/grading/, spoken as
# TAP: each assignment's class table must equal the expected scores beside its corpus,
# and the reports must say what a student needs (caret at the student's line, the build
# log, the signature asked for) and keep hidden checks' details out.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
corpus=$CLH_TEST_DATA/../grading
assignments=$CLH_TEST_DATA/../../assignments
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0

# check DESCRIPTION FUNCTION: one TAP line for whether FUNCTION succeeds; on failure what
# it left in $work/why follows as TAP comments.
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

# has FILE TEXT: FILE holds TEXT verbatim. lacks FILE TEXT: it does not.
has() { grep -F -q -- "$2" "$1" || { echo "$1 lacks: $2" >>"$work/why"; return 1; }; }
lacks() { ! grep -F -q -- "$2" "$1" || { echo "$1 holds: $2" >>"$work/why"; return 1; }; }

# grade NAME [SUBMISSION...]: grades the submissions (default tests/grading/NAME/) against
# assignments/NAME.yaml into $work/NAME, under the run limits derived from the reference
# kernels' own time.
grade() {
	name=$1
	shift
	[ $# -gt 0 ] || set -- "$corpus/$name/"
	"$CLHARNESS" grade -j 2 -o "$work/$name" "$assignments/$name.yaml" "$@" \
		>"$work/$name.md" 2>"$work/$name.err"
	echo $? >"$work/$name.status"
}

# scores NAME: the class table is the expected one, student by student; a range in the
# expected table (a speed check's points near a threshold) takes any number in it.
scores() {
	[ "$(cat "$work/$1.status")" -eq 0 ] || { cat "$work/$1.err" >>"$work/why"; return 1; }
	"$CLH_TEST_DATA/../../tools/match-scores" "$corpus/$1.csv" "$work/$1/class.csv" >>"$work/why"
}
reduce_scores() { scores reduce_sum; }
dot_scores() { scores dot_product; }
scan_scores() { scores inclusive_scan; }
transpose_scores() { scores transpose_class; }

every_student_reported() {
	for s in "$corpus"/reduce_sum/*.cl; do
		name=$(basename "$s" .cl)
		[ -s "$work/reduce_sum/$name.txt" ] && [ -s "$work/reduce_sum/$name.json" ] ||
			{ echo "no report for $name" >>"$work/why"; return 1; }
	done
	has "$work/reduce_sum.md" "| correct | 25 | 15 | 25 | 15 | "
}

race_at_student_line() {
	r=$work/reduce_sum/racy.txt
	has "$r" "racy.cl:8:12: error: read-write data race on local memory: this write conflicts with a read at line 12" &&
		has "$r" "     8 | 	part[lid] = gid < n ? in[gid] : 0;" &&
		has "$r" "       | 	          ^"
}

# The student's text, and their log with --student-log, say pass or fail of a hidden
# check and nothing more (not its points, nor the total holding them); the instructor's
# report and JSON record hold its points, sizes and mismatches.
hidden_check_says_only_pass_or_fail() {
	r=$work/reduce_sum/not_power_of_two.txt
	has "$r" "sums_any_n              hidden  failed (hidden check)" &&
		has "$r" "0 of 1 hidden check passed" &&
		lacks "$r" "sums_any_n:" && lacks "$r" "N=1000" && lacks "$r" "/ 100" &&
		lacks "$r" "not a multiple" || return 1
	i=$work/reduce_sum/instructor/not_power_of_two.txt
	has "$i" "sums_any_n              0 / 15  0 of 6 runs right (hidden check)" &&
		has "$i" "sums_any_n (hidden check): every work-group's sum is right when N is not a multiple" &&
		has "$i" "(N=1000, L=64)" && has "$work/reduce_sum/not_power_of_two.json" "N=1000" || return 1
	# A hang in a hidden check leaves the visible checks' runs out; their summaries say
	# so without the hidden check's launch.
	sed 's/^\tpart\[lid\] = gid < n ? in\[gid\] : 0;$/&\n\tif (n % get_local_size(0)) for (;;) ;/' \
		"$corpus/reduce_sum/correct.cl" >"$work/hangs_when_not_a_multiple.cl"
	grep -q "for (;;)" "$work/hangs_when_not_a_multiple.cl" || { echo "no hang made" >>"$work/why"; return 1; }
	"$CLHARNESS" grade -o "$work/hidden_hang" "$assignments/reduce_sum.yaml" \
		"$work/hangs_when_not_a_multiple.cl" >/dev/null 2>&1
	h=$work/hidden_hang/hangs_when_not_a_multiple.txt
	has "$h" "since the kernel hung in a hidden check" && lacks "$h" "N=1000" &&
		has "$work/hidden_hang/instructor/hangs_when_not_a_multiple.txt" "(N=1000, L=64)" &&
		has "$work/hidden_hang/class.csv" "timeout in sums_any_n at N=1000 L=64" || return 1
	# Under GitHub Actions the visible checks' errors are annotated at the student's
	# lines, and nothing of a hidden check's.
	GITHUB_ACTIONS=true "$CLHARNESS" grade -o "$work/annotated" "$assignments/reduce_sum.yaml" \
		"$corpus/reduce_sum/racy.cl" "$corpus/reduce_sum/not_power_of_two.cl" >"$work/annotated.out" 2>&1
	has "$work/annotated.out" "::error file=" &&
		has "$work/annotated.out" "racy.cl,line=8,col=12,title=clharness read-write data race on local memory::" &&
		lacks "$work/annotated.out" "N=1000" || return 1
	"$CLHARNESS" grade --student-log -o "$work/log" "$assignments/reduce_sum.yaml" \
		"$corpus/reduce_sum/not_power_of_two.cl" >"$work/log.out" 2>&1
	has "$work/log.out" "sums_any_n              hidden  failed (hidden check)" &&
		lacks "$work/log.out" "N=1000" && lacks "$work/log.out" "| student |" &&
		lacks "$work/log.out" "/ 100" && lacks "$work/log.out" "not a multiple"
}

build_error_with_log() {
	r=$work/reduce_sum/not_compiling.txt
	has "$r" "not_compiling.cl:8:14: error: cannot combine with previous 'type-name' declaration specifier" &&
		has "$r" "the build log:" &&
		has "$work/reduce_sum/not_compiling.json" '"verdict":"build-error"'
}

signature_named() {
	has "$work/reduce_sum/wrong_signature.txt" "kernel reduce_sum has other parameters than the assignment's 'kernel void reduce_sum(global const int *in, uint n, local int *scratch, global int *out)': parameter 1 is 'global float* in', the assignment asks for 'global int* in'"
}

hang_and_crash_named() {
	has "$work/reduce_sum/hanging.txt" "error: timeout: no result after " &&
		has "$work/reduce_sum/hanging.txt" " s (the limit of a correct run: 50 times the reference kernel's slowest, " &&
		has "$work/reduce_sum/hanging.txt" "0 of 4 simulated runs free of what it forbids; 4 not run, since the kernel hung at N=1024, L=32 on" &&
		has "$work/reduce_sum/crashing.txt" "error: crash: the worker running this died: killed by signal 11" &&
		has "$work/reduce_sum/slow.txt" "of the reference's speed" &&
		has "$work/reduce_sum/slow.txt" "ms a launch, the fastest of 5 rounds of 1 launch, against " &&
		has "$work/reduce_sum/correct.txt" " in rounds of 10, at N=1048576, L=256)"
}

missing_kernel_named() {
	"$CLHARNESS" grade -o "$work/missing" "$assignments/inclusive_scan.yaml" \
		"$corpus/reduce_sum/correct.cl" >/dev/null 2>&1 &&
		has "$work/missing/correct.txt" "error: no kernel named scan_blocks: the assignment asks for 'kernel void scan_blocks("
}

broken_assignment() {
	printf 'kernels: [kernel void k(global int *x)]\nchecks:\n  - {name: c, points: 1, corect: {case: x.yaml}}\n' >"$work/broken.yaml"
	"$CLHARNESS" grade "$work/broken.yaml" "$corpus/reduce_sum/correct.cl" >/dev/null 2>"$work/broken.err"
	[ $? -eq 2 ] || { echo "exit status is not 2" >>"$work/why"; return 1; }
	has "$work/broken.err" "broken.yaml:3:26: error: unknown key 'corect' in a check; did you mean 'correct'?"
}

# includes: only the student's own folder's files are included; every other way is
# refused at its line before any compiler reads it, so no report quotes the file.
includes_refused() {
	scores includes || return 1
	for r in "$work"/includes/*.txt "$work"/includes/*.json; do
		lacks "$r" "root:x:0:0" && lacks "$r" "fills its slot, the ones past the end" ||
			return 1
	done
	has "$work/includes/system_file.txt" 'system_file.cl:2:1: error: #include "/etc/passwd": a submission handed in as a lone .cl file may include nothing' &&
		has "$work/includes/climbs_out.txt" 'climbs_out/reduce_sum.cl:2:1: error: #include "../own_helpers/helpers.h" reaches outside the submission' &&
		has "$work/includes/through_macro.txt" "through_macro.cl:3:1: error: #include names its file through a macro"
}

# A simulate check that requires a correct check earns nothing until that passes, and
# leaves the simulated output to it; one that does not earns nothing where its output is
# wrong. The sizes 100 and 256 need the sums of any N, which not_power_of_two gets wrong.
requires_tied() {
	top=$(cd "$CLH_TEST_DATA/../.." && pwd)
	sed -e '/^  - name: speed/,$d' -e "s|case: cases/|case: $top/cases/|" \
		-e 's/^    forbid: \[race, barrier-divergence\]$/&\n    requires: [sums_power_of_two]/' \
		"$assignments/reduce_sum.yaml" >"$work/tied.yaml"
	grep -q "requires: \[sums_power_of_two\]" "$work/tied.yaml" ||
		{ echo "the assignment was not tied" >>"$work/why"; return 1; }
	"$CLHARNESS" grade -o "$work/tied" "$work/tied.yaml" "$corpus/reduce_sum/empty_body.cl" \
		"$corpus/reduce_sum/not_power_of_two.cl" >/dev/null 2>"$work/tied.err" ||
		{ cat "$work/tied.err" >>"$work/why"; return 1; }
	has "$work/tied/class.csv" "empty_body,0,0,0,0,0," &&
		has "$work/tied/class.csv" "not_power_of_two,25,0,25,7.50,57.50," &&
		has "$work/tied/empty_body.txt" "earns nothing until sums_power_of_two passes" &&
		has "$work/tied/not_power_of_two.txt" "wrong-output under the simulator: out["
}

# A student's folder of two .cl files is one student: graded where one file defines the
# kernel, with a note; told which files were found and what is expected where both do.
# In the Classroom form (--each-a-student), a folder of two lone files is one student too.
two_files_one_student() {
	scores hand_in || return 1
	has "$work/hand_in/chose_a_file.txt" "note: 2 .cl files: graded reduce_sum.cl (the one defining the kernel)" &&
		has "$work/hand_in/two_kernels.txt" "two_kernels holds 2 .cl files (reduce_sum.cl, reduce_sum_old.cl), and several of them define reduce_sum: hand in one .cl file" || return 1
	mkdir -p "$work/classroom/submission"
	cp "$corpus/reduce_sum/correct.cl" "$work/classroom/submission/reduce_sum.cl"
	cp "$corpus/reduce_sum/racy.cl" "$work/classroom/submission/other.cl"
	"$CLHARNESS" grade --each-a-student -o "$work/classroom/out" "$assignments/reduce_sum.yaml" \
		"$work/classroom/submission" >"$work/classroom.md" 2>/dev/null
	"$CLHARNESS" grade --each-a-student --sarif "$work/two.sarif" -o "$work/two" "$assignments/reduce_sum.yaml" \
		"$corpus/hand_in/two_kernels" >/dev/null 2>&1
	lacks "$work/two.sarif" '"uri":""' && has "$work/two.sarif" 'two_kernels' || return 1
	[ "$(grep -c '^| submission |' "$work/classroom.md")" -eq 1 ] &&
		[ "$(wc -l <"$work/classroom/out/class.csv")" -eq 2 ] ||
		{ cat "$work/classroom.md" >>"$work/why"; return 1; }
}

# A build log of thousands of errors reaches the student cut, its start and end kept.
build_log_flood_cut() {
	mkdir -p "$work/flood"
	{
		echo 'kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)'
		echo '{'
		i=0
		while [ $i -lt 3000 ]; do
			echo "	undeclared_$i = $i;"
			i=$((i + 1))
		done
		echo '}'
	} >"$work/flood/error_flood.cl"
	"$CLHARNESS" grade -o "$work/flood/out" "$assignments/reduce_sum.yaml" \
		"$work/flood/error_flood.cl" >/dev/null 2>&1
	r=$work/flood/out/error_flood.txt
	has "$r" "of the build log cut here" && has "$r" "undeclared_0" || return 1
	size=$(wc -c <"$r")
	[ "$size" -lt 40000 ] || { echo "the report holds $size bytes" >>"$work/why"; return 1; }
}

# One after another: a class graded beside another would time its kernels on a busy
# machine.
grade reduce_sum
grade dot_product
# The catalogue's own scan is the right submission here.
grade inclusive_scan "$CLH_TEST_DATA/../../kernels/scan/whole_array.cl" "$corpus/inclusive_scan/"*.cl
# A 2-D assignment: a copy, an empty body and a missing barrier earn nothing of what
# they do not do, and the race check's work-groups of 16 items catch a barrier skipped in
# small groups.
"$CLHARNESS" grade -j 2 -o "$work/transpose_class" "$corpus/transpose.yaml" \
	"$CLH_TEST_DATA/../../kernels/matrix/transpose_tiled.cl" "$corpus/transpose_class/" \
	>"$work/transpose_class.md" 2>"$work/transpose_class.err"
echo $? >"$work/transpose_class.status"
# Against reduce_sum, saved under includes/ and hand_in/.
for set in includes hand_in; do
	"$CLHARNESS" grade -j 2 -o "$work/$set" "$assignments/reduce_sum.yaml" "$corpus/$set/" \
		>"$work/$set.md" 2>"$work/$set.err"
	echo $? >"$work/$set.status"
done
check "every sample submission for reduce_sum gets its expected score" reduce_scores
check "the dot-product samples get their expected scores" dot_scores
check "the inclusive-scan samples get their expected scores" scan_scores
check "the 2-D transpose samples get their expected scores" transpose_scores
check "every student gets a text and a JSON report and a row in the table" every_student_reported
check "a race is reported at the student's line with a caret" race_at_student_line
check "a hidden check says only pass or fail" hidden_check_says_only_pass_or_fail
check "a build error comes with its line and the build log" build_error_with_log
check "a wrong signature names the parameter and the prototype asked for" signature_named
check "a hang and a crash are named in the report, and a slow kernel is timed a launch a round" hang_and_crash_named
check "a missing kernel names the prototype asked for" missing_kernel_named
check "a broken assignment is reported at its line and nothing is graded" broken_assignment
check "an #include outside the student's folder is refused at its line, and no report quotes the file" includes_refused
check "a flood of build errors reaches the student's report cut" build_log_flood_cut
check "a simulate check tied to a correct check earns nothing until that passes" requires_tied
check "a folder of two .cl files is one student, graded or told what was found" two_files_one_student

echo "1..$n"
exit 0
