#!/bin/sh
# hostile.sh - input meant to break the harness, spoken as TAP: links that loop, FIFOs,
# kernels that print the simulator's own words, limits in case files, report folders
# holding links, termination signals. Each must give a clear verdict or error and lose
# nothing else. Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), and PoCL.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
work=$(mktemp -d)
out=$work/out
trap 'rm -rf "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^pocl-cpu'; then
	echo "1..0 # SKIP no PoCL device (install pocl-opencl-icd)"
	exit 0
fi
has_oclgrind=$("$CLHARNESS" devices 2>/dev/null | grep -c '^oclgrind  *simulator ')

# A catalogue of one good case, with two links back to its root (each loops for ever if
# followed), a link to the case, and a FIFO named like a case (which blocks a reader).
loops_and_fifos() {
	tree=$work/loops
	mkdir -p "$tree/cases/t" "$tree/kernels" &&
		cp "$data/cases/good.yaml" "$tree/cases/t/" && cp "$data/kernels/copy.cl" "$tree/kernels/" &&
		ln -s .. "$tree/cases/t/up" && ln -s ../.. "$tree/cases/t/up2" &&
		ln -s good.yaml "$tree/cases/t/alias.yaml" && mkfifo "$tree/cases/t/fifo.yaml" || return 1
	timeout 120 "$CLHARNESS" run --device pocl "$tree" >"$out" 2>&1
	[ $? -eq 0 ] && [ "$(count '^pass ')" -eq 2 ] &&
		has "fifo.yaml: warning: skipped: not a regular file"
}

printed_words_are_no_finding() {
	[ "$has_oclgrind" -gt 0 ] || return 0
	run 0 check --device oclgrind "$data/kernels/prints_diagnostics.cl" --kernel copy --global 16 --local 4 &&
		[ "$(count '^pass ')" -eq 3 ] && [ "$(count '^crash ')" -eq 0 ]
}

# Links planted in the report folder, named as the reports will be: grading replaces them
# and writes nothing where they point.
report_links_replaced() {
	reports=$work/reports
	mkdir -p "$reports" && echo "keep me" >"$work/victim" &&
		ln -s "$work/victim" "$reports/not_compiling.txt" && ln -s "$work/victim" "$reports/class.csv" || return 1
	run 0 grade --timeout 5 -o "$reports" "$data/../../assignments/reduce_sum.yaml" \
		"$data/../grading/reduce_sum/not_compiling.cl" &&
		[ "$(cat "$work/victim")" = "keep me" ] && [ -f "$reports/not_compiling.txt" ] &&
		[ ! -L "$reports/not_compiling.txt" ] && [ ! -L "$reports/class.csv" ] &&
		grep -q "build-error" "$reports/class.csv" ||
		{ ls -la "$reports" >>"$out"; return 1; }
}

# Every run crashes: nothing was checked, and the summary must not read as a clean kernel.
lost_runs_counted() {
	run 1 check --device pocl "$data/kernels/crash.cl" --kernel crash --global 16 --local 4 &&
		has "0 of 3 runs ran to the end (3 failed: timeout, crash or build error); 0 errors and 0 warnings found"
}

# 4 TiB of input: the device's own limit says no, before the host tries to hold it.
huge_buffer_skipped() {
	run 0 run --device pocl "$data/cases/buffer_too_large.yaml" "$data/cases/good.yaml" &&
		has "note: buffer in needs 1099511627776 elements of 4 bytes (4398046511104 bytes); pocl-cpu allocates at most" &&
		[ "$(count '^skip .*buffer_too_large')" -eq 1 ] && [ "$(count '^pass .*good')" -eq 2 ] && lacks "crash"
}

# still_running TEXT: some process has TEXT in its command line (a worker is a fork of
# the harness, so it carries the harness's own).
still_running() { pgrep -f -- "$1" >/dev/null; }

# A kernel that hangs for up to 60 s; SIGINT to the parent alone (not its group, as a
# terminal's Ctrl-C would) must end the worker too, at once.
sigint_to_parent_alone() {
	marker=$work/sigint-marker.yaml
	cp "$data/cases/hang.yaml" "$marker" && cp "$data/kernels/hang.cl" "$work/" || return 1
	sed -i -e 's|kernels/hang.cl|hang.cl|' -e '/^timeout:/d' "$marker"
	"$CLHARNESS" run --device pocl --timeout 60 "$marker" >"$out" 2>&1 &
	pid=$!
	sleep 3
	kill -INT "$pid"
	wait "$pid"
	status=$?
	sleep 1
	[ "$status" -eq 130 ] && has "stopped by Interrupt" && ! still_running "$marker" ||
		{ echo "exit status $status; still running: $(pgrep -fa -- "$marker")" >>"$out"; return 1; }
}

# SIGTERM to the parent alone once one student is graded: the graders and their workers
# end, and the finished student's reports and the class table are written.
sigterm_while_grading() {
	class=$work/class-sigterm
	mkdir -p "$class" && cp "$data/../grading/reduce_sum/correct.cl" "$data/../grading/reduce_sum/hanging.cl" "$class/" || return 1
	"$CLHARNESS" grade -j 1 --timeout 60 -o "$class.out" "$data/../../assignments/reduce_sum.yaml" "$class" >"$out" 2>&1 &
	pid=$!
	for _ in $(seq 1 120); do
		grep -q "^graded correct" "$out" && break
		sleep 0.5
	done
	kill -TERM "$pid"
	wait "$pid"
	status=$?
	sleep 1
	[ "$status" -eq 143 ] && has "1 of 2 students graded" && ! still_running "$class" &&
		[ -s "$class.out/correct.txt" ] && [ ! -e "$class.out/hanging.txt" ] &&
		grep -q "^correct,25," "$class.out/class.csv" && ! grep -q "^hanging" "$class.out/class.csv" ||
		{ echo "exit status $status; still running: $(pgrep -fa -- "$class")" >>"$out"; return 1; }
}

# A 3.4 MB source whose one line holds the error: what reaches the report is a few
# kilobytes that say how much was cut.
long_source_cut() {
	{
		printf 'kernel void k(global int *out) { int x = 0;'
		i=0
		while [ $i -lt 2000 ]; do printf '%s' "$chunk"; i=$((i + 1)); done
		printf ' x += undeclared; out[0] = x; }\n'
	} >"$work/long.cl"
	run 1 check --device pocl "$work/long.cl" --kernel k --global 1 --local 1 &&
		has "bytes cut]" && has "x += undeclared;" && [ "$(wc -c <"$out")" -lt 16384 ]
}
chunk=$(printf ' x += 1;%.0s' $(seq 1 210))

check "links that loop or alias and a FIFO named like a case: each case runs once, the FIFO is skipped" loops_and_fifos
check "a kernel that prints Oclgrind's own words passes, with no finding and no crash" printed_words_are_no_finding
check "grade -o replaces links planted in the report folder and writes nothing through them" report_links_replaced
check "check's summary counts runs that crashed as failed runs" lost_runs_counted
check "a buffer larger than the device allocates is a skip naming it and its bytes" huge_buffer_skipped
check "SIGINT to the parent alone ends a hanging kernel's worker at once" sigint_to_parent_alone
check "SIGTERM while grading ends every grader and worker and keeps the finished student's reports and table" sigterm_while_grading
check "a build error in a 3.4 MB line is quoted around its column, saying how much was cut" long_source_cut

echo "1..$n"
exit 0
