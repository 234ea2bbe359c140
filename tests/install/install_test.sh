#!/usr/bin/env bash
# install_test.sh prefix|deb BUILD_DIR FIXTURE: installs the build (cmake --install into a
# scratch prefix, or cpack's .deb unpacked with dpkg -x into a scratch root), then checks that
# the installed cugrade prints its version, finds its installed data (doctor) and grades FIXTURE
# in emulation, run from an unrelated directory with a bare environment (no CUGRADE_ROOT).
set -euo pipefail
mode=$1
build=$2
fixture=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-install-$mode.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

source "$(dirname "$0")/student_checks.sh" # fail, depends_cover_libraries

case $mode in
  prefix)
    prefix=$scratch/prefix
    cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" ||
      { cat "$scratch/install.log"; fail "cmake --install"; }
    ;;
  deb)
    (cd "$build" && cpack -G DEB -B "$scratch/package" >"$scratch/cpack.log") ||
      { cat "$scratch/cpack.log"; fail "cpack"; }
    version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
    deb=$scratch/package/cugrade_${version}_amd64.deb
    [ -f "$deb" ] || fail "no $deb; cpack wrote: $(ls "$scratch/package")"
    depends=$(dpkg-deb -f "$deb" Depends)
    echo "Depends: $depends"
    for needed in libgit2 libfmt libboost-context g++ binutils; do
      [[ $depends == *"$needed"* ]] || fail "the package does not depend on $needed: $depends"
    done
    dpkg -x "$deb" "$scratch/root"
    depends_cover_libraries "$deb" "$scratch/root"
    prefix=$scratch/root/usr
    ;;
  *) fail "mode must be prefix or deb" ;;
esac

for f in bin/cugrade bin/cugrade-fetch bin/cugrade-runner-emu lib/cugrade/libcugrade_emu.so \
  share/cugrade/assignments/reduction/assignment.json share/cugrade/reference/reduction.cu \
  share/cugrade/emu/include/cugrade_emu.h share/cugrade/reports/schema/report.schema.json; do
  [ -e "$prefix/$f" ] || fail "$f is not installed under $prefix"
done

# A bare environment, from a directory that holds nothing of cugrade's.
home=$scratch/home
mkdir -p "$home/elsewhere"
run() {
  (cd "$home/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$home" "$prefix/bin/cugrade" "$@")
}

run --version | tee "$scratch/version.txt"
grep -q '^cugrade [0-9]' "$scratch/version.txt" || fail "--version names no version"
grep -q '^commit ' "$scratch/version.txt" || fail "--version names no commit"
grep -q '^GPU backend: ' "$scratch/version.txt" || fail "--version does not say whether the GPU backend was built"

run doctor >"$scratch/doctor.txt" || true
grep -q "data     $prefix/share/cugrade\$" "$scratch/doctor.txt" ||
  { cat "$scratch/doctor.txt"; fail "the installed cugrade does not use its installed data"; }

# CUGRADE_ROOT may name the installed data folder too (with a trailing slash, as shells complete).
(cd "$home/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$home" \
  CUGRADE_ROOT="$prefix/share/cugrade/" "$prefix/bin/cugrade" doctor) >"$scratch/doctor-env.txt" || true
grep -q "data     $prefix/share/cugrade\$" "$scratch/doctor-env.txt" ||
  { cat "$scratch/doctor-env.txt"; fail "CUGRADE_ROOT=PREFIX/share/cugrade is not used"; }

cp -r "$fixture" "$home/submission"
run grade reduction "$home/submission" --backend emu --out "$home/reports" --student s1 \
  >"$scratch/grade.txt" 2>&1 || { cat "$scratch/grade.txt"; fail "grade exited $?"; }
report=$home/reports/s1.json
[ -f "$report" ] || { cat "$scratch/grade.txt"; ls -R "$home/reports" || true; fail "no report"; }
grep -q '"error_kind": "barrier_divergence"' "$report" ||
  { cat "$report"; fail "the fixture's barrier divergence is not in the report"; }
grep -q '"gradable": true' "$report" || { cat "$report"; fail "the report is not gradable"; }
echo "installed ($mode) cugrade graded the fixture: $(grep -c '"status": "passed"' "$report") passed entries, barrier_divergence found"
