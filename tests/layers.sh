#!/bin/sh
# layers.sh - the folders of harness/ are layers, and a file includes only from its own
# layer or those below it, spoken as TAP, one test a layer. From the bottom:
#   base      allocation, strings, diagnostics, folder walks, termination signals,
#             loops spread over cores, include directives as the preprocessor reads them
#   case      the case model and loader, expressions, element types, plans, generators,
#             references, comparison
#   source    a kernel's source as clang reads it, the structs it defines, and its
#             rewrite for racecheck
#   findings  Oclgrind's log and the findings folded from it
#   results   results, reporters, goldens, results files, the catalogue page
#   exec      OpenCL plumbing, backends, workers, the wire, dispatch, the runner
#   bench capture check grade  the commands' engines above the runner (none includes
#             another); capture's layer library, inside applications, includes nothing
#   mutate    mutation testing, whose assignment's mutants are graded as students
#   cli       the command line: a file a command, its options and its flow
# and harness/main.c, which only picks the command, on top of all.
# Needs $CLH_TEST_DATA (make check sets it), to find the source tree.

: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
harness=$CLH_TEST_DATA/../../harness
n=0

# rank LAYER: its height, or nothing for a folder that is no layer.
rank() {
	case $1 in
	base) echo 0 ;; case) echo 1 ;; source) echo 2 ;; findings) echo 3 ;; results) echo 4 ;;
	exec) echo 5 ;; bench | capture | check | grade) echo 6 ;; mutate) echo 7 ;; cli) echo 8 ;;
	esac
}

for dir in "$harness"/*/; do
	layer=$(basename "$dir")
	n=$((n + 1))
	own=$(rank "$layer")
	if [ -z "$own" ]; then
		echo "not ok $n - harness/$layer/ is no layer: add it to tests/layers.sh"
		continue
	fi
	bad=$(grep -o '#include "[a-z]*/[a-z_]*\.h"' "$dir"*.[ch] | while IFS= read -r hit; do
		file=${hit%%:*}
		to=${hit#*\"}
		to=${to%%/*}
		theirs=$(rank "$to")
		if [ -z "$theirs" ] || [ "$theirs" -gt "$own" ] || { [ "$theirs" -eq "$own" ] && [ "$to" != "$layer" ]; }; then
			echo "$(basename "$file") includes ${hit#*\"}"
		fi
	done | sed 's/"$//')
	if [ -z "$bad" ]; then
		echo "ok $n - harness/$layer/ includes nothing from a layer above it"
	else
		echo "not ok $n - harness/$layer/ includes from a layer above it or beside it"
		echo "$bad" | sed 's/^/# /'
	fi
done
echo "1..$n"
