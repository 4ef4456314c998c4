#!/bin/sh
# capture.sh - clharness capture on an application of the harness's own
# (tests/capture/race_host.c), spoken as TAP: its launches become cases that replay on
# PoCL and under Oclgrind with its data, the race in one kernel found at its own line;
# then real clients: a PyOpenCL script, CLBlast's SGEMM and clpeak.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
host=$(dirname "$CLHARNESS")/tests/capture/race_host
app=$(dirname "$CLHARNESS")/bench/capture_app
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^pocl-cpu '; then
	echo "1..0 # SKIP capture runs an application on PoCL (install pocl-opencl-icd)"
	exit 0
fi

# The program runs as it would alone, its exit status passed on; each distinct launch is
# a case (the second, identical launch of scale is not).
captures() {
	run 3 capture -o "$work/c" -- "$host" && has "race_host: first block sum" &&
		has "capture: 3 launches of $host became cases in $work/c" &&
		[ -f "$work/c/scale-1.yaml" ] && [ -f "$work/c/block_sum-1.yaml" ] &&
		[ -f "$work/c/add_into-1.yaml" ] && [ ! -f "$work/c/scale-2.yaml" ]
}
# The build options, a struct by value, local memory and a buffer passed twice.
case_forms() {
	grep -q "^options: '-DFACTOR=2'" "$work/c/block_sum-1.yaml" &&
		grep -q "{name: p, scalar: \[{scale: float}, {shift: int}\], value: \[1.5, 2\]}" "$work/c/scale-1.yaml" &&
		grep -q "{name: s, local: int, count: L}" "$work/c/block_sum-1.yaml" &&
		grep -q "^  - {use: a}" "$work/c/add_into-1.yaml" &&
		grep -q "sums: {reference: {file: data/block_sum-1/sums.after.npy, at: \[1024, 64\]}}" "$work/c/block_sum-1.yaml" ||
		{ cat "$work"/c/*.yaml >"$out"; return 1; }
}
# Replayed on PoCL every output is what the application's device left; under Oclgrind the
# missing barrier of block_sum is a race at the line of the program's own source.
replays() {
	run 1 run --device pocl,oclgrind "$work/c" && [ "$(count '^pass ')" -eq 5 ] &&
		has "kernels/program-1.cl:14:11: error: read-write data race on local memory" &&
		has "race               block_sum-1                      oclgrind"
}
# hunt on captured cases keeps the application's data and sizes its buffers with the
# shape (N, N / L, L): the shapes it tries find block_sum's race and nothing in scale,
# where a fixed-size buffer would read as out of bounds at every larger N. It keeps the
# application's work-groups, and what only launches the application does not make show
# is a warning.
hunted() {
	run 0 hunt --budget 8 -j 2 "$work/c/scale-1.yaml" &&
		has "0 errors and 0 warnings found, 0 of them by the plain run (its own shape, its own inputs" &&
		grep -q "{name: sums, buffer: int, count: N / L," "$work/c/block_sum-1.yaml" &&
		run 1 hunt --budget 8 -j 2 "$work/c/block_sum-1.yaml" &&
		has "kernels/program-1.cl:14:11: error: read-write data race on local memory" &&
		has "no other work-group shape was tried: it is a captured application's launch, whose work-groups are 64 (--any-local tries others)"
}
# A launch too big to simulate in time runs smaller under Oclgrind (its race still found
# there), where the application's output, of the whole launch, is not compared; bench
# times a captured case at its own sizes.
too_big() {
	run 3 capture -o "$work/big" --kernel block_sum -- "$host" big &&
		grep -q "^sizes: \[65536, 192\]" "$work/big/block_sum-1.yaml" &&
		grep -q "at: \[65536, 64\]" "$work/big/block_sum-1.yaml" &&
		run 1 run --device pocl,oclgrind "$work/big" &&
		has "pass               block_sum-1                      pocl-cpu       N=65536 L=64" &&
		has "race               block_sum-1                      oclgrind       N=192 L=64" &&
		has "(output not compared: its values are of another shape)" &&
		run 0 bench --device pocl --rounds 2 "$work/big" && [ "$(count '^block_sum-1 ')" -eq 2 ]
}
# A kernel that guards with the element count the application passes: the count follows
# the shape (value: N), so the launch shrunk for Oclgrind reads no element past its
# buffers' ends, and every replay passes.
count_follows_shape() {
	run 0 capture -o "$work/heat" -- "$app" 65536 20 && has "capture: 6 launches of" &&
		grep -q "{name: n, scalar: uint, value: N}  # the application's 65536" "$work/heat/relax-1.yaml" &&
		grep -q "^sim_sizes: \[768\]" "$work/heat/relax-1.yaml" &&
		run 0 run --device pocl,oclgrind "$work/heat" && [ "$(count '^pass ')" -eq 16 ] &&
		has "pass               relax-1                          oclgrind       N=768 L=256"
}
# An existing folder is kept unless --force, which replaces only a capture's.
folder_kept() {
	run 2 capture -o "$work/c" -- "$host" && has "exists; capture into a new folder with -o" &&
		run 3 capture -o "$work/c" --force --kernel scale -- "$host" &&
		[ -f "$work/c/scale-1.yaml" ] && [ ! -f "$work/c/block_sum-1.yaml" ] &&
		mkdir "$work/mine" && echo mine >"$work/mine/notes.txt" &&
		run 2 capture -o "$work/mine" --force -- "$host" &&
		has "holds no capture (no raw/ folder)"
}
# What is left out is said: a launch past --max-bytes, and a program that launches nothing.
limits_said() {
	run 3 capture -o "$work/small" --max-bytes 5000 -- "$host" &&
		has "launch of scale (program 1) not captured: its buffers hold 12288 bytes" &&
		has "capture: 1 launch of $host became a case in" &&
		run 0 capture -o "$work/none" -- true && has "capture: true made no kernel launch" &&
		has "no folder was left" && [ ! -e "$work/none" ] &&
		mkdir "$work/empty" && run 0 capture -o "$work/empty" -- true && [ -z "$(ls -A "$work/empty")" ] &&
		run 3 capture -o "$work/empty" -- "$host" && has "capture: 3 launches of"
}
# Block sums of L x L items are as many as a group's items: the count is L and N / L at
# once, and the kernel's subscript, sums[get_group_id(0)], says which; the local buffer,
# one a group's item, is L. A number that stays two things at once is kept, saying so
# (hid in backprop: 16 that is N, L and LY).
coincidence_kept() {
	run 3 capture -o "$work/square" --kernel block_sum -- "$host" square &&
		grep -q "{name: sums, buffer: int, count: N / L, init: {file: data/block_sum-1/sums.npy}, output: true}$" "$work/square/block_sum-1.yaml" &&
		grep -q "{name: s, local: int, count: L}$" "$work/square/block_sum-1.yaml" &&
		grep -q "{name: in, buffer: int, count: N, " "$work/square/block_sum-1.yaml" &&
		grep -q "{name: sums, buffer: int, count: N / L, " "$work/c/block_sum-1.yaml" ||
		{ cat "$work"/square/*.yaml >>"$out"; return 1; }
}
# The headers a program includes through -I are copied into the capture and the option
# made relative: the folder replays after it is moved, with no absolute path in a case.
headers_copied() {
	inc=$(cd "$(dirname "$0")/capture/include" && pwd)
	run 0 capture -o "$work/inc" -- "$host" include "$inc" &&
		grep -q "^options: '-I include/program-1'$" "$work/inc/times-1.yaml" &&
		[ -f "$work/inc/include/program-1/scale_factor.h" ] &&
		[ -f "$work/inc/include/program-1/sub/base.h" ] &&
		! grep -v "^#" "$work/inc/times-1.yaml" | grep -q "$inc" &&
		mv "$work/inc" "$work/moved" &&
		run 0 run --device pocl,oclgrind "$work/moved" && [ "$(count '^pass  *times-1')" -eq 2 ] ||
		{ cat "$work"/moved/*.yaml "$work"/inc/*.yaml >>"$out" 2>/dev/null; return 1; }
}
# 4096 items that each loop long are too few to shrink for their number, but a probe of
# a few work-groups says the simulator cannot replay them all in time: the case
# simulates those few, saying why, and replays.
costly_probed() {
	run 0 capture -o "$work/heavy" -- "$host" heavy &&
		has "launch of heavy is too costly to simulate whole in time" &&
		grep -q "^# Too costly to simulate in time: a probe of a few work-groups" "$work/heavy/heavy-1.yaml" &&
		grep -q "^sim_sizes: \[192\]$" "$work/heavy/heavy-1.yaml" &&
		run 0 run --device pocl,oclgrind "$work/heavy" &&
		grep -q "^pass  *heavy-1  *oclgrind  *N=192 L=64" "$out" ||
		{ cat "$work"/heavy/*.yaml >>"$out" 2>/dev/null; return 1; }
}
# One buffer passed as a read-only argument and then as a written one is the written
# one: output, checked against what the application left.
passed_twice_written_second() {
	run 0 capture -o "$work/twice" -- "$host" twice &&
		grep -q "^  - {name: from, buffer: int, count: N, init: {file: data/double_from-1/from.npy}, output: true}" "$work/twice/double_from-1.yaml" &&
		grep -q "^  - {use: from}" "$work/twice/double_from-1.yaml" &&
		grep -q "^  from: {reference: {file: data/double_from-1/to.after.npy" "$work/twice/double_from-1.yaml" &&
		run 0 run --device pocl "$work/twice" && [ "$(count '^pass  *double_from-1')" -eq 1 ] ||
		{ cat "$work"/twice/*.yaml >>"$out"; return 1; }
}
# A sub-buffer passed beside its own parent shares bytes with it: the case and a note say
# each is replayed as a copy of its own.
views_overlap() {
	run 3 capture -o "$work/views" --kernel add_into -- "$host" overlap &&
		has "launch of add_into: arguments a and b are views of one buffer that share bytes" &&
		grep -q "^# a and b shared bytes of one buffer in the application" "$work/views/add_into-1.yaml" &&
		run 0 run --device pocl,oclgrind "$work/views" && [ "$(count '^pass ')" -eq 2 ]
}
# What no case can hold is said, launch and argument named, never dropped: an image, a
# sampler, a shared virtual memory pointer, a program made from a binary (PoCL has no
# pipes and takes no IL, so those stay untried here).
unreplayable_said() {
	run 0 capture -o "$work/odd" -- "$host" unreplayable && has "race_host: launched an image" &&
		has "launch of brighten (program 1) not captured: argument 0 (img): it is an image" &&
		has "launch of sample (program 1) not captured: argument 0 (s): it is a sampler" &&
		has "launch of bump (program 1) not captured: argument 0 (p): it is a shared virtual memory pointer" &&
		has "launch of bump (program 2) not captured: the program was made from a binary, and a case needs its source" &&
		has "made no kernel launch the layer could capture (the notes above say why)"
}
# A program that dies keeps every launch captured before it.
crash_keeps() {
	run 134 capture -o "$work/died" -- "$host" abort && has "was killed by signal 6" &&
		has "capture: 2 launches of" && run 1 run --device pocl,oclgrind "$work/died" &&
		[ "$(count '^pass ')" -eq 3 ]
}

# Four threads launch at once, each at its own size: three distinct shapes of copy are
# kept (the default --max-launches), each with its own thread's data, and replay.
threads() {
	run 0 capture -o "$work/threads" -- "$host" threads && has "four threads copied right" &&
		has "capture: 3 launches of" && has "launches of copy (program 1) past its first 3 shapes" &&
		run 0 run --device pocl,oclgrind "$work/threads" && [ "$(count '^pass ')" -eq 6 ]
}

# Real clients, each captured and replayed with no failed result on PoCL and Oclgrind.
# PyOpenCL's own cache of built programs is off under capture (a program from a cached
# binary has no source to replay); Debian's python3 is the one with its pyopencl.
pyopencl_client() {
	run 0 capture -o "$work/py" -- /usr/bin/python3 "$(dirname "$0")/capture/pyopencl_host.py" &&
		has "saxpy and histogram done" && has "capture: 2 launches of" &&
		grep -q "^options: '-DBINS=16" "$work/py/histogram-1.yaml" &&
		run 0 run --device pocl,oclgrind "$work/py" && [ "$(count '^pass ')" -eq 4 ] &&
		run 0 capture -o "$work/py2" -- /usr/bin/python3 "$(dirname "$0")/capture/pyopencl_host.py" &&
		has "capture: 2 launches of"
}
# CLBlast's SGEMM: a kernel built with its own defines, launched in 2-D, whose scalars
# are typedefs (real_arg), enabling half arithmetic only where a device has it.
clblast_client() {
	run 0 capture -o "$work/blas" -- "$(dirname "$CLHARNESS")/tests/capture/clblast_host" &&
		has "capture: 1 launch of" && grep -q "^global: \[N, M\]" "$work/blas"/Xgemm*-1.yaml &&
		run 0 run --device pocl,oclgrind "$work/blas" && [ "$(count '^pass ')" -eq 2 ]
}
clpeak_client() {
	run 0 capture -o "$work/peak" -- clpeak -p 0 -d 0 --kernel-latency && has "Kernel launch latency" &&
		has "capture: 1 launch of" && run 0 run --device pocl,oclgrind "$work/peak" &&
		[ "$(count '^pass ')" -eq 2 ]
}
# skip DESCRIPTION REASON: a TAP line for a check this machine cannot make.
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

check "capture runs the program, passes its exit status on, and keeps each distinct launch as a case" captures
check "the cases keep build options, structs by value, local memory and a buffer passed twice" case_forms
check "a buffer passed read-only and then written keeps its output check" passed_twice_written_second
check "a captured launch too costly to simulate whole is probed and simulated as a few work-groups" costly_probed
check "headers found through -I are copied into the capture, which replays after a move" headers_copied
check "a count that is two quantities at once is the one the kernel's subscripts use" coincidence_kept
check "the cases replay on PoCL with the application's outputs, and Oclgrind finds the race at its line" replays
check "hunt sweeps a captured case's shapes with the application's own data" hunted
check "a launch too big to simulate is shrunk for Oclgrind, and bench times it at its own sizes" too_big
check "an element count the application passes follows the shape of a shrunk launch" count_follows_shape
check "an existing folder is replaced only with --force, and only a capture's" folder_kept
check "a launch past --max-bytes and a program without launches are said" limits_said
check "a sub-buffer beside its parent is said to replay as a copy of its own" views_overlap
check "an image, a sampler, shared virtual memory and a program from a binary are each said" unreplayable_said
check "launches captured before the program died are whole cases" crash_keeps
check "launches from several threads at once are each captured whole" threads
if /usr/bin/python3 -c "import pyopencl" 2>/dev/null; then
	check "a PyOpenCL script's launches replay on PoCL and Oclgrind" pyopencl_client
else
	skip "a PyOpenCL script's launches replay on PoCL and Oclgrind" "install python3-pyopencl"
fi
if [ -x "$(dirname "$CLHARNESS")/tests/capture/clblast_host" ]; then
	check "CLBlast's SGEMM launch replays on PoCL and Oclgrind" clblast_client
else
	skip "CLBlast's SGEMM launch replays on PoCL and Oclgrind" "install libclblast-dev and configure again"
fi
if command -v clpeak >/dev/null; then
	check "clpeak's launches replay on PoCL and Oclgrind" clpeak_client
else
	skip "clpeak's launches replay on PoCL and Oclgrind" "install clpeak"
fi

echo "1..$n"
exit 0
