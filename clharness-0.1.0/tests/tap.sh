# tap.sh - what the command-line test scripts share, sourced by them: one TAP line a check,
# clharness run into a file, and greps on that file that say what they missed.
# The sourcing script sets $out (a file) and n=0 first.

# check DESCRIPTION FUNCTION: one TAP line for whether FUNCTION succeeds; on failure the
# output it left in $out follows as TAP comments.
check() {
	n=$((n + 1))
	: >"$out"
	if "$2"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# /' "$out"
	fi
}

# run STATUS ARGS...: runs clharness into $out and succeeds if it exits with STATUS.
run() {
	want=$1
	shift
	"$CLHARNESS" "$@" >"$out" 2>&1
	status=$?
	[ "$status" -eq "$want" ] || { echo "exit status $status, want $want" >>"$out"; return 1; }
}

# has TEXT: $out holds TEXT verbatim; lacks TEXT: it does not. count PATTERN: lines of
# $out matching PATTERN.
has() { grep -F -q -- "$1" "$out" || { echo "missing: $1" >>"$out"; return 1; }; }
lacks() { ! grep -F -q -- "$1" "$out" || { echo "present: $1" >>"$out"; return 1; }; }
count() { grep -c -- "$1" "$out"; }
