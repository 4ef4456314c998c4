#!/bin/sh
# cli.sh - the clharness command as a user meets it, spoken as TAP: usage errors, broken
# case files beside good ones, kernels that fail to build, hang or crash, and the formats.
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both); device tests need PoCL.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
data=$CLH_TEST_DATA
cases=$data/cases
top=$data/../..
out=$(mktemp)
trap 'rm -f "$out" "$out".*.yaml "$out.json"' EXIT
n=0

. "$(dirname "$0")/tap.sh"

help_exits_0() { run 0 --help && has "usage: clharness devices" && has "clharness run [OPTION]... [CASE|DIR]..."; }
# Each command's own --help, made from the description its options are parsed by.
command_help() {
	for c in devices run check hunt catalogue grade bench merge; do
		run 0 "$c" --help && has "usage: clharness $c" && has "  -h, --help          print this help" || return 1
	done
	run 0 run --help && has "      --bless         write each case's golden" && lacks "--budget" &&
		run 0 help hunt && has "      --budget S      seconds for the whole hunt" && has "  -j, --jobs N"
}
unknown_option() { run 2 run --bogus && has "run does not take the option '--bogus'" && has "Try 'clharness run --help'."; }
missing_value() { run 2 hunt --budget && has "the option '--budget' needs a value"; }
missing_path() { run 2 run "$cases/no_such.yaml"; }
# A 1-D size for a 2-D case would run a 256 x 1 matrix: it is that case's error, at the
# option, with the dimensions to write; the other case still runs.
size_of_other_dimensions() {
	run 1 run --device pocl --size 256 "$top/cases/matrix/transpose_tiled.yaml" \
		"$top/cases/reduce/halving.yaml" &&
		has "transpose_tiled.yaml: error: --size 256 has 1 dimension, but " &&
		has "launches 2-D work (N x M): write each size as --size 256x256" &&
		has "pass               reduce/halving                   pocl-cpu       N=256 L=64" &&
		run 1 run --device pocl --size 64x48 --local 8 "$top/cases/matrix/transpose_tiled.yaml" &&
		has "error: --local 8 has 1 dimension, but " && has "write each shape as --local 8x8"
}
# A kernel name the file does not define is told what it does define, and the nearest.
kernel_name_suggested() {
	run 1 check --device pocl "$top/kernels/reduce/halving.cl" --kernel reduce_sun \
		--global 64 --local 16 &&
		has "no kernel named 'reduce_sun' in" && has "; it defines reduce_sum; did you mean 'reduce_sum'?"
}
# 16 x 32 and 32 x 16 hold as many elements: the second's reference is its own transpose,
# not the first's kept.
transposed_shapes_apart() {
	run 0 run --device pocl --size 16x32 --size 32x16 --local 8x8 "$top/cases/matrix/transpose_tiled.yaml" &&
		[ "$(count '^pass .*transpose_tiled')" -eq 2 ]
}
# A folder that holds no case file would run nothing, and the run would read as clean.
empty_folder() {
	mkdir -p "$out.empty" && : >"$out.empty/notes.txt" &&
		run 2 run "$out.empty" "$cases/good.yaml" && has "no case file in '$out.empty'" &&
		lacks "summary:" && run 2 hunt "$out.empty" && has "no case file in '$out.empty'" &&
		run 2 bench "$out.empty" && has "no case file in '$out.empty'"
	status=$?
	rm -rf "$out.empty"
	return $status
}
unknown_command() { run 2 frobnicate && has "the commands are devices, run, check, hunt"; }
junit_unwritable() { run 2 run --junit /nonexistent-folder/report.xml "$cases/good.yaml" && has "cannot write the JUnit report"; }
catalogue_listed() {
	for f in $(cd "$top" && ls cases/*/*.yaml kernels/*/*.cl expected/*/*.expect); do
		grep -q "	$f" "$top/catalogue.am" || { echo "$f is not in catalogue.am" >>"$out"; return 1; }
	done
}
# A golden blessed from a broken build could lose the very bug a case is for.
racy_goldens_hold_errors() {
	for f in $(cd "$top" && grep -l '^racy: true' cases/*/*.yaml); do
		golden=expected/${f#cases/}
		grep -q '^  error \(race\|barrier-divergence\|out-of-bounds\|uninitialized\) ' "$top/${golden%.yaml}.expect" ||
			{ echo "${golden%.yaml}.expect holds no error, though $f is racy" >>"$out"; return 1; }
	done
}
every_case_has_golden() {
	for f in $(cd "$top" && ls cases/*/*.yaml); do
		golden=expected/${f#cases/}
		[ -f "$top/${golden%.yaml}.expect" ] || { echo "$f has no golden ${golden%.yaml}.expect" >>"$out"; return 1; }
	done
}
# doc/catalogue.md comes from a run (make catalogue), so it is not compared line by line;
# but a case added without rewriting the page would be missing from it.
catalogue_page_current() {
	for f in $(cd "$top" && ls cases/*/*.yaml); do
		grep -F -q "](../$f)" "$top/doc/catalogue.md" ||
			{ echo "doc/catalogue.md has no row for $f: run make catalogue" >>"$out"; return 1; }
	done
	[ "$(grep -c '^| \[' "$top/doc/catalogue.md")" -eq "$(cd "$top" && ls cases/*/*.yaml | wc -l)" ]
}

# A finding a case or a project means to have is listed as suppressed and fails nothing;
# a suppression that matches nothing is a warning; a broken suppressions file is an
# error at its line.
suppressions() {
	run 0 run --device oclgrind "$cases/suppressed.yaml" &&
		has "neighbour_race.cl:7:9: note: suppressed: read-write data race on global memory" &&
		has "1 finding suppressed" &&
		has "suppressed.yaml:13:6: warning: this suppression matched no finding (barrier-divergence at line 40)" &&
		lacks "error:" &&
		run 0 run --device oclgrind --json "$cases/suppressed.yaml" &&
		has '"suppressed":true' &&
		run 0 run --device oclgrind --suppressions "$data/suppressions.yaml" "$cases/suppressed.yaml" &&
		has "suppressions.yaml:3:4: warning: this suppression matched no finding (out-of-bounds in kernel nowhere)" &&
		run 0 check --device oclgrind --suppressions "$data/suppressions.yaml" "$data/kernels/neighbour_race.cl" \
			--kernel neighbour --global 64 --local 16 &&
		has "note: suppressed: read-write data race on global memory" &&
		has "0 errors and 0 warnings found (and suppressed ones, listed above)" &&
		run 2 run --device oclgrind --suppressions "$data/suppressions_broken.yaml" "$cases/suppressed.yaml" &&
		has "suppressions_broken.yaml:1:4: error: unknown finding kind 'races'" &&
		has "suppressions_broken.yaml:2:24: error: a line is a whole number from 1, found 0"
}
check "--help prints usage and exits 0" help_exits_0
check "each command prints its own options with --help, and help COMMAND does the same" command_help
check "an unknown option is a usage error (exit 2) that points at the command's help" unknown_option
check "an option without its value is a usage error (exit 2)" missing_value
check "a case path that does not exist is a usage error (exit 2)" missing_path
check "a size or work-group shape of other dimensions than a case's is that case's error, at the option" size_of_other_dimensions
check "a matrix of N x M and one of M x N each get their own reference" transposed_shapes_apart
check "a kernel name the file does not define is told the names it does, and the nearest" kernel_name_suggested
check "a folder that holds no case file is a usage error (exit 2), not a run of nothing" empty_folder
check "an unknown command is a usage error (exit 2)" unknown_command
check "a JUnit report that cannot be written is a usage error (exit 2)" junit_unwritable
check "every case, kernel and golden of the catalogue is listed in catalogue.am" catalogue_listed
check "every case of the catalogue has a golden in expected/" every_case_has_golden
check "doc/catalogue.md has one row for each case of the catalogue" catalogue_page_current
check "every case marked racy has the bug Oclgrind reports as an error in its golden" racy_goldens_hold_errors

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^pocl-cpu'; then
	for t in devices typo annotations arg-count build-error timeout crash json tap tap-failures overrides inputs-from-file reference-from-file built-once no-device; do
		n=$((n + 1))
		echo "ok $n - $t # SKIP no PoCL device (install pocl-opencl-icd)"
	done
	echo "1..$n"
	exit 0
fi

devices_listed() { run 0 devices && has "compute units"; }
typo_reported() {
	run 1 run --device pocl "$cases/typo_key.yaml" "$cases/good.yaml" &&
		has "typo_key.yaml:7:16: error: unknown key 'bufer' in an argument; did you mean 'buffer'?" &&
		has "     7 |   - {name: in, bufer: int, count: N}" &&
		[ "$(count '^pass .*good .*N=1024 L=16')" -eq 1 ]
}
# Under GitHub Actions each error is also a workflow command on stderr, at a path relative
# to the workspace, so a pull request shows it on the line, and so is a run that checked
# nothing; a known bug found as its case expects is a notice, no error of a green run;
# stdout's JSON stays JSON, and elsewhere nothing changes.
github_annotations() {
	abs=$(cd "$data" && pwd)
	GITHUB_ACTIONS=true GITHUB_WORKSPACE=$abs "$CLHARNESS" run --json --device pocl \
		"$abs/cases/typo_key.yaml" "$abs/cases/good.yaml" >"$out.json" 2>"$out"
	status=$?
	[ $status -eq 1 ] || { echo "exit status $status, want 1" >>"$out"; return 1; }
	has "::error file=cases/typo_key.yaml,line=7,col=16,title=clharness unknown key 'bufer' in an argument; did you mean 'buffer'?::unknown key 'bufer'" &&
		! grep -q '^::' "$out.json" && grep -q '"verdict":"pass"' "$out.json" &&
		GITHUB_ACTIONS= run 1 run --device pocl "$cases/typo_key.yaml" && lacks "::error" &&
		GITHUB_ACTIONS=true run 0 run --device pocl,oclgrind "$top/cases/reduce/halving_nobarrier.yaml" &&
		has "::notice file=" && lacks "::error" &&
		GITHUB_ACTIONS=true run 1 run --device pocl "$cases/reference_file_wrong.yaml" &&
		has "::error file=" &&
		GITHUB_ACTIONS=true CLHARNESS_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so \
			run 0 run "$cases/good.yaml" &&
		has "::warning title=clharness oclgrind is unavailable%2C so nothing ran on it::oclgrind is unavailable" &&
		GITHUB_ACTIONS=true GITHUB_WORKSPACE=$abs run 77 check --device pocl "$abs/kernels/doubles.cl" \
			--kernel twice --global 4 --local 2 &&
		has "::warning file=kernels/doubles.cl,title=clharness one device%2C no simulator and no --expect::" &&
		GITHUB_ACTIONS=true run 77 run --device oclgrind "$cases/needs_fp16.yaml" &&
		has "::warning title=clharness every result was a skip%2C so nothing was checked::" &&
		GITHUB_ACTIONS=true GITHUB_WORKSPACE=$abs run 77 check --device oclgrind "$abs/kernels/fp16_sum.cl" \
			--kernel twice --global 64 --local 16 &&
		has "::warning file=kernels/fp16_sum.cl,title=clharness nothing was checked::nothing was checked: every run was a skip"
}
arg_count_reported() {
	run 1 run --device pocl "$cases/arg_count.yaml" &&
		has "arg_count.yaml:7:6: error: kernel copy takes 2 arguments, but the case gives 3" &&
		has "case-error"
}
build_error_reported() {
	run 1 run --device pocl "$cases/build_error.yaml" "$cases/good.yaml" &&
		has "kernels/broken.cl:4:26: error: use of undeclared identifier 'undeclared_name'" &&
		has "     4 | 	out[get_global_id(0)] = undeclared_name;" &&
		[ "$(count '^pass .*good')" -eq 2 ]
}
hang_times_out() {
	run 1 run --device pocl --timeout 30 "$cases/hang.yaml" "$cases/good.yaml" &&
		[ "$(count '^timeout .*hang .*N=16 L=16')" -eq 1 ] && [ "$(count '^pass .*good')" -eq 2 ] &&
		[ "$(count 'no result after 2 s')" -eq 1 ]
}
catalogue_page() {
	run 1 catalogue --results "$data/results/two_cases.jsonl" "$cases/good.yaml" &&
		has "two_cases.jsonl:3:1: error: JSON" &&
		has "| Case | What it shows | Oclgrind | pocl-cpu |" &&
		has "| [good](../cases/good.yaml) |" &&
		run 2 catalogue --results "$data/results/no_such.jsonl" "$cases/good.yaml" &&
		has "cannot read the results"
}
crash_isolated() {
	run 1 run --device pocl "$cases/crash.yaml" "$cases/good.yaml" &&
		[ "$(count '^crash .*crash ')" -eq 2 ] && has "killed by signal" &&
		[ "$(count '^pass .*good')" -eq 2 ]
}
# On a CPU device each job's runner takes the next case when it is free: the results still
# come in the cases' order, and a crash, a hang or a build error costs its own case alone.
handed_out_in_order() {
	run 1 run -j 2 --device pocl --timeout 30 "$cases/crash.yaml" "$cases/good.yaml" \
		"$cases/hang.yaml" "$cases/build_error.yaml" "$cases/nd_good.yaml" "$cases/offset.yaml" &&
		[ "$(sed -n 's/^[a-z-]*  *\([a-z_]*\)  *pocl-cpu .*/\1/p' "$out" | uniq | tr '\n' ' ')" = \
			"crash good hang build_error nd_good offset " ] &&
		[ "$(count '^crash .*crash ')" -eq 2 ] && [ "$(count '^pass .*nd_good ')" -eq 4 ] &&
		[ "$(count '^pass .*offset ')" -eq 2 ] && [ "$(count '^timeout .*hang ')" -eq 1 ]
}
json_lines() {
	run 0 run --device pocl --json "$cases/good.yaml" &&
		[ "$(count '^{"case":"good",.*"verdict":"pass","expected":true,.*}$')" -eq 2 ]
}
tap_lines() {
	run 0 run --device pocl --tap "$cases/good.yaml" &&
		has "ok 1 - good [pocl-cpu] N=64 L=16" && has "ok 2 - good [pocl-cpu] N=1024 L=16" &&
		has "1..2"
}
tap_failures_exit_0() {
	run 0 run --device pocl --tap "$cases/typo_key.yaml" "$cases/build_error.yaml" &&
		has "not ok 1 - $cases/typo_key.yaml: case file error" &&
		has "# $cases/typo_key.yaml:7:16: error: unknown key 'bufer'" &&
		has "not ok 2 - build_error [pocl-cpu] build: build-error" && has "1..2"
}
overrides() {
	run 0 run --device pocl --size 32 --local 8 --local 4 "$cases/good.yaml" &&
		[ "$(count '^pass .*N=32 L=8')" -eq 1 ] && [ "$(count '^pass .*N=32 L=4')" -eq 1 ] &&
		[ "$(count '^pass')" -eq 2 ]
}
# An N-D case names its shapes in every report, and --size and --local take one size a
# dimension.
two_dimensions() {
	run 0 run --device pocl,oclgrind "$cases/nd_good.yaml" &&
		[ "$(count '^pass .*N=64x32 L=16x4')" -eq 1 ] && [ "$(count '^pass .*N=16x8 L=8x8')" -eq 1 ] &&
		run 0 run --device pocl --tap --size 32x16 --local 8x4 "$cases/nd_good.yaml" &&
		has "ok 1 - nd_good [pocl-cpu] N=32x16 L=8x4" &&
		run 0 run --device pocl --json --size 32x16 --local 8x4 "$cases/nd_good.yaml" &&
		has '"N":[32,16],"L":[8,4],"shape":"N=32x16 L=8x4"' &&
		run 2 run --size 32xx16 "$cases/nd_good.yaml" && has "--size takes a positive whole number, or one a dimension like 1024x768, found '32xx16'" &&
		run 1 run --device pocl --size 32x16 --local 8 "$cases/nd_good.yaml" &&
		has "error: --local 8 has 1 dimension, but " && has "write each shape as --local 8x8" &&
		run 0 run --device pocl,oclgrind "$cases/offset.yaml" && [ "$(count '^pass ')" -eq 3 ]
}
# Every OpenCL C type: vectors, 3-vectors' padding, 64-bit and half storage, lane-wise
# and all-lane sums; a wrong lane is named as OpenCL C writes it; a device without a
# type's extension is a skip that says so; a type that differs from the parameter's, or
# an init past the type's range, is an error at its line.
other_types() {
	run 0 run --device pocl,oclgrind "$cases/types.yaml" && [ "$(count '^pass ')" -eq 3 ] &&
		run 1 run --device pocl "$cases/types_wrong.yaml" &&
		has "u4_out[0].s0: got 177, want 77; 256 of 256 lanes differ (rotate of u4)" &&
		run 77 run --device pocl,oclgrind "$cases/needs_fp16.yaml" && [ "$(count '^skip ')" -eq 2 ] &&
		has "kernels/fp16_sum.cl enables cl_khr_fp16 (half arithmetic), which pocl-cpu does not have" &&
		run 1 run --device pocl "$cases/type_mismatch.yaml" &&
		has "type_mismatch.yaml:8:10: error: argument 1 of sum_float4_lanes (in) has type float4*, but the case gives float*" &&
		run 0 run --device pocl,oclgrind "$cases/constant_too_large.yaml" &&
		has "note: constant buffer table needs 400000 bytes of constant memory; oclgrind has 65536" &&
		[ "$(count '^pass .*pocl-cpu')" -eq 1 ] &&
		run 1 run --device pocl "$cases/type_range.yaml" &&
		has "type_range.yaml:7:49: error: uchar4 buffer 'u4' holds values from 0 to 255, but its init reaches 300"
}
# reference: targets compares what every target left where no CPU reference fits; a
# difference names the buffer, the index and both targets' values.
across_targets() {
	run 0 run --device pocl,oclgrind "$cases/across_targets.yaml" && [ "$(count '^pass ')" -eq 3 ] &&
		run 1 run --device pocl,oclgrind "$cases/across_targets_differ.yaml" &&
		has "across_targets_differ.yaml:10:3: error: out[0]: got 120, want 300 as pocl-cpu left it; 64 of 64 elements differ (at N=64 L=16)" &&
		run 1 run --device pocl,oclgrind "$cases/across_targets_no_shared_shape.yaml" &&
		has "list every sim_sizes entry in sizes"
}
# A reference kernel runs on the CPU device with the case's inputs, whichever targets run
# the case; a wrong one, or one that does not build, is reported as such. Its outputs are
# in before any result is compared with them, whether it ran first (-j 1) or beside the
# targets' first parts (-j 2).
reference_kernel() {
	wrong="reference_kernel_wrong.yaml:12:3: error: out[0]: got -5829, want 4489 as the reference kernel pair_product_wrong on pocl-cpu left it; 62 of 64 elements differ (at N=64 L=16)"
	run 0 run --device pocl,oclgrind "$cases/reference_kernel.yaml" && [ "$(count '^pass ')" -eq 3 ] &&
		run 0 run --device oclgrind "$cases/reference_kernel.yaml" && [ "$(count '^pass ')" -eq 1 ] &&
		run 1 run -j 1 --device pocl "$cases/reference_kernel_wrong.yaml" && has "$wrong" &&
		run 1 run -j 2 --device pocl "$cases/reference_kernel_wrong.yaml" && has "$wrong" &&
		run 1 run -j 2 --device pocl,oclgrind "$cases/reference_kernel_wrong.yaml" "$cases/reference_kernel.yaml" &&
		has "$wrong" && [ "$(count '^pass ')" -eq 3 ] &&
		run 1 run --device pocl "$cases/reference_kernel_missing.yaml" &&
		has "case-error         reference_kernel_missing (reference) pocl-cpu" &&
		has "no reference for out: the reference kernel no_such_kernel did not run on a CPU device at N=64 L=16"
}
# Buffers of structs are generated and compared field by field; a struct passed by value
# reaches the kernel as OpenCL C lays it out; mistakes are errors at their line.
structs() {
	run 0 run --device pocl,oclgrind "$cases/structs.yaml" "$cases/struct_layout.yaml" &&
		[ "$(count '^pass ')" -eq 4 ] &&
		run 1 run --device pocl "$cases/structs_wrong.yaml" &&
		has "structs_wrong.yaml:12:3: error: out.mass[0]: got 69, want 5 as the reference kernel scale_particles_wrong on pocl-cpu left it" &&
		run 1 run --device pocl "$cases/struct_mistakes.yaml" &&
		has "struct_mistakes.yaml:9:63: error: a struct scalar's value is a list of one value a field: struct {float scale; int shift;} needs 2, found 1" &&
		has "struct_mistakes.yaml:11:20: error: 'out' holds structs, which no computed reference or data file makes" &&
		run 0 run --device pocl,oclgrind "$cases/structs_from_file.yaml" && [ "$(count '^pass ')" -eq 2 ] &&
		run 1 run --device pocl "$cases/structs_from_ragged_file.yaml" &&
		has "holds 100 bytes, which is no whole number of 32-byte structs for buffer 'in'"
}
built_once() {
	CLHARNESS_CACHE_DIR=off run 0 run --device pocl --timing --size 32 --size 64 --local 8 --local 4 "$cases/good.yaml" &&
		has "work: 1 program build and 0 from the program cache, 4 input buffers generated, 2 references computed, 4 runs"
}
# A program is loaded from the cache only where its source, options and headers are the
# same, on each target; an entry that is damaged is built again, with the same verdicts.
# Where PoCL specialises kernels to launch shapes (POCL_WORK_GROUP_SPECIALIZATION=1, as in
# a timed run), it hands out a binary only at the cost of a build, so the binary is
# stored when the program is built a second time, and loaded from the third. A run that
# checks outputs has PoCL compile one generic function a kernel, which the binary holds
# anyway, so there the first build stores it.
program_cache() {
	cache=$out.cache
	rm -rf "$cache" "$out.k" && mkdir -p "$out.k/inc" &&
		printf '#include "offset.h"\nkernel void copy(global const int *in, global int *out) { size_t i = get_global_id(0); out[i] = in[i] + OFFSET; }\n' >"$out.k/copy.cl" &&
		echo '#define OFFSET 0' >"$out.k/inc/offset.h" &&
		sed "s|file: kernels/copy.cl|file: $out.k/copy.cl|; s|^kernel:|options: -I $out.k/inc\nkernel:|" "$cases/good.yaml" >"$out.k/case.yaml" &&
		CLHARNESS_CACHE_DIR=$cache run 0 run -j 1 --timing --device pocl,oclgrind "$out.k/case.yaml" &&
		has "work: 2 program builds and 0 from the program cache" &&
		[ "$(ls "$cache" | wc -l)" -eq 2 ] &&
		CLHARNESS_CACHE_DIR=$cache run 0 run -j 1 --timing --device pocl,oclgrind "$out.k/case.yaml" &&
		has "work: 0 program builds and 2 from the program cache" && [ "$(count '^pass ')" -eq 3 ] &&
		echo '#define OFFSET 2' >"$out.k/inc/offset.h" &&
		specialised() { POCL_WORK_GROUP_SPECIALIZATION=1 CLHARNESS_CACHE_DIR=$cache run 1 run -j 1 --timing --device pocl "$out.k/case.yaml" && has "got 7, want 5"; } &&
		specialised && has "work: 1 program build and 0 from the program cache" &&
		specialised && has "work: 1 program build and 0 from the program cache" &&
		specialised && has "work: 0 program builds and 1 from the program cache" &&
		echo '#define OFFSET 3' >"$out.k/inc/offset.h" &&
		timed() { CLHARNESS_CACHE_DIR=$cache run 1 run -j 1 --repeat 2 --timing --device pocl "$out.k/case.yaml" && has "got 8, want 5"; } &&
		timed && has "work: 1 program build and 0 from the program cache" &&
		timed && has "work: 1 program build and 0 from the program cache" &&
		timed && has "work: 0 program builds and 1 from the program cache" &&
		echo '#define OFFSET 1' >"$out.k/inc/offset.h" &&
		CLHARNESS_CACHE_DIR=$cache run 1 run -j 1 --timing --device pocl "$out.k/case.yaml" &&
		has "work: 1 program build and 0 from the program cache" && has "got 6, want 5" &&
		CLHARNESS_CACHE_DIR=$cache run 1 run -j 1 --timing --device oclgrind "$out.k/case.yaml" &&
		has "work: 1 program build and 0 from the program cache" && has "got 6, want 5" &&
		for f in "$cache"/*.bin; do printf 'clharness-program 1 9 9\nnonsense' >"$f"; done &&
		CLHARNESS_CACHE_DIR=$cache run 1 run -j 1 --timing --device pocl,oclgrind "$out.k/case.yaml" &&
		has "work: 2 program builds and 0 from the program cache" && has "got 6, want 5"
	status=$?
	rm -rf "$cache" "$out.k"
	return $status
}
no_device() {
	run 2 run --device nosuchdevice "$cases/good.yaml" &&
		has "no OpenCL device matches 'nosuchdevice'; the targets here are pocl-cpu" &&
		lacks "did you mean" &&
		run 2 run --device pocl-cpuu "$cases/good.yaml" && has "did you mean 'pocl-cpu'?" &&
		run 0 run --tap --device nosuchdevice "$cases/good.yaml" &&
		has "1..0 # SKIP no OpenCL device matches 'nosuchdevice'"
}

# Inputs from a .npy file, copied through; at a size past the file's, the case says so.
inputs_from_file() {
	run 0 run --device pocl "$cases/init_from_files.yaml" && [ "$(count '^pass ')" -eq 2 ] &&
		run 1 run --device pocl --size 2048 "$cases/init_from_files.yaml" &&
		has "buffer 'in' holds 2048 elements at N=2048, L=16, but data/iota_1024.npy holds 1024 (shape (4, 256))"
}
# Expected values from a .npy file: the right ones pass, a wrong one is named at its index
# with the file it came from; a size the file does not fit is that case's error, unless
# the file says which launch it is of (at:), and other launches say they compared nothing.
reference_from_file() {
	run 0 run --device pocl "$cases/reference_from_file.yaml" && [ "$(count '^pass ')" -eq 1 ] &&
		run 1 run --device pocl "$cases/reference_file_wrong.yaml" &&
		has "out[100]: got 100, want -1; 1 of 1024 elements differ (as data/expect_wrong.npy holds)" &&
		run 1 run --device pocl --size 64 "$cases/reference_from_file.yaml" &&
		has "a file of expected values fits one size" &&
		run 0 run --device pocl "$cases/reference_at_one_launch.yaml" &&
		[ "$(count "pass .* N=1024 L=16  *[0-9.]* ms$")" -eq 1 ] &&
		[ "$(count 'N=64 L=16 .*(output not compared: its values are of another shape)')" -eq 1 ]
}
check "devices lists pocl-cpu with its limits" devices_listed
check "a typo in a key is reported at file:line:col and the other cases still run" typo_reported
check "under GitHub Actions each error is also an annotation at its line, on stderr, and so is a missing simulator" github_annotations
check "an argument count that does not match the kernel is reported at the args line" arg_count_reported
check "a build error points at the kernel's own line and the run goes on" build_error_reported
check "catalogue writes the page from recorded results and reports a line that is not one" catalogue_page
check "a kernel that hangs gets timeout after its case's own limit, and the run goes on" hang_times_out
check "a kernel that crashes its worker gets crash for each size and the run goes on" crash_isolated
check "cases handed out to a CPU device's runners report in the cases' order, each failure its own" handed_out_in_order
check "--json prints one object a result" json_lines
check "--tap prints a test line a result, then the plan" tap_lines
check "--tap reports failures as not ok lines and exits 0" tap_failures_exit_0
check "--size and --local replace the case's own" overrides
check "a 2-D case runs, names its shapes N=64x32 L=16x4, and takes --size 32x16" two_dimensions
check "buffers, locals and scalars of every type and vector width run and compare lane by lane" other_types
check "with reference: targets the outputs of every target are compared with each other" across_targets
check "a reference kernel's output on the CPU device is what every target's must be" reference_kernel
check "structs by value and in buffers, laid out as OpenCL C does, compared field by field" structs
check "a buffer's inputs come from a .npy file, and a size past it is that case's error" inputs_from_file
check "a check's expected values come from a .npy file, a wrong one named at its index" reference_from_file
check "a program is built once per device; inputs, and references that do not depend on L, once per size" built_once
check "a program is loaded from the program cache only where its source, options and headers match, a damaged entry is built again, and PoCL's binary is kept from its first build, or its second where PoCL specialises kernels to launch shapes, as in a timed run" program_cache
check "a device that matches nothing is a setup error, and a skip under --tap" no_device

# The oclgrind backend. Unavailable is not an error: the devices still run. But the
# summary says so, and SARIF's run is no successful one, lest no race read as none.
unavailable_is_a_note() {
	CLHARNESS_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so run 0 run --sarif "$out.json" "$cases/good.yaml" &&
		has "clharness: note: oclgrind is unavailable, so nothing runs on it: /nonexistent/liboclgrind-rt-icd.so cannot be read" &&
		[ "$(count '^pass .*good .*pocl-cpu')" -eq 2 ] &&
		has "0 failed; 1 target unavailable, so nothing ran there (see the note above)" &&
		grep -q '"executionSuccessful":false,"toolExecutionNotifications":\[{"level":"error","message":{"text":"oclgrind is unavailable' "$out.json" &&
		CLHARNESS_OCLGRIND_ICD= run 0 devices && has "oclgrind         unavailable: configure found no liboclgrind-rt-icd.so"
}
unavailable_is_a_tap_skip() {
	CLHARNESS_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so run 0 run --tap --device pocl,oclgrind "$cases/good.yaml" &&
		has "ok 1 - good [oclgrind] build # SKIP oclgrind is unavailable: /nonexistent/liboclgrind-rt-icd.so cannot be read" &&
		has "1..3"
}
check "without Oclgrind the oclgrind backend is reported unavailable, and the devices still run" unavailable_is_a_note
check "under --tap an unavailable oclgrind is a skipped test a case" unavailable_is_a_tap_skip

if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^oclgrind  *simulator '; then
	for t in plain-run json-findings hostile-env golden-diff bless bless-needs-oclgrind \
		check-race check-input-sets check-save check-bad-arg check-outputs-differ check-build-error \
		cannot-simulate; do
		n=$((n + 1))
		echo "ok $n - $t # SKIP no Oclgrind (install oclgrind)"
	done
	echo "1..$n"
	exit 0
fi

tree=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$tree"' EXIT
# A catalogue of one case in a tree of its own, to break and bless its golden freely.
mkdir -p "$tree/cases/t" "$tree/kernels/reduce" "$tree/expected/t"
cp "$top/kernels/reduce/halving_nobarrier.cl" "$tree/kernels/reduce/"
cp "$top/cases/reduce/halving_nobarrier.yaml" "$tree/cases/t/racy.yaml"
sed 's/reduce\/halving_nobarrier/t\/racy/' "$top/expected/reduce/halving_nobarrier.expect" >"$tree/expected/t/racy.expect"

plain_run_includes_oclgrind() {
	run 0 run "$cases/good.yaml" && [ "$(count '^pass .*good .*oclgrind .*N=64 L=16')" -eq 1 ] &&
		[ "$(count '^pass .*good .*pocl-cpu')" -eq 2 ]
}
json_carries_findings() {
	run 0 run --json --device oclgrind "$tree/cases/t/racy.yaml" &&
		has '"verdict":"race","expected":true,"complete":true,"output":"wrong-output"' &&
		has '"findings":[{"severity":"error","kind":"race","what":"read-write","space":"local","kernel":"reduce_sum_nobarrier"' &&
		has '"at":{"line":14,"col":17,"access":"w"},"other":{"line":14,"col":20,"access":"r"}' &&
		has '"example":[{"global":[1,0,0],"local":[1,0,0],"group":[0,0,0]}' &&
		has '"rests_on":null,"fix":"line 14 races with itself from one pass of'
}
# Quick mode would miss the race between inner groups, a budget of 1000 the race after a
# flood of uninitialised reads: the harness sets Oclgrind's environment itself.
hostile_environment() {
	OCLGRIND_QUICK=1 OCLGRIND_MAX_ERRORS=1000 OCLGRIND_UNIFORM_WRITES=1 run 0 run --device oclgrind \
		"$top/cases/traps/inner_group_edges.yaml" "$top/cases/traps/flood_then_race.yaml" \
		"$top/cases/reduce/result_same_value_by_all.yaml" &&
		[ "$(count '^race .*traps/inner_group_edges')" -eq 1 ] &&
		[ "$(count '^race .*traps/flood_then_race')" -eq 1 ] &&
		has "warning: write-write data race on global memory"
}
golden_diff_fails() {
	sed -i 's/local 14 14/local 14 15/' "$tree/expected/t/racy.expect"
	run 1 run --device oclgrind "$tree/cases/t/racy.yaml" &&
		has "expected/t/racy.expect:4: error: oclgrind N=256 L=32 differs from its golden" &&
		has "    -   error race read-write local 14 15" && has "    +   error race read-write local 14 14" &&
		run 0 run --tap --device oclgrind "$tree/cases/t/racy.yaml" &&
		has "not ok 1 - t/racy [oclgrind] N=256 L=32: race, which its golden does not say"
}
bless_rewrites() {
	rm "$tree/expected/t/racy.expect"
	run 0 run --bless --device oclgrind "$tree/cases/t/racy.yaml" &&
		has "clharness: wrote $tree/expected/t/racy.expect" &&
		grep -q '^  error race read-write local 14 14$' "$tree/expected/t/racy.expect" &&
		grep -q '^devices: ran$' "$tree/expected/t/racy.expect" &&
		run 0 run --device pocl,oclgrind "$tree/cases/t/racy.yaml" && ! has "differs"
}
bless_needs_oclgrind() {
	run 2 run --bless --device pocl "$tree/cases/t/racy.yaml" && has "--bless writes goldens from a simulator's runs"
}

# clharness check, as a new user meets it: a reduction from the catalogue with one barrier
# deleted names the race, its two lines and the memory space.
sed '/The next level reads what this one wrote/,+1d' "$top/kernels/reduce/halving.cl" >"$tree/nobarrier.cl"
check_names_the_race() {
	run 1 check "$tree/nobarrier.cl" --kernel reduce_sum --global 256 --local 32 &&
		has "nobarrier.cl:12:17: error: read-write data race on local memory: this write conflicts with a read at line 12" &&
		has "nobarrier.cl:12:20: note: the conflicting read" &&
		has "with the random, zeros, repeats inputs" && has "check: reduce_sum on 2 targets with 3 input sets: 6 of 6 runs ran to the end; 1 error"
}
# A race that only a value check chose shows (k = 1, which no --arg gave) is a warning
# that says so; given that value, it is the kernel's error.
check_input_sets() {
	run 0 check --device oclgrind "$top/kernels/shift/across_groups_barrier.cl" --kernel shift_after_barrier \
		--global 128 --local 32 --arg '{name: n, scalar: uint, value: 128}' &&
		has "warning: read-write data race on global memory" &&
		has "(4 times, kernel shift_after_barrier, with the scalar-1 inputs)" &&
		has "note: this may follow from what clharness chose, not from the kernel: only the scalar-1 inputs showed it, where clharness set k, which no name places, to 0 or 1" &&
		has "  k = 128, and 0 and 1 in the scalar-0 and scalar-1 inputs: nothing in its name ties it to the launch" &&
		has "could not place k by name: give it with --arg" &&
		[ "$(count '^race ')" -eq 1 ] && [ "$(count '^pass ')" -eq 4 ] &&
		run 1 check --device oclgrind "$top/kernels/shift/across_groups_barrier.cl" --kernel shift_after_barrier \
			--global 128 --local 32 --arg '{name: n, scalar: uint, value: 128}' --arg '{name: k, scalar: uint, value: 1}' &&
		has "error: read-write data race on global memory" &&
		lacks "clharness chose, not from the kernel"
}
# Saved into a catalogue, a case names its kernel from the catalogue's root; a kernel
# outside the catalogue is one its cases may not name.
# Values the kernel must leave, as a list or a file named from the current folder (the
# kernel's file elsewhere); a mismatch is the --expect's error and fails the check.
check_expect() {
	k=$data/kernels/doubles.cl
	in="{name: in, buffer: int, count: N, init: {iota: 1}}"
	run 0 check "$k" --kernel twice --global 4 --local 2 --arg "$in" --expect 'out=[2, 4, 6, 8]' &&
		has "with 1 input set: 2 of 2 runs ran to the end; 0 runs left other values than --expect gives" &&
		run 1 check "$k" --kernel twice --global 4 --local 2 --arg "$in" --expect 'out=[2, 4, 6, 9]' &&
		has "--expect 1: error: out[3]: got 8, want 9; 1 of 4 elements differ" &&
		(cd "$data/data" && "$CLHARNESS" check ../kernels/doubles.cl --kernel twice --global 4 --local 2 \
			--arg "{name: in, buffer: int, count: N, init: {file: ../data/doubled_1_to_4.bin}}" \
			--expect out=doubled_1_to_4.bin >"$out" 2>&1; [ $? -eq 1 ]) &&
		has "--expect 1: error: out[0]: got 4, want 2" &&
		run 2 check "$k" --kernel twice --global 4 --local 2 --expect 'out=[2, 4, 6, 8]' &&
		has "give buffer 'in' with --arg"
}
case_values() {
	run 1 run --device pocl "$data/cases/expected_values.yaml" &&
		has "out[3]: got 8, want 9; 1 of 4 elements differ (as the values: list holds)"
}
check_save() {
	cp "$data/kernels/copy.cl" "$tree/kernels/" &&
		run 0 check "$tree/kernels/copy.cl" --kernel copy --global 64 --local 16 --save "$tree/cases/t/saved.yaml" &&
		has "clharness: wrote $tree/cases/t/saved.yaml" && grep -q "{file: 'kernels/copy.cl', name: copy}" "$tree/cases/t/saved.yaml" &&
		run 0 run --device pocl,oclgrind "$tree/cases/t/saved.yaml" && [ "$(count '^pass .* oclgrind ')" -eq 1 ] &&
		[ "$(count '^skip .* pocl-cpu ')" -eq 1 ] && has "note: nothing to compare on pocl-cpu: the case has no output" &&
		run 2 check "$data/kernels/copy.cl" --kernel copy --global 64 --local 16 --save "$tree/cases/t/outside.yaml" &&
		has "may name only kernels inside it" && [ ! -e "$tree/cases/t/outside.yaml" ]
}
check_bad_arg() {
	run 2 check "$data/kernels/copy.cl" --kernel copy --global 64 --local 16 --arg '{bufer: int, count: N}' &&
		has "--arg 1: error: an argument needs exactly one of buffer, constant, local or scalar" &&
		run 2 check "$data/kernels/copy.cl" --kernel copy --global 64 --local 16 --arg '{scalar: int, value: 1}' &&
		has "--arg 1: error: gives a scalar, but parameter 1 of copy (int* in) is a buffer" &&
		run 2 check "$data/kernels/copy2d.cl" --kernel copy2d --global 64x32 --local 16 &&
		has "--global 64x32 has 2 dimensions but --local 16 has 1"
}
# A global size no multiple of the work-group size is a non-uniform launch: run where the
# device launches one (OpenCL 2.x, or 3.0 that says so), a skip that says why elsewhere;
# neither PoCL 3.1 nor Oclgrind 21.10 launches one, so here every run is a skip.
check_non_uniform() {
	run 0 check "$data/kernels/copy.cl" --kernel copy --global 60 --local 16 --device pocl,oclgrind \
		--save "$out.ragged.yaml" &&
		has "note: at N=60, L=16 the last work-group is smaller than the others, which pocl-cpu" &&
		grep -q "^pass  *copy random  *oclgrind  *N=60 L=16" "$out" && has "3 of 6 runs ran to the end (3 skipped)" &&
		grep -q "^non_uniform: true" "$out.ragged.yaml" &&
		run 77 check "$data/kernels/copy2d.cl" --kernel copy2d --global 64x30 --local 16x4 --device pocl &&
		has "at N=64x30, L=16x4 the last work-group is smaller" &&
		sed '/^non_uniform/d' "$out.ragged.yaml" >"$out.uniform.yaml" &&
		run 1 run --device pocl "$out.uniform.yaml" &&
		has "not a multiple of the work-group size 16" && has "say non_uniform: true" &&
		"$CLHARNESS" devices >"$out" 2>&1 && has "non-uniform work-groups no"
}
# A worker that crashed on one input set is replaced: the next set runs in a fresh one.
# The crashes come of n, which check chose: with n = 0 the kernel ends, so they are
# warnings; a kernel that crashes with every input set is an error.
crash_does_not_carry() {
	run 77 check "$data/kernels/far_write.cl" --kernel far --global 64 --local 16 --device pocl &&
		[ "$(count '^crash ')" -eq 4 ] && [ "$(count '^pass .*far scalar-0')" -eq 1 ] &&
		has "1 of 5 runs ran to the end (4 failed" &&
		has "warning: the worker running this died: killed by signal 11 (Segmentation fault); the OpenCL driver or the kernel crashed, with values clharness chose (listed above)" &&
		run 1 check "$data/kernels/far_write.cl" --kernel far --global 64 --local 16 --device pocl --arg '{name: spread, scalar: int, value: 1}' &&
		[ "$(count '^crash ')" -eq 3 ] && has "check: far hung or crashed on pocl-cpu with every input set: an error of the kernel's"
}
# Build options starting -cl- stand alone, or as the value of --options.
check_cl_options() {
	run 77 check "$data/kernels/copy.cl" --kernel copy --global 64 --local 16 --device pocl \
		--options -cl-std=CL1.2 -cl-mad-enable --save "$out.options.yaml" &&
		grep -q "^options: '-cl-mad-enable -cl-std=CL1.2'" "$out.options.yaml"
}
# check makes struct arguments from their definitions in the kernel's source, and
# vectors, halves and doubles from the signature.
check_structs_and_types() {
	run 0 check "$data/kernels/particles.cl" --kernel scale_particles --global 64 --local 16 --save "$tree/particles.yaml" &&
		lacks "error:" && [ "$(count '^pass ')" -eq 10 ] &&
		grep -q "{name: p, scalar: \[{scale: float}, {shift: int}\], value: \[N, N\]}" "$tree/particles.yaml" &&
		run 0 check "$data/kernels/types.cl" --kernel sum_float4_lanes --global 64 --local 16 &&
		lacks "error:" && [ "$(count '^pass ')" -eq 6 ]
}
# A 2-D check sizes the buffers it generates by the whole launch, N * M.
check_two_dimensions() {
	run 0 check "$data/kernels/copy2d.cl" --kernel copy2d --global 32x16 --local 8x8 --arg '{name: width, scalar: int, value: N}' --save "$tree/copy2d.yaml" &&
		has "N=32x16 L=8x8" && lacks "error:" &&
		grep -q "sizes: \[\[32, 16\]\]" "$tree/copy2d.yaml" && grep -q "global: \[N, M\]" "$tree/copy2d.yaml" &&
		grep -q "count: N \* M" "$tree/copy2d.yaml"
}
# With no --arg, check places width and height by their names and says every value it
# chose; the tile it sizes a work-group long is too small for this kernel, and the
# accesses past it are warnings that say so, in text, JSON and SARIF.
check_says_its_choices() {
	k=$top/kernels/matrix/transpose_tiled.cl
	run 0 check "$k" --kernel transpose_tiled --global 64x48 --local 16x16 --sarif "$out.sarif" &&
		has "  width = 64: the global size's first extent, as its name says" &&
		has "  height = 48: the global size's second extent, as its name says" &&
		has "  tile = 256 floats: one a work-item of the work-group 16x16" &&
		has "warning: out-of-bounds write of local memory" && lacks ": error: " &&
		has "note: this may follow from what clharness chose, not from the kernel: tile = 256 floats; if the kernel expects other values, give them with --arg, e.g. --arg '{name: tile, local: float, count: ...}'" &&
		grep -q '"toolConfigurationNotifications":\[{"level":"note","message":{"text":"in = 3072 floats' "$out.sarif" &&
		grep -q '"restsOn":"tile = 256 floats' "$out.sarif" &&
		run 0 check "$k" --kernel transpose_tiled --global 64x48 --local 16x16 --device oclgrind --json &&
		has '"chosen":[{"name":"in","value":"3072 floats","why":"one a work-item of the global size 64x48","override":"--arg' &&
		has '"rests_on":"tile = 256 floats' &&
		run 0 check "$k" --kernel transpose_tiled --global 64x48 --local 16x16 --device oclgrind \
			--arg '{name: tile, local: float, count: (L + 1) * LY}' &&
		lacks "warning: out-of-bounds" && lacks "tile = 256"
}
# A 64x64 work-group, over Oclgrind's default limit of 1024, runs: the harness raises it.
big_work_group_simulated() {
	run 0 check --device oclgrind "$data/kernels/copy2d.cl" --kernel copy2d --global 64x64 --local 64x64 \
		--arg '{name: width, scalar: int, value: N}' &&
		[ "$(grep -c "^pass  *copy2d .*oclgrind  *N=64x64 L=64x64" "$out")" -eq 3 ] && lacks "limit" &&
		run 0 devices && has "work-groups up to 65536 (raised from Oclgrind's default of 1024)"
}
# Oclgrind launches a ragged last work-group for a program built as CL2.0, which the
# harness builds it as; one built as 1.x is a skip that says why; a work-group shape a
# kernel does not take is refused before anything runs.
simulator_non_uniform() {
	k=$data/kernels/local_sizes.cl
	run 0 check --device oclgrind "$k" --kernel sizes --global 10 --local 4 --expect 'out=[4,4,4,4,4,4,4,4,2,2]' &&
		has "0 runs left other values than --expect gives" &&
		run 77 check --device oclgrind "$k" --kernel sizes --global 10 --local 4 --options -cl-std=CL1.2 &&
		has "which a program built as OpenCL C 1.x (its -cl-std) cannot launch" && lacks "error:" &&
		run 2 check --device oclgrind "$data/kernels/reqd_eight.cl" --kernel fixed --global 16 --local 4 &&
		has "clharness: fixed requires work-groups of 8x1x1 (reqd_work_group_size): launch it with --local 8"
}
# What a kernel prints is shown with its run, on a device and under Oclgrind, and in JSON.
kernel_printf_shown() {
	k=$data/kernels/prints.cl
	run 0 check "$k" --kernel say --global 8 --local 4 &&
		has "prints.cl: note: the kernel printed: [pocl-cpu N=8 L=4]" &&
		has "prints.cl: note: the kernel printed: [oclgrind N=8 L=4]" &&
		has "    | item 1 here" &&
		run 0 check --json --device oclgrind "$k" --kernel say --global 8 --local 4 &&
		has '"printed":"item 0 here\nitem 1 here\n"'
}
# exp, cos, log and sqrt under -cl-fast-relaxed-math differ by an ulp or so between PoCL
# and Oclgrind, which the spec allows: the outputs agree within the bound those calls earn.
floats_within_their_bound() {
	run 0 check "$data/kernels/relaxed_math.cl" --kernel ex --global 256 --local 32 \
		--options -cl-fast-relaxed-math &&
		has "outputs differ between targets for 0 input sets" && lacks "warning:"
}
# The application's recorded output is the third voice where the targets disagree: the
# odd one out is named, whichever it is, and an odd application fails no target.
odd_one_out_named() {
	run 1 run --device pocl,oclgrind "$cases/recorded_first_agrees.yaml" &&
		has "oclgrind is the odd one out: pocl-cpu and the application's device agree" &&
		[ "$(count '^pass  *recorded_first_agrees  *pocl-cpu')" -eq 1 ] &&
		run 1 run --device pocl,oclgrind "$cases/recorded_second_agrees.yaml" &&
		has "pocl-cpu is at odds with the application's device, and no other target has run it yet" &&
		[ "$(count '^pass  *recorded_second_agrees  *oclgrind')" -eq 1 ] &&
		run 1 run --device pocl,oclgrind "$cases/recorded_all_differ.yaml" &&
		has "oclgrind is one of three that all differ, with the application's device and pocl-cpu" &&
		run 1 run --device pocl,oclgrind "$cases/recorded_is_odd.yaml" &&
		has "warning: the application's recorded output (the values: list) is the odd one out: oclgrind and pocl-cpu agree" &&
		[ "$(count '^pass  *recorded_is_odd  *oclgrind')" -eq 1 ]
}
# A mismatch in an N-D output names its place in the grid beside the flat index.
mismatch_place_in_grid() {
	run 1 check "$data/kernels/copy2d.cl" --kernel copy2d --global 4x2 --local 2x2 --device pocl \
		--arg '{name: in, buffer: int, count: N * M, init: {iota: 1}}' --arg '{name: width, scalar: int, value: N}' \
		--expect 'out=[1, 2, 3, 4, 5, 9, 7, 8]' &&
		has "--expect 1: error: out[5] (at 1, 1 of 4x2): got 6, want 9; 1 of 8 elements differ"
}
check_outputs_differ() {
	run 0 check "$data/kernels/device_version.cl" --kernel device_version --global 64 --local 16 &&
		has "warning: with the random inputs, pocl-cpu and oclgrind leave different values in out" &&
		has "outputs differ between targets for 3 input sets"
}
check_build_error() {
	run 1 check "$data/kernels/broken.cl" --kernel broken --global 16 --local 16 &&
		has "kernels/broken.cl:4:26: error: use of undeclared identifier 'undeclared_name'"
}

cannot_simulate() {
	run 1 run --device pocl,oclgrind "$cases/explicit_assume.yaml" &&
		has "kernels/explicit_assume.cl: error: Oclgrind cannot simulate this program: Undefined external function: llvm.assume" &&
		[ "$(count '^build-error .*oclgrind')" -eq 1 ] && [ "$(count '^pass .*pocl-cpu')" -eq 1 ]
}

check "a plain run runs every device and oclgrind" plain_run_includes_oclgrind
check "--json carries each finding's kind, space, sites, example work-items and fix" json_carries_findings
check "OCLGRIND_QUICK, OCLGRIND_MAX_ERRORS and OCLGRIND_UNIFORM_WRITES in the environment change nothing" hostile_environment
check "a report that differs from its golden fails, showing the diff" golden_diff_fails
check "--bless writes a golden that the next run matches" bless_rewrites
check "--bless needs oclgrind" bless_needs_oclgrind
check "check names a deleted barrier's race, its two lines and the memory space" check_names_the_race
check "check runs input sets and says which one exposed each finding" check_input_sets
check "check --save writes a case that run loads, naming its kernel from the catalogue's root" check_save
check "check --expect compares an output with a list or a data file, found from the current folder" check_expect
check "a case's reference: {values: [...]} is the output it must hold" case_values
check "check reports a wrong --arg as --arg N and runs nothing" check_bad_arg
check "a ragged global size runs where the device launches non-uniform work-groups, else is a skip that says why" check_non_uniform
check "-cl- build options stand alone or as the value of --options" check_cl_options
check "an input set after one that crashed the worker runs in a fresh worker" crash_does_not_carry
check "suppressed findings are listed, fail nothing, and unmatched suppressions are warned of" suppressions
check "check launches in two dimensions with --global 32x16 --local 8x8" check_two_dimensions
check "a mismatch in a 2-D output names its place in the grid" mismatch_place_in_grid
check "a work-group over Oclgrind's default limit of 1024 runs on it" big_work_group_simulated
check "what a kernel prints is shown with its run" kernel_printf_shown
check "floats are compared across targets within the ulp their built-ins earn" floats_within_their_bound
check "the application's recorded output names the odd one out among the targets" odd_one_out_named
check "Oclgrind runs a ragged last work-group of a CL2.0 build; a 1.x build is a skip" simulator_non_uniform
check "check places scalars by name, says each value it chose, and makes what rests on one a warning" check_says_its_choices
check "check makes struct, vector and other-typed arguments from the kernel itself" check_structs_and_types
check "check flags outputs that differ between targets" check_outputs_differ
check "check reports a build error at the kernel's own line" check_build_error
check "a kernel Oclgrind cannot simulate is a build error that says why, and devices still run it" cannot_simulate

echo "1..$n"
exit 0
