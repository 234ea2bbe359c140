#!/usr/bin/env bash
# run_test.sh BUILD_DIR SOURCE_DIR: makes the release the Classroom workflow installs, the student
# distribution as a .deb (cpack of this build's install component `student`, as
# tests/install/install_test.sh's deb mode packs the whole build), checks that it holds no
# reference kernel and no hidden shape, then runs workflow_test.py with it.
set -euo pipefail
build=$1
source=$2
here=$(dirname "$0")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-classroom-release.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

source "$source/tests/install/student_checks.sh"

(cd "$build" && cpack -G DEB -B "$scratch/cpack" -D CPACK_COMPONENTS_ALL=student \
  -D CPACK_DEB_COMPONENT_INSTALL=ON -D CPACK_COMPONENTS_GROUPING=ALL_COMPONENTS_IN_ONE \
  >"$scratch/cpack.log") || { cat "$scratch/cpack.log"; fail "cpack"; }
debs=("$scratch"/cpack/*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "cpack wrote ${debs[*]}, not one .deb"
dpkg -x "${debs[0]}" "$scratch/root"
depends_cover_libraries "${debs[0]}" "$scratch/root"
[ -x "$scratch/root/usr/bin/cugrade" ] || fail "the release holds no usr/bin/cugrade"
no_reference_kernel "$scratch/root" "$source"
looked=$(no_hidden_shape "$scratch/root" "$source" "$scratch/root/usr/share/cugrade/assignments")
echo "release $(basename "${debs[0]}"): no reference kernel, no hidden shape ($looked pairs searched)"
python3 "$here/workflow_test.py" "$build" "$source" "${debs[0]}"
