#!/bin/sh
# checkall.sh - every correct kernel of the catalogue checked with nothing but its case's
# launch, spoken as TAP: `clharness check FILE --kernel NAME --global G --local L`, no
# --arg, must report no error. What check chooses for the arguments (scalars placed by
# their names, buffers sized by the launch) may be wrong for a kernel; a finding that
# rests on such a choice is a warning that says so, never the kernel's error. A correct
# kernel is one whose golden holds no finding and passes on devices; its launch is its
# case's first simulated shape (tests/case_launches). Needs $CLHARNESS and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
here=$(dirname "$0")
top=$here/..
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for c in "$top"/cases/*/*.yaml; do
	rel=${c#"$top"/cases/}
	golden=$top/expected/${rel%.yaml}.expect
	[ -f "$golden" ] && grep -q '^devices: pass' "$golden" && ! grep -q '^  ' "$golden" || continue
	"$here/case_launches" "$c" || echo "# $c has no launch to check"
done >"$work/launches"

# One line a launch, numbered, its check run two at a time.
awk -F '\t' '{ print NR "\t" $0 }' "$work/launches" >"$work/numbered"
export CLHARNESS work
xargs -P 2 -L 1 -d '\n' sh -c '
	n=$(printf "%s" "$1" | cut -f 1); file=$(printf "%s" "$1" | cut -f 2)
	kernel=$(printf "%s" "$1" | cut -f 3); global=$(printf "%s" "$1" | cut -f 4)
	local=$(printf "%s" "$1" | cut -f 5); options=$(printf "%s" "$1" | cut -f 6)
	set -- "$file" --kernel "$kernel" --global "$global" --local "$local" --timeout 10 --color never
	[ -n "$options" ] && set -- "$@" --options "$options"
	"$CLHARNESS" check "$@" >"$work/$n.out" 2>&1
	echo $? >"$work/$n.status"' sh <"$work/numbered"

n=0
warned=0
while IFS="	" read -r i file kernel global local options; do
	n=$((n + 1))
	warned=$((warned + $(grep -c ": warning: " "$work/$i.out")))
	if [ "$(cat "$work/$i.status")" = 0 ] && ! grep -q ": error: " "$work/$i.out"; then
		echo "ok $n - check $file --kernel $kernel --global $global --local $local"
	else
		echo "not ok $n - check $file --kernel $kernel --global $global --local $local (exit $(cat "$work/$i.status"))"
		sed 's/^/# /' "$work/$i.out"
	fi
done <"$work/numbered"
echo "# $n correct catalogue kernels checked with no --arg; $warned warnings, each resting on a value check chose or a difference between targets"
echo "1..$n"
