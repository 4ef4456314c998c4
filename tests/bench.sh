#!/bin/sh
# bench.sh - `clharness bench` as a user meets it, spoken as TAP: the table, CSV and JSON,
# the copy bandwidth beside every row, N-D sweeps, a wrong kernel reported wrong rather
# than fast, and the plot. Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both) and
# PoCL; the plot needs gnuplot.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
top=$CLH_TEST_DATA/../..
out=$(mktemp)
svg=$(mktemp --suffix=.svg)
trap 'rm -f "$out" "$svg"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

# Every size of the sweep and every work-group size has a row with figures, and so does
# the copy kernel, run first at the same sizes.
table() {
	run 0 bench --device pocl --max-size 4096 --rounds 3 "$top/cases/reduce/halving.yaml" &&
		has "median ms" && has "of copy" &&
		[ "$(count '^reduce/halving .*pocl-cpu  *\(1024\|2048\|4096\)  *\(32\|64\|256\)  *[0-9.]*  *[0-9.]*  *[0-9.]*%')" -eq 9 ] &&
		[ "$(count '^bench/copy_float4 .*pocl-cpu')" -eq 6 ]
}
# A kernel whose output is wrong gets its verdict at that size, not a speed.
wrong_is_wrong() {
	run 1 bench --device pocl --max-size 2048 --rounds 2 "$top/cases/reduce/halving_nobarrier.yaml" &&
		has "reduce/halving_nobarrier           pocl-cpu     1024         32       wrong-output: out[0]: got"
}
machine_formats() {
	run 0 bench --device pocl --max-size 1024 --rounds 2 --json "$top/cases/reduce/halving.yaml" &&
		[ "$(count '^{"case":"reduce/halving","target":"pocl-cpu","N":"1024","L":"[0-9]*","verdict":"pass","median_ms":[0-9.]*,"min_ms":.*"copy_gb_s":[0-9.]*[1-9][0-9.]*,"of_copy":[0-9.]*}$')" -eq 3 ] &&
		run 0 bench --device pocl --max-size 1024 --rounds 2 --csv "$top/cases/reduce/halving.yaml" &&
		has "case,target,N,L,verdict,median_ms,min_ms,spread,bytes,gb_s,elements_s,copy_gb_s,of_copy" &&
		[ "$(count '^reduce/halving,pocl-cpu,1024,[0-9]*,pass,')" -eq 3 ]
}
# A case's bytes: expression says what one round moves where a buffer is read more than
# once; a case outside a catalogue is timed without the copy kernel, and says so.
bytes_expression() {
	run 0 bench --device pocl --size 1024 --rounds 2 --csv "$CLH_TEST_DATA/cases/bytes_read_twice.yaml" "$CLH_TEST_DATA/cases/good.yaml" &&
		has "rows leave out the fraction of copy bandwidth" &&
		[ "$(count '^bytes_read_twice,pocl-cpu,1024,16,pass,[0-9.]*,[0-9.]*,[0-9.]*,12288,')" -eq 1 ] &&
		[ "$(count '^good,pocl-cpu,1024,16,pass,[0-9.]*,[0-9.]*,[0-9.]*,8192,')" -eq 1 ]
}
# A 2-D case sweeps squares no smaller than its work-groups; --size picks shapes.
two_dimensions() {
	run 0 bench --device pocl --max-size 4096 --rounds 2 "$top/cases/matrix/transpose_tiled.yaml" &&
		[ "$(count '^matrix/transpose_tiled .* 32x32  *\(16x16\|8x8\)  *[0-9]')" -eq 2 ] &&
		[ "$(count '^matrix/transpose_tiled .* 64x64 ')" -eq 2 ] &&
		run 0 bench --device pocl --size 128x64 --local 8x8 --rounds 2 "$top/cases/matrix/transpose_tiled.yaml" &&
		[ "$(count '^matrix/transpose_tiled .* 128x64  *8x8  *[0-9]')" -eq 1 ]
}
plot() {
	if ! command -v gnuplot >/dev/null; then
		echo "gnuplot is not installed" >>"$out"
		return 2
	fi
	run 0 bench --device pocl --max-size 2048 --rounds 2 --plot "$svg" "$top/cases/reduce/halving.yaml" &&
		grep -q "<svg" "$svg" && grep -q "pocl-cpu reduce/halving L=32" "$svg" &&
		grep -q "pocl-cpu bench/copy_float4 L=64" "$svg"
}
# The bench page from stored rows: a section and a plot a target, a table a case with a
# column a work-group size and each cell's fraction of the copy bandwidth.
page() {
	if ! command -v gnuplot >/dev/null; then
		echo "gnuplot is not installed" >>"$out"
		return 2
	fi
	dir=$(mktemp -d)
	run 0 bench --results "$CLH_TEST_DATA/results/bench_two_targets.csv" --plots "$dir" &&
		has "## gpu-a" && has "![GB/s against N on gpu-a](bench-gpu-a.svg)" && has "## cpu-b" &&
		has "| N | L=32 | L=256 |" && has "| 1024 | 0.5 GB/s (0.26) | wrong-output |" &&
		has "| 2048 | 0.5 GB/s (0.13) | 1.0 GB/s (0.25) |" &&
		grep -q "<svg" "$dir/bench-gpu-a.svg" && grep -q "<svg" "$dir/bench-cpu-b.svg"
	status=$?
	rm -rf "$dir"
	return $status
}
# A size no device holds is a skip that names the buffer and its bytes, not a failure; a
# bench whose every row is such a skip measured nothing, and exits 77 saying so.
too_large() {
	run 77 bench --device pocl --size 1099511627776 --local 256 "$top/cases/reduce/halving.yaml" &&
		has "reduce/halving                     pocl-cpu     1099511627776 256      skip: buffer in needs 1099511627776 elements of 4 bytes (4398046511104 bytes); pocl-cpu allocates at most" &&
		has "clharness: nothing was measured: 1 row, every one a skip (each row says why)" &&
		GITHUB_ACTIONS=true run 77 bench --device pocl --size 1099511627776 --local 256 "$top/cases/reduce/halving.yaml" &&
		has "::warning title=clharness nothing was measured::nothing was measured: 1 row, every one a skip" &&
		run 77 bench --device pocl --max-size 100 "$top/cases/reduce/halving.yaml" &&
		has "nothing was measured: no case had a size to time (see --size and --max-size)" &&
		run 0 bench --device pocl --size 1024 --size 1099511627776 --local 256 --rounds 2 "$top/cases/reduce/halving.yaml" &&
		[ "$(count '^reduce/halving .*pocl-cpu  *1024  *256  *[0-9.]')" -eq 1 ] && ! has "nothing was measured"
}
# Ctrl-C ends the sweep with the rows measured so far, and says it stopped.
interrupted() {
	"$CLHARNESS" bench --device pocl --max-size 268435456 --local 256 "$top/cases/reduce/halving.yaml" >"$out" 2>&1 &
	pid=$!
	tries=0
	while ! grep -q '^bench/copy_float4 .* 2048 ' "$out" && [ "$tries" -lt 600 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	kill -INT "$pid"
	wait "$pid"
	status=$?
	[ "$status" -eq 130 ] || { echo "exit status $status, want 130" >>"$out"; return 1; }
	has "stopped by Interrupt; the results above are all there are" &&
		[ "$(count '^bench/copy_float4 .*pocl-cpu  *1024  *256  *[0-9.]')" -eq 1 ]
}
no_device() {
	run 2 bench --device nosuchdevice "$top/cases/reduce/halving.yaml" &&
		has "no OpenCL device to time kernels on among those --device selects" &&
		run 2 bench && has "bench needs the cases to time"
}

check "bench times every size and work-group size beside the copy kernel's bandwidth" table
check "a wrong kernel is reported wrong at that size, not fast" wrong_is_wrong
check "bench writes JSON Lines and CSV" machine_formats
check "a 2-D case sweeps squares, and --size takes a shape" two_dimensions
check "a bytes: expression sets what one round moves" bytes_expression
if command -v gnuplot >/dev/null; then
	check "--plot draws throughput against size with gnuplot" plot
else
	n=$((n + 1))
	echo "ok $n - --plot draws throughput against size with gnuplot # SKIP gnuplot is not installed"
fi
if command -v gnuplot >/dev/null; then
	check "--results writes the bench page from stored rows, a plot a target" page
else
	n=$((n + 1))
	echo "ok $n - --results writes the bench page from stored rows # SKIP gnuplot is not installed"
fi
check "a size too large for the device is a skip naming the buffer and its bytes; all skips exit 77" too_large
check "Ctrl-C stops the sweep and keeps the rows measured so far" interrupted
check "no device to time on, or no case, is a setup error" no_device
echo "1..$n"
