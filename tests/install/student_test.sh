#!/usr/bin/env bash
# student_test.sh BUILD_DIR SOURCE_DIR: installs only the `student` component (what students
# install to run `cugrade check`) into a scratch prefix and checks that it holds no reference
# kernel and no hidden shape, and that its cugrade checks a submission in emulation from another
# directory with a bare environment.
set -euo pipefail
build=$1
source=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-student.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix

source "$(dirname "$0")/student_checks.sh" # fail and the checks

cmake --install "$build" --component student --prefix "$prefix" >"$scratch/install.log" ||
  { cat "$scratch/install.log"; fail "cmake --install --component student"; }

for f in bin/cugrade bin/cugrade-fetch bin/cugrade-runner-emu lib/cugrade/libcugrade_emu.so \
  share/cugrade/assignments/reduction/assignment.json share/cugrade/assignments/reduction/starter/reduction.cu \
  share/cugrade/emu/include/cugrade_emu.h; do
  [ -e "$prefix/$f" ] || fail "$f is not in the student installation"
done

# No reference kernel and no hidden shape (student_checks.sh).
no_reference_kernel "$prefix" "$source"
looked=$(no_hidden_shape "$prefix" "$source" "$prefix/share/cugrade/assignments")
echo "no reference kernel and no hidden shape ($looked shape-file pairs searched) in the student installation"

# check works: the reference solution (handed in by a student) passes, the starter fails.
checks_like_a_student "$prefix" "$source" "$scratch"
echo "the student installation's check passes a correct submission and fails the starter"
