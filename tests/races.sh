#!/bin/sh
# races.sh - the hunt corpus in tests/races judged, spoken as TAP: hunt must find every
# race that check misses at the natural launch, and report nothing on the fixed twins.
# Prints the measured counts, times and trials as a TAP comment. Needs $CLHARNESS (make
# check sets it) and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
here=$(dirname "$0")
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$here/../tools/hunt-corpus" "$CLHARNESS" 2 >"$out" 2>&1
summary=$(grep '^races: ' "$out")
echo "# $summary"
n=0
judge() {
	n=$((n + 1))
	if eval "$2"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		sed 's/^/# /' "$out"
	fi
}
judge "hunt finds every race of the corpus" \
	'[ "$(grep -c " found  *[0-9.]*  *[0-9.]*  *[0-9]*$" "$out")" -eq "$(grep -vc "^#" "$here/races/MANIFEST")" ]'
judge "no fixed twin has a finding, under check or hunt" \
	'echo "$summary" | grep -q "fixed twins with a finding: check 0, hunt 0 ("'
judge "check misses races hunt finds" \
	'[ "$(grep -c " missed found " "$out")" -gt 0 ]'
echo "1..$n"
