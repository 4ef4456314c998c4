#!/bin/sh
# mutate.sh - clharness mutate as a user meets it, spoken as TAP: mistakes seeded into a
# case's kernel and judged by its targets and golden, survivors at their lines, JSON,
# saved mutants, an assignment's matrix of checks against mutants, and bad input: a
# kernel clang cannot parse, a case that fails on its own, a run stopped by Ctrl-C.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
top=$data/../..
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^pocl-cpu '; then
	echo "1..0 # SKIP mutate judges mutants on PoCL (install pocl-opencl-icd)"
	exit 0
fi
if ! "$CLHARNESS" mutate --help >/dev/null 2>&1 ||
	! "$CLHARNESS" mutate "$data/cases/unparsable_for_mutate.yaml" 2>&1 | grep -q "undeclared identifier"; then
	echo "1..0 # SKIP this clharness was built without libclang"
	exit 0
fi

# A barrier nothing needs: removing it, or changing its fence, is caught by nothing, and
# each survivor is shown at its line with a caret; the exit status says one survived.
survivors_at_their_lines() {
	run 1 mutate --device pocl "$data/cases/needless_barrier.yaml" &&
		has "score: $data/cases/needless_barrier.yaml: 8 of 11 mutants killed (72.7%); 3 survived" &&
		has "needless_barrier.cl:7:2: warning: mutant 9 survived (barrier): barrier(CLK_GLOBAL_MEM_FENCE) removed" &&
		has "needless_barrier.cl:7:2: warning: mutant 10 survived (lockstep): barrier(CLK_GLOBAL_MEM_FENCE) taken only by work-groups of more than 32 items" &&
		has "needless_barrier.cl:7:10: warning: mutant 11 survived (fence): CLK_GLOBAL_MEM_FENCE made CLK_LOCAL_MEM_FENCE" &&
		has "       | 	^" &&
		has "killed     index    $data/kernels/needless_barrier.cl:6:6  [i] made [(i) + 1]  [the check of out on pocl-cpu N=64 L=16"
}
# --operators picks the mistakes; --json is a line a mutant and one with the score;
# --save writes each mutant as a kernel file whose lines keep their numbers.
operators_json_and_save() {
	run 0 mutate --device pocl --operators index --json --save "$work/saved" "$data/cases/needless_barrier.yaml" &&
		[ "$(count '"fate":"killed"')" -eq 4 ] && lacks '"operator":"barrier"' &&
		has '"score":1.0000,"killed":4,"survived":0,"weak":0,"stillborn":0,"timed_out":0,"unjudged":0,"mutants":4}' &&
		[ "$(ls "$work/saved" | wc -l)" -eq 4 ] &&
		grep -q "^	out\[(i) + 1\] = in\[i\];" "$work/saved/needless_barrier-m01-index-l6.cl" &&
		[ "$(wc -l <"$work/saved/needless_barrier-m01-index-l6.cl")" -eq "$(wc -l <"$data/kernels/needless_barrier.cl")" ] &&
		run 2 mutate --operators barrier,fences "$data/cases/needless_barrier.yaml" &&
		has "no operator is called 'fences' (the operators are barrier, fence, atomic"
}
# A target the case would be judged on that cannot run here (Oclgrind not installed)
# takes its catches out of the score: said before the first case and with each score, in
# text and JSON. Naming only the devices leaves nothing unavailable to say.
unavailable_target_said() {
	CLHARNESS_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so run 1 mutate --operators barrier "$data/cases/needless_barrier.yaml" &&
		has "clharness: note: oclgrind is unavailable, so no mutant is judged on it and a survivor may be one only it would catch: /nonexistent/liboclgrind-rt-icd.so cannot be read" &&
		has "0 of 1 mutants killed (0.0%); 1 survived, 0 timed out, 0 stillborn (do not build); judged without oclgrind (unavailable), so a survivor may be one only it would catch" &&
		CLHARNESS_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so run 1 mutate --json --operators barrier "$data/cases/needless_barrier.yaml" &&
		has '"mutants":1,"unavailable":["oclgrind"]}' &&
		CLHARNESS_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so run 1 mutate --device pocl --operators barrier "$data/cases/needless_barrier.yaml" &&
		lacks "unavailable"
}
# A catalogue case: each barrier's removal and each fence change caught, by a wrong
# output on PoCL or by the golden's findings under Oclgrind. Nothing is left in the
# temporary folder, though each judging process ends as soon as its mutant is caught.
catalogue_case_killed() {
	mkdir "$work/tmp-killed" &&
		TMPDIR=$work/tmp-killed run 0 mutate --device pocl,oclgrind --operators barrier,fence "$top/cases/reduce/halving.yaml" &&
		has "4 of 4 mutants killed (100.0%)" &&
		has "killed     fence    $top/kernels/reduce/halving.cl:9:10  CLK_LOCAL_MEM_FENCE made CLK_GLOBAL_MEM_FENCE  [the golden's findings on oclgrind" &&
		left_nothing "$work/tmp-killed"
}
left_nothing() {
	[ -z "$(ls -A "$1")" ] || { echo "left in $1: $(ls -A "$1")" >>"$out"; return 1; }
}
# An assignment: its reference solution's mutants graded as students, the matrix of its
# checks against them, and what each check catches that no other does.
assignment_matrix() {
	mkdir "$work/tmp-assignment" &&
		TMPDIR=$work/tmp-assignment run 0 mutate --operators barrier,fence "$top/assignments/reduce_sum.yaml" &&
		has "mutants of its reference solution" && has "checks against mutants" &&
		has "  C race_free" && has "  E speed (speed: not asked)" &&
		[ "$(count '^killed ')" -eq 4 ] && has "4 of 4 mutants killed (100.0%)" &&
		left_nothing "$work/tmp-assignment"
}
# The mistakes a class shows: the body emptied, the output's write removed, a barrier
# only for work-groups over 32 items, a guard made an early return. A mutant that keeps
# --kill-below of the points or more is a weak catch, listed with its points, no kill;
# the only visible correctness check is never called a spare.
assignment_holes() {
	run 1 mutate --operators empty,write,lockstep,return --kill-below 0.6 "$top/assignments/reduce_sum.yaml" &&
		has "killed     empty    $top/kernels/student/guard_with_identity.cl:5:1  the body of kernel reduce_sum emptied  [sums_power_of_two 0 of 25;" &&
		has "killed     write    $top/kernels/student/guard_with_identity.cl:16:3  the write to out[get_group_id(0)] removed" &&
		has "survived   lockstep $top/kernels/student/guard_with_identity.cl:9:2  barrier(CLK_LOCAL_MEM_FENCE) taken only by work-groups of more than 32 items  [a weak catch: it keeps 68.8% of the points, at least the 60% --kill-below asks it to lose: race_free 0 of 25" &&
		has "mistake that keeps 68.8% of the points: mutant 2" &&
		has "warning: mutant 2 survived, a weak catch (lockstep)" &&
		lacks "nothing of its own" &&
		run 0 mutate --json --operators empty,write,lockstep,return "$top/assignments/reduce_sum.yaml" &&
		has '"operator":"lockstep","what":"barrier(CLK_LOCAL_MEM_FENCE) taken only by work-groups of more than 32 items","fate":"killed","by":"race_free 0 of 25' &&
		has ',"kept":0.6875' && has '"score":1.0000,"killed":5,"survived":0,"weak":0,' &&
		run 2 mutate --kill-below 1.5 "$top/assignments/reduce_sum.yaml" &&
		has "--kill-below takes a share of the points above 0 and at most 1, as 0.5 or 50%, found '1.5'"
}
# Bad input: clang's errors at their lines and no mutants; a case that fails on its own
# is no measure of its checks.
bad_input_said() {
	run 2 mutate --device pocl "$data/cases/unparsable_for_mutate.yaml" &&
		has "unparsable_for_mutate.cl:3:9: error: use of undeclared identifier 'q'" &&
		lacks "mutants of" &&
		run 2 mutate --device pocl "$data/cases/reference_file_wrong.yaml" &&
		has "error: the case fails its own golden" && lacks "score:"
}
# A case whose golden expects a bug is no measure of its checks: not mutated, said, and
# with nothing else to measure the exit status is Automake's skip, not a clean 0.
known_bug_not_mutated() {
	run 77 mutate --device pocl "$top/cases/student/index_overflow.yaml" &&
		has "note: not mutated: its golden expects devices to give wrong-output" &&
		has "no mutant was judged, so nothing was measured" && lacks "score:"
}
# Ctrl-C keeps the mutants judged so far, says the rest were not, and leaves no mutant
# behind in the temporary folder.
stopped_keeps_judged() {
	mkdir "$work/tmp-stopped" || return 1
	: >"$out"
	TMPDIR=$work/tmp-stopped "$CLHARNESS" mutate --device pocl -j 1 "$top/cases/reduce/halving.yaml" >"$out" 2>&1 &
	pid=$!
	tries=0
	while [ "$(grep -c '^killed ' "$out")" -lt 2 ] && [ $tries -lt 600 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	kill -INT $pid
	wait $pid
	status=$?
	[ $status -eq 130 ] || { echo "exit status $status, want 130" >>"$out"; return 1; }
	has "the run was stopped before every mutant was judged" && [ "$(count '^killed ')" -ge 2 ] &&
		left_nothing "$work/tmp-stopped"
}

check "mutants that nothing catches are shown at their lines, and the exit status says so" survivors_at_their_lines
check "--operators picks the mistakes, --json prints a line a mutant, --save keeps them" operators_json_and_save
check "a target that cannot run here is said before the first case and with its score" unavailable_target_said
check "a catalogue case's barrier and fence mutants are caught on PoCL and Oclgrind, leaving nothing in TMPDIR" catalogue_case_killed
check "an assignment's mutants are graded, with the matrix of checks against mutants" assignment_matrix
check "empty, write, lockstep and return mutants find an assignment's holes, weak catches said" assignment_holes
check "a kernel clang cannot parse and a case that fails on its own are said" bad_input_said
check "a known-buggy case is not mutated, and nothing measured is no clean result" known_bug_not_mutated
check "Ctrl-C keeps the mutants already judged and leaves none behind" stopped_keeps_judged

echo "1..$n"
exit 0
