#!/bin/sh
# conformance.sh - the conformance corpus of tests/conformance/ judged in make check,
# spoken as TAP (tests/conformance_judge: a line a kernel, then the counts).
# Needs $CLHARNESS and $CLH_TEST_DATA (make check sets both) and Oclgrind.

: "${CLHARNESS:?set CLHARNESS to the clharness binary}"
: "${CLH_TEST_DATA:?set CLH_TEST_DATA to tests/data}"
here=$(cd "$(dirname "$0")" && pwd)
if ! "$CLHARNESS" devices 2>/dev/null | grep -q '^oclgrind '; then
	echo "1..0 # SKIP Oclgrind cannot run here (install oclgrind)"
	exit 0
fi
# The judge is built beside the program, the corpus lives in the source tree.
exec "$(dirname "$CLHARNESS")/tests/conformance_judge" "$CLHARNESS" "$here/conformance"
