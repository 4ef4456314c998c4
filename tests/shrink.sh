#!/bin/sh
# shrink.sh - launches too big to simulate in time, spoken as TAP: check and hunt keep the
# work-group shape and run a few work-groups (and a ragged last one where the kernel takes
# its size) under Oclgrind instead of timing out, say so and from what, and hunt's plain
# run may take no more than a quarter of the budget.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both), PoCL and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^oclgrind '; then
	echo "1..0 # SKIP Oclgrind cannot run here (install oclgrind)"
	exit 0
fi

# The million work-items of the issue's launch, which Oclgrind needs minutes for.
million_items_shrunk() {
	run 1 check --timeout 60 --device oclgrind "$data/kernels/one_place_local_ids.cl" \
		--kernel one_place --global 1048576 --local 1024 &&
		has "check: one_place: global 1048576 is too big to simulate in time; Oclgrind runs N=3072 L=1024 in its place (3 work-groups" &&
		grep -q "^race  *one_place random  *oclgrind  *N=3072 L=1024 .*(shrunk from N=1048576)$" "$out" &&
		has "one_place_local_ids.cl:5:7: error: write-write data race on global memory" &&
		lacks "same value" && lacks "timeout"
}
shrunk_in_json() {
	run 1 check --json --device oclgrind "$data/kernels/one_place_local_ids.cl" \
		--kernel one_place --global 1048576 --local 1024 &&
		grep -q '"target":"oclgrind",.*"N":3072,"L":1024,"shrunk_from":1048576,' "$out"
}
# Devices run the launch as given and nothing else, since a smaller one may break what
# given arguments assume; the scalar-tail inputs give the shrunk launch a ragged last group.
ragged_and_as_given() {
	run 0 check "$data/kernels/guarded_by_size.cl" --kernel guarded --global 65536 --local 256 &&
		has "scalar-tail inputs make the last one ragged" &&
		has "devices the launch as given, so the simulator's outputs have no device's to be compared with" &&
		grep -q "^pass  *guarded scalar-tail  *oclgrind  *N=768 L=256" "$out" &&
		[ "$(grep -c "pocl-cpu  *N=768" "$out")" -eq 0 ] &&
		[ "$(grep -c "^pass  *guarded .*pocl-cpu  *N=65536 L=256" "$out")" -eq 4 ] &&
		has "  simulated launch = N=768 L=256: global 65536 is too big to simulate in time"
}
saved_case_keeps_both() {
	run 77 check --device pocl --save "$work/saved.yaml" "$data/kernels/guarded_by_size.cl" \
		--kernel guarded --global 65536 --local 256 &&
		grep -q '^sizes: \[65536\]$' "$work/saved.yaml" &&
		grep -q '^sim_sizes: \[768\]$' "$work/saved.yaml"
}
# A number given with --arg that is an extent of the launch is written as that extent, so
# the shrunk launch scales it; one that is two extents at once leaves the launch whole.
given_numbers_scale() {
	k=$data/kernels/copy2d.cl
	run 0 check --device oclgrind "$k" --kernel copy2d --global 256x128 --local 16x16 \
		--arg '{name: width, scalar: int, value: 256}' &&
		has "  --arg 1 = {name: width, scalar: int, value: N}: its number is the global size's" &&
		grep -q "N=48x32 L=16x16 .*(shrunk from N=256x128)" "$out" && lacks "warning:" &&
		run 0 check --device oclgrind --timeout 120 "$k" --kernel copy2d --global 256x256 --local 16x16 \
			--arg '{name: width, scalar: int, value: 256}' &&
		has "a number given with --arg equals more than one of its extents" &&
		grep -q "N=256x256 L=16x16" "$out"
}
# 4096 items are few enough to simulate whole, but each loops long: a probe of a few
# work-groups says the whole launch would not end in time, and it is shrunk as a big one.
costly_launch_shrunk() {
	run 0 check --timeout 20 "$data/kernels/heavy_loop.cl" --kernel heavy --global 4096 --local 64 &&
		grep -Eq "check: heavy: a probe of N=192 L=64 (took [0-9.]* s under Oclgrind, so the whole launch \(global 4096\) would take about [0-9]* s, over half of --timeout 20|did not end under Oclgrind in 5 s, so the whole launch \(global 4096\) cannot be simulated in time): it is shrunk as a big one is" "$out" &&
		grep -q "^pass  *heavy random  *oclgrind  *N=192 L=64 .*(shrunk from N=4096)" "$out" &&
		grep -q "^pass  *heavy random  *pocl-cpu  *N=4096 L=64" "$out" && lacks "no result after"
}
# The plain run, too slow for its quarter of the budget, gives way to the sweep; the
# kernel is meant for every work-group shape (--any-local), so a slow build that reaches
# only smaller groups still reports the race as the kernel's.
slow_plain_run_gives_way() {
	run 1 hunt --device oclgrind --any-local --budget 16 -j 2 "$data/kernels/slow_then_racy.cl" --kernel slow --global 4096 --local 256 &&
		has "slow_then_racy.cl:10:34: error:" &&
		grep -q "hunt: .*slow_then_racy.cl: [1-9][0-9][0-9]* of [0-9]* trials in 1[0-9]\.[0-9] s" "$out" &&
		grep -q "([0-9]* failed: timeout, crash or build error)" "$out"
}

check "a launch of a million work-items runs as three work-groups under Oclgrind, said and not timed out" million_items_shrunk
check "--json names the launch a shrunk run stands in for" shrunk_in_json
check "a shrunk launch gets a ragged last group, and devices run the launch as given" ragged_and_as_given
check "check --save keeps the whole size for devices and the shrunk one for Oclgrind" saved_case_keeps_both
check "a given number that is an extent of the launch scales with the shrunk launch" given_numbers_scale
check "a launch of few items too costly to simulate whole is shrunk after a probe of its cost" costly_launch_shrunk
check "hunt's plain run takes at most a quarter of the budget, and the sweep goes on" slow_plain_run_gives_way
echo "1..$n"
