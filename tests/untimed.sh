# untimed.sh - sourced by the tests that compare two gradings of one class (scale.sh,
# slurm.sh): an assignment without its speed check, whose points move with how busy the
# machine is, so that a comparison sees what grading and merging do and nothing else.

# untimed_assignment ASSIGNMENT FILE: writes ASSIGNMENT to FILE, its checks up to the
# speed check and none after, its cases named by absolute paths (FILE lives elsewhere).
# Fails if ASSIGNMENT has no speed check last, so that a reordered assignment cannot
# leave a timed check in or take untimed ones out without a test saying so.
untimed_assignment() {
	[ "$(sed -n '/^  - name: speed$/,$p' "$1" | grep -c '^  - name: ')" -eq 1 ] ||
		{ echo "$1: the speed check is not the last check" >&2; return 1; }
	top_of_assignment=$(cd "$(dirname "$1")/.." && pwd)
	sed -n '/^  - name: speed$/q; p' "$1" |
		sed "s|case: cases/|case: $top_of_assignment/cases/|" >"$2"
}
