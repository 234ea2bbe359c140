#!/usr/bin/env bash
# student_test.sh CUGRADE SOURCE_DIR: `cugrade package student` end to end. The tree it writes
# holds what a students' repository needs (the grade preset's sources, the docs, the Dockerfile,
# every spec and starter) and no reference kernel, no hidden shape, no test suite; it configures
# as a CMake project with the grade preset. The command refuses a folder that is not empty (and
# leaves it as it was), a folder inside what it copies, an assignment or --hidden, a spec's
# reference folder inside the tree is left out, and a reference solution copied anywhere else
# makes it refuse and remove what it wrote.
set -euo pipefail
cugrade=$(realpath "$1")
source=$(realpath "$2")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-student-package.XXXXXX")
trap '[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$scratch"' EXIT

source "$source/tests/install/student_checks.sh"

# 1. The tree, and what the command says it wrote.
tree=$scratch/tree
"$cugrade" package student --out "$tree" | tee "$scratch/package.txt"
# Every assignment folder of the source, in the command's order (sorted, comma-separated).
every_assignment=$(find "$source/assignments" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' |
  LC_ALL=C sort | paste -sd, - | sed 's/,/, /g')
for said in "wrote $tree: cugrade's source tree for students" "CMakeLists.txt" "Dockerfile" \
  "assignments $every_assignment" "left out: reference/" \
  "assignments/matmul/hidden.json" "cpack -G DEB"; do
  grep -qF "$said" "$scratch/package.txt" || fail "the command does not say \"$said\""
done
for f in CMakeLists.txt CMakePresets.json README.md Dockerfile .dockerignore docs/gradescope.md \
  cmake/install.cmake cmake/package.cmake harness/emu/include/cugrade_emu.h \
  grader/package/student_package.cpp; do
  [ -f "$tree/$f" ] || fail "$f is not in the students' tree"
done
for a in "$source"/assignments/*/; do
  name=$(basename "$a")
  [ -f "$tree/assignments/$name/assignment.json" ] || fail "the spec of $name is missing"
  cmp -s "$a/starter/$name.cu" "$tree/assignments/$name/starter/$name.cu" ||
    fail "the starter of $name is missing or differs"
  [ -f "$tree/assignments/$name/starter/.github/workflows/cugrade.yml" ] ||
    fail "the Classroom workflow of $name is missing"
done
[ -x "$tree/scripts/setup" ] || fail "scripts/setup lost its executable bit"
[ ! -e "$tree/tests" ] || fail "the test suites were copied"
[ ! -e "$tree/reference" ] || fail "reference/ was copied"
no_reference_kernel "$tree" "$source"
looked=$(no_hidden_shape "$tree" "$source" "$tree/assignments")
echo "no reference kernel and no hidden shape in the students' tree ($looked pairs searched)"

# 2. A complete CMake project for the grade preset (its build and .deb: student_deb_test.sh).
(cd "$tree" && cmake --preset grade -DCUGRADE_ENABLE_CUDA=OFF >"$scratch/configure.txt" 2>&1) ||
  { tail -30 "$scratch/configure.txt"; fail "the students' tree does not configure"; }
rm -rf "$tree/build"

# 3. Refusals, each a usage error (exit 2) that leaves everything as it was.
listing() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
before=$(listing "$tree")
refused() { # refused "what it must say" ARGS...
  local said=$1 status=0
  shift
  "$cugrade" package "$@" >"$scratch/refused.txt" 2>&1 || status=$?
  [ "$status" = 2 ] || { cat "$scratch/refused.txt"; fail "package $* exited $status, not 2"; }
  grep -qF "$said" "$scratch/refused.txt" || { cat "$scratch/refused.txt"; fail "package $* does not say \"$said\""; }
}
refused "is not an empty folder" student --out "$tree"
[ "$(listing "$tree")" = "$before" ] || fail "a refused package changed the existing tree"
touch "$scratch/a-file"
refused "is not an empty folder" student --out "$scratch/a-file"
refused "give only --out DIR" student matmul --out "$scratch/other"
refused "give only --out DIR" student --hidden "$source/assignments/matmul/hidden.json" --out "$scratch/other"
refused "name the assignment to pack" gradescope --out "$scratch/autograder.zip"
[ ! -e "$scratch/other" ] || fail "a refused package wrote $scratch/other"
mkdir -p "$scratch/empty"
"$cugrade" package student --out "$scratch/empty" >/dev/null || fail "an empty folder was refused"

# 4. A source tree of its own (CUGRADE_ROOT): a spec whose reference folder lies under
# assignments/ keeps it out of the tree; a reference solution copied elsewhere is refused.
own=$scratch/own-source
mkdir -p "$own"
for entry in CMakeLists.txt CMakePresets.json README.md CHANGELOG.md cmake harness reports grader \
  scripts docs assignments reference; do
  cp -r "$source/$entry" "$own/"
done
mkdir -p "$own/assignments/matmul/solution"
cp "$source/reference/matmul.cu" "$own/assignments/matmul/solution/"
sed -i 's|"reference": "reference"|"reference": "assignments/matmul/solution"|' \
  "$own/assignments/matmul/assignment.json"
grep -q '"reference": "assignments/matmul/solution"' "$own/assignments/matmul/assignment.json" ||
  fail "could not point matmul's spec at its own reference folder"
CUGRADE_ROOT=$own "$cugrade" package student --out "$scratch/own-tree" >"$scratch/own.txt" ||
  { cat "$scratch/own.txt"; fail "package student of a tree with its own reference folder"; }
grep -qF "assignments/matmul/solution/" "$scratch/own.txt" || fail "the solution folder is not named as left out"
[ ! -e "$scratch/own-tree/assignments/matmul/solution" ] || fail "the spec's reference folder was copied"
no_reference_kernel "$scratch/own-tree" "$source"
cp "$source/reference/scan.cu" "$own/docs/notes.cu"
status=0
CUGRADE_ROOT=$own "$cugrade" package student --out "$scratch/leaky-tree" >"$scratch/leaky.txt" 2>&1 || status=$?
[ "$status" = 2 ] || { cat "$scratch/leaky.txt"; fail "a tree holding a reference copy exited $status, not 2"; }
grep -qF "docs/notes.cu is a copy of a reference solution" "$scratch/leaky.txt" ||
  { cat "$scratch/leaky.txt"; fail "the refusal does not name the copy"; }
[ -z "$(ls -A "$scratch/leaky-tree")" ] || fail "the refused tree was left behind: $(ls -A "$scratch/leaky-tree")"
echo "cugrade package student writes the students' tree, and refuses what it must"
