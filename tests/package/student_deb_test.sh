#!/usr/bin/env bash
# student_deb_test.sh CUGRADE SOURCE_DIR: the release .deb made the documented way,
# `scripts/student-distribution --deb DIR` (the students' tree from `cugrade package student`, then
# `./scripts/setup grade && cd build/grade && cpack -G DEB` in it), holds no reference kernel and
# no hidden shape, depends on Debian packages, and its cugrade, unpacked with dpkg -x, checks a
# submission in emulation: it passes the reference solution handed in and fails the starter. The
# script prints the SHA-256 the workflow pins. This builds cugrade from scratch (the GPU backend
# off, to spare nvcc's minutes; with ccache when there is one, paths taken relative to the scratch
# folder so a later run hits the cache): label slow.
set -euo pipefail
cugrade=$(realpath "$1")
source=$(realpath "$2")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-student-deb.XXXXXX")
trap '[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$scratch"' EXIT

source "$source/tests/install/student_checks.sh"

if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  export CCACHE_NOHASHDIR=true CCACHE_BASEDIR=${TMPDIR:-/tmp}
fi
CUGRADE=$cugrade CUGRADE_ENABLE_CUDA=OFF TMPDIR=$scratch \
  "$source/scripts/student-distribution" --deb "$scratch/release" >"$scratch/release.txt" 2>&1 ||
  { tail -40 "$scratch/release.txt"; fail "scripts/student-distribution --deb"; }
cat "$scratch/release.txt" | grep -v '^\[' | tail -6
debs=("$scratch"/release/cugrade_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "the release folder holds ${debs[*]}, not one .deb"
deb=${debs[0]}
grep -qx "  CUGRADE_DEB_SHA256: \"$(sha256sum "$deb" | cut -d' ' -f1)\"" "$scratch/release.txt" ||
  fail "the script does not print the .deb's SHA-256 for the workflow"
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1)) in the students' tree"

depends=$(dpkg-deb -f "$deb" Depends)
for needed in libgit2 libfmt libboost-context g++ binutils; do
  [[ $depends == *"$needed"* ]] || fail "the .deb does not depend on $needed: $depends"
done
root=$scratch/root
dpkg -x "$deb" "$root"
depends_cover_libraries "$deb" "$root"
no_reference_kernel "$root" "$source"
looked=$(no_hidden_shape "$root" "$source" "$root/usr/share/cugrade/assignments")
echo "no reference kernel and no hidden shape in the .deb ($looked pairs searched)"

checks_like_a_student "$root/usr" "$source" "$scratch"
echo "the .deb built in the students' tree checks in emulation and holds no answers"
