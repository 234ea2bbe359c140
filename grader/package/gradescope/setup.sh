#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (written by
# `cugrade package gradescope`; docs/gradescope.md). It installs the Debian/Ubuntu packages
# cugrade needs and builds what grading needs (the `grade` preset: no test suites), both through
# cugrade's own scripts/setup, so the package list has one home. Choose Gradescope's Ubuntu 24.04
# base image: cugrade needs CMake 3.25 or newer. There is no GPU there: run_autograder grades in
# emulation.
set -euo pipefail
root=${CUGRADE_AUTOGRADER_ROOT:-/autograder}
source_dir=$root/source/cugrade
export DEBIAN_FRONTEND=noninteractive
# run_autograder adds its note to results.json with python3.
if ! command -v python3 >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3
fi
cd "$source_dir"
./scripts/setup grade
test -x build/grade/bin/cugrade
echo "setup.sh: built $(build/grade/bin/cugrade --version | head -n 1)"
