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

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

cmake --install "$build" --component student --prefix "$prefix" >"$scratch/install.log" ||
  { cat "$scratch/install.log"; fail "cmake --install --component student"; }

for f in bin/cugrade bin/cugrade-fetch bin/cugrade-runner-emu lib/cugrade/libcugrade_emu.so \
  share/cugrade/assignments/reduction/assignment.json share/cugrade/assignments/reduction/starter/reduction.cu \
  share/cugrade/emu/include/cugrade_emu.h; do
  [ -e "$prefix/$f" ] || fail "$f is not in the student installation"
done

# No reference kernel: no reference/ folder, and no installed file equal to a reference source.
[ ! -e "$prefix/share/cugrade/reference" ] || fail "the student installation holds reference/"
installed_files=$(find "$prefix" -type f)
for ref in "$source"/reference/*.cu; do
  while IFS= read -r f; do
    if cmp -s "$ref" "$f"; then fail "$f is the reference solution $(basename "$ref")"; fi
  done <<<"$installed_files"
done

# No hidden shape: no hidden.json, and no installed file of an assignment holds a shape of its
# hidden groups (compared with spaces removed, so formatting cannot hide one). Another
# assignment may show the same size openly (reduction's visible n = 1000).
[ -z "$(find "$prefix" -name hidden.json)" ] || fail "the student installation holds hidden.json"
looked=0
for hidden in "$source"/assignments/*/hidden.json; do
  name=$(basename "$(dirname "$hidden")")
  shapes=$(python3 -c '
import json, sys
for group in json.load(open(sys.argv[1]))["groups"]:
    for shape in group["shapes"]:
        print(json.dumps(shape, separators=(",", ":")))
' "$hidden")
  [ -n "$shapes" ] || fail "no hidden shapes found in $hidden to look for"
  while IFS= read -r f; do
    squeezed=$(tr -d ' \n\t' <"$f")
    while IFS= read -r shape; do
      [[ $squeezed != *"$shape"* ]] || fail "$f holds the hidden shape $shape of $name"
      looked=$((looked + 1))
    done <<<"$shapes"
  done < <(find "$prefix/share/cugrade/assignments/$name" -type f)
done
[ "$looked" -gt 0 ] || fail "no installed assignment file was searched"
echo "no reference kernel and no hidden shape ($looked shape-file pairs searched) in the student installation"

# check works: the reference solution (handed in by a student) passes, the starter fails.
home=$scratch/home
mkdir -p "$home/elsewhere" "$home/good" "$home/starter"
cp "$source/reference/reduction.cu" "$home/good/"
cp "$prefix/share/cugrade/assignments/reduction/starter/reduction.cu" "$home/starter/"
run() {
  (cd "$home/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$home" "$prefix/bin/cugrade" "$@")
}
run check reduction "$home/good" --backend emu >"$scratch/good.txt" 2>&1 ||
  { cat "$scratch/good.txt"; fail "check of a correct submission exited $?"; }
grep -q "reduce_convergent" "$scratch/good.txt" || { cat "$scratch/good.txt"; fail "no summary"; }
grep -qi "hidden" "$scratch/good.txt" && { cat "$scratch/good.txt"; fail "check shows hidden tests"; }
status=0
run check reduction "$home/starter" --backend emu >"$scratch/starter.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$scratch/starter.txt"; fail "check of the starter exited $status, not 1"; }
echo "the student installation's check passes a correct submission and fails the starter"
