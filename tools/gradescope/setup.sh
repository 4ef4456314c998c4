#!/bin/sh
# setup.sh - Gradescope runs this once, as root, when it builds the autograder's image
# (an Ubuntu or Debian one): installs the packages clharness needs and builds it from
# the copy in the autograder's zip (tools/gradescope/make-zip puts it in clharness/).
# AUTOGRADER_ROOT stands in for /autograder where the script is tried elsewhere.
set -eu
cd "${AUTOGRADER_ROOT:-/autograder}/source/clharness"
apt-get update -q
# The cluster and the plot tool serve other jobs than grading one submission.
BOOTSTRAP_WITHOUT="slurm-wlm munge gnuplot-nox" tools/bootstrap
# A first run, so the image holds PoCL's cache of the reference kernels' builds.
./clharness devices
