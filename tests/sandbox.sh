#!/bin/sh
# sandbox.sh - kernels that try to leave their worker, spoken as TAP: system calls made
# with inline assembly (open, openat, write, execve, fork, socket, kill, mkdir), the C
# library's open called from assembly, and writes through forged pointers, each through
# run, check, hunt, mutate and grade on PoCL. No file may appear, no process start or die,
# no connection be made, no other student's report change, and each attempt that runs
# must be named. Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL, an
# x86-64 machine (the assembly is its), and a Linux kernel with seccomp and Landlock.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$(cd "$CLH_TEST_DATA" && pwd)
tests=$(cd "$data/.." && pwd)
corpus=$tests/sandbox
assignments=$tests/../assignments
work=$(mktemp -d)
out=$work/out
victim=
listener=
trap 'kill $victim $listener 2>/dev/null; rm -rf "$work"' EXIT
n=0

. "$tests/tap.sh"

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^pocl-cpu'; then
	echo "1..0 # SKIP no PoCL device (install pocl-opencl-icd)"
	exit 0
fi
if [ "$(uname -m)" != x86_64 ]; then
	echo "1..0 # SKIP the hostile kernels' assembly is x86-64's"
	exit 0
fi
sandbox=$("$CLHARNESS" devices 2>/dev/null | sed -n 's/^sandbox  *//p')
case $sandbox in
seccomp*) ;;
*)
	echo "1..0 # SKIP the sandbox is not complete on this machine: $sandbox"
	exit 0
	;;
esac

# Every command runs in a folder of its own, where a kernel's relative paths would land.
scene=$work/scene
mkdir -p "$scene"
cd "$scene" || exit 1

# A process for the kernels to kill, and a listener that notes a connection.
sleep 600 &
victim=$!
port=$((20000 + $$ % 20000))
python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); s.settimeout(900)
try:
    s.accept(); open(sys.argv[2], "w").write("connected\n")
except OSError:
    pass' "$port" "$work/connected" &
listener=$!

# untouched: the scene holds nothing, the victim lives, nobody connected.
untouched() {
	left=$(ls -A "$scene")
	[ -z "$left" ] || { echo "left in the working folder: $left" >>"$out"; return 1; }
	kill -0 "$victim" 2>/dev/null || { echo "the victim process was killed" >>"$out"; return 1; }
	[ ! -e "$work/connected" ] || { echo "a kernel connected to port $port" >>"$out"; return 1; }
}

# The attempts that run, each kernel of tests/sandbox with the call it makes.
attempts="asm_open:open asm_openat:openat asm_write:write asm_execve:execve asm_fork:fork
asm_socket:socket asm_kill:kill asm_mkdir:mkdir"

# The value of the kernels' argument: the victim to kill, the port to connect to.
arg_of() {
	case $1 in
	asm_kill) echo "$victim" ;;
	asm_socket) echo "$port" ;;
	*) echo 0 ;;
	esac
}

# A case of kernel $1 in the catalogue $work/cases, $work/kernels, its argument given.
make_case() {
	mkdir -p "$work/cases" "$work/kernels" && cp "$corpus/$1.cl" "$work/kernels/" || return 1
	cat >"$work/cases/$1.yaml" <<EOF
about: a kernel that tries to leave its worker ($1)
kernel: {file: kernels/$1.cl, name: copy}
sizes: [64]
sim_sizes: [64]
local: [16]
global: N
args:
  - {name: in, buffer: int, count: N, init: {iota: 5}}
  - {name: out, buffer: int, count: N, output: true}
  - {name: arg, scalar: int, value: $(arg_of "$1")}
check:
  out: {reference: rotate, of: in, shift: 0}
EOF
}

# run: each attempt's case is a crash naming its call, and the run goes on to the next.
run_names_each() {
	for a in $attempts; do make_case "${a%%:*}"; done
	make_case forged_pointer && make_case far_past_end || return 1
	run 1 run --device pocl "$work/cases" || return 1
	for a in $attempts; do
		kernel=${a%%:*} call=${a#*:}
		grep -q "^crash .*${kernel} " "$out" || { echo "no crash line for $kernel" >>"$out"; return 1; }
		has "$kernel.yaml: error: the kernel made a system call the sandbox forbids: $call (from its own code" || return 1
	done
	[ "$(count '^crash .*forged_pointer')" -eq 1 ] && [ "$(count '^crash .*far_past_end')" -eq 1 ] &&
		has "10 results on 1 device" && untouched
}

# check: each attempt, with its argument on the command line.
check_names_each() {
	for a in $attempts; do
		kernel=${a%%:*} call=${a#*:}
		run 1 check --device pocl "$corpus/$kernel.cl" --kernel copy --global 64 --local 16 \
			--arg "{name: arg, scalar: int, value: $(arg_of "$kernel")}" || return 1
		has "$kernel.cl: error: the kernel made a system call the sandbox forbids: $call" &&
			has "0 of 3 runs ran to the end" || return 1
	done
	untouched
}

# The C library's open, called from assembly: the call is the library's, which the
# sandbox lets through, so Landlock alone keeps the file from being made. It is not
# named (the call fails as for a file the worker may not create); the run goes on.
libc_open_contained() {
	run 77 check --device pocl "$corpus/libc_open.cl" --kernel copy --global 64 --local 16 &&
		[ "$(count '^pass ')" -eq 5 ] && untouched
}

# hunt under the simulator runs no kernel as native code: the assembly never runs, and a
# stray pointer is an out-of-bounds write at its line. Under racecheck (hunt's own choice
# where kernels can be rewritten) the same: the rewrite refuses the assembly, and the
# stray store lands in the runtime's sink, reported, inside the confined worker.
hunt_contains() {
	for device in oclgrind ""; do
		run 1 hunt ${device:+--device "$device"} --budget 20 "$corpus/asm_open.cl" \
			--kernel copy --global 64 --local 16 &&
			has "invalid output constraint '=a' in asm" || return 1
		run 1 hunt ${device:+--device "$device"} --budget 20 "$corpus/forged_pointer.cl" \
			--kernel copy --global 64 --local 16 &&
			grep -q "forged_pointer.cl:9:[0-9]*: error: out-of-bounds write of global memory" "$out" &&
			untouched || return 1
	done
}

# mutate judges the case as written first: its run, stopped by the sandbox, is named,
# and no mutant is measured against a case that fails its own checks.
mutate_names_it() {
	make_case asm_mkdir
	run 2 mutate --device pocl "$work/cases/asm_mkdir.yaml" &&
		has "the case fails its own golden" &&
		has "the kernel made a system call the sandbox forbids: mkdir" && untouched
}

# grade refuses every submission holding inline assembly or a function pointer before a
# compiler reads it, each at its line, and the right submission beside them gets what
# it gets alone.
grade_refuses() {
	right=$tests/grading/reduce_sum/correct.cl
	run 0 grade -j 2 -o "$work/hostile" "$assignments/reduce_sum.yaml" "$tests/grading/hostile" "$right" &&
		"$tests/../tools/match-scores" "$tests/grading/hostile.csv" "$work/hostile/class.csv" >>"$out" || return 1
	grep -q 'asm_pasted.cl:11:3: error: inline assembly (asm statement)' "$work/hostile/asm_pasted.txt" &&
		grep -q 'asm_open.cl:3:45: error: inline assembly (__asm__)' "$work/hostile/asm_open.txt" &&
		grep -q 'file_scope_asm.cl:3:1: error: inline assembly (__asm__)' "$work/hostile/file_scope_asm.txt" &&
		grep -q 'function_pointer.cl:3:.*function_pointers' "$work/hostile/function_pointer.txt" || {
		cat "$work/hostile/asm_pasted.txt" "$work/hostile/asm_open.txt" >>"$out"
		return 1
	}
	# Its report, but for the speed measured, which no two gradings share.
	run 0 grade -o "$work/alone" "$assignments/reduce_sum.yaml" "$right" &&
		grep -v "of the reference's speed" "$work/alone/correct.txt" >"$work/alone.txt" &&
		grep -v "of the reference's speed" "$work/hostile/correct.txt" >"$work/beside.txt" &&
		grep '^correct,' "$work/alone/class.csv" >"$work/alone.csv" &&
		grep '^correct,' "$work/hostile/class.csv" >"$work/beside.csv" &&
		cmp -s "$work/alone.txt" "$work/beside.txt" && cmp -s "$work/alone.csv" "$work/beside.csv" || {
		diff "$work/alone.txt" "$work/beside.txt" >>"$out"
		diff "$work/alone.csv" "$work/beside.csv" >>"$out"
		return 1
	}
	untouched
}

# Where an assignment allows inline assembly, the sandbox stops each call, the class
# table says sandbox, each report names the call, and grading goes on to the next.
grade_sandbox_note() {
	run 0 grade -j 2 -o "$work/allowed" "$tests/grading/reduce_sum_allow_asm.yaml" "$tests/grading/hostile" \
		"$tests/grading/reduce_sum/correct.cl" || return 1
	for a in asm_open:open asm_write:write asm_execve:execve asm_fork:fork asm_socket:socket asm_kill:kill; do
		kernel=${a%%:*} call=${a#*:}
		grep -q "^$kernel,0,0,0,0,0,0,sandbox$" "$work/allowed/class.csv" &&
			grep -q "the kernel made a system call the sandbox forbids: $call" "$work/allowed/$kernel.txt" || {
			grep "^$kernel," "$work/allowed/class.csv" >>"$out"
			return 1
		}
	done
	grep -q '^correct,30,20,15,15,[0-9.]*,[0-9.]*,$' "$work/allowed/class.csv" && untouched
}

# A transpose that writes a file with inline assembly: refused by grade, stopped and named
# by check, which builds a user's own kernel; no file either way.
transpose_leaves_no_file() {
	submission=$tests/grading/transpose/writes_a_file.cl
	run 0 grade -o "$work/transpose" "$tests/grading/transpose.yaml" "$submission" \
		"$tests/../kernels/matrix/transpose_tiled.cl" &&
		grep -q '^writes_a_file,0,0,0,0,inline-assembly$' "$work/transpose/class.csv" &&
		grep -q '^transpose_tiled,60,20,20,100,$' "$work/transpose/class.csv" && untouched || return 1
	run 1 check --device pocl "$submission" --kernel transpose_tiled --global 64x48 --local 8x8 \
		--arg '{name: width, scalar: int, value: 64}' --arg '{name: height, scalar: int, value: 48}' &&
		has "writes_a_file.cl: error: the kernel made a system call the sandbox forbids: open" && untouched
}

# A Linux kernel without Landlock (its system calls made to fail, as an older kernel
# lacks them): grade refuses to start, and with --no-sandbox grades, saying so.
grade_needs_the_sandbox() {
	hide=$tests/no_landlock
	[ -x "$hide" ] || { echo "missing $hide" >>"$out"; return 1; }
	"$hide" "$CLHARNESS" grade -o "$work/refused" "$assignments/reduce_sum.yaml" \
		"$tests/grading/reduce_sum/correct.cl" >"$out" 2>&1
	[ $? -eq 2 ] && has "refusing to run students' kernels without the full sandbox: this Linux kernel has no Landlock" &&
		[ ! -e "$work/refused/class.csv" ] || return 1
	"$hide" "$CLHARNESS" grade --no-sandbox -o "$work/unprotected" "$assignments/reduce_sum.yaml" \
		"$tests/grading/reduce_sum/correct.cl" >"$out" 2>&1 &&
		has "warning: --no-sandbox: students' kernels run unconfined" &&
		grep -q '^correct,25,15,25,15,[0-9.]*,[0-9.]*,$' "$work/unprotected/class.csv" || return 1
	"$hide" "$CLHARNESS" run --device pocl "$data/cases/good.yaml" >"$out" 2>&1 &&
		has "note: kernels run in a partial sandbox: this Linux kernel has no Landlock"
}

check "run: each system call of a kernel's own is stopped and named, and the run goes on" run_names_each
check "check: each system call of a kernel's own is stopped and named" check_names_each
check "the C library's open called from a kernel's assembly creates no file" libc_open_contained
check "hunt runs no kernel natively: the assembly fails to build, a forged pointer is out of bounds" hunt_contains
check "mutate names the stopped call of the case as written and measures no mutant" mutate_names_it
check "grade refuses inline assembly and function pointers at their lines; the right submission is graded as alone" grade_refuses
check "where inline assembly is allowed, grade's sandbox stops each call, names it, and notes sandbox" grade_sandbox_note
check "a transpose submission that writes a file leaves none: grade refuses it, check stops it" transpose_leaves_no_file
check "without Landlock grade refuses to start unless --no-sandbox, and run notes the partial sandbox" grade_needs_the_sandbox

echo "1..$n"
exit 0
