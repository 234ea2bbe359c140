#!/usr/bin/env bash
# gradescope_test.sh CUGRADE SOURCE_DIR: `cugrade package gradescope` end to end, as Gradescope
# would use the zip. The zip is unpacked into a fake /autograder root (a scratch folder with the
# same layout: source/, submission/, results/, run_autograder copied to the root); run_autograder
# grades a fixture submission there (CUGRADE_AUTOGRADER_ROOT points it at the scratch root,
# CUGRADE_AUTOGRADER_BIN at the cugrade under test, since building one from the zip takes many
# minutes) and its results.json is checked against Gradescope's format. setup.sh runs with
# apt-get and cmake replaced by loggers (it must build the `grade` preset of the packed tree), and
# the packed tree is configured for real with that preset (it must be a complete project).
set -euo pipefail
cugrade=$(realpath "$1")
source=$(realpath "$2")
fixture=$source/tests/fixtures/emu_reduce_sync_in_if
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-gradescope-test.XXXXXX")
trap '[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$scratch"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# 1. The package: the hidden groups come from the instructor's file given with --hidden.
cp "$source/assignments/reduction/hidden.json" "$scratch/instructor-hidden.json"
"$cugrade" package gradescope reduction --hidden "$scratch/instructor-hidden.json" \
  --out "$scratch/autograder.zip" | tee "$scratch/package.txt"
grep -q "1 hidden group(s) from the instructor's hidden file" "$scratch/package.txt" ||
  fail "package does not say it packed the hidden file"
listing=$(unzip -Z1 "$scratch/autograder.zip")
for f in setup.sh run_autograder cugrade/CMakePresets.json cugrade/reference/reduction.cu \
  cugrade/assignments/reduction/assignment.json cugrade/assignments/reduction/hidden.json; do
  grep -qx "$f" <<<"$listing" || fail "$f is not at its place in the zip"
done
! grep -q '^cugrade/assignments/matmul/' <<<"$listing" || fail "another assignment was packed"
! grep -q '^cugrade/build/\|^cugrade/tests/' <<<"$listing" || fail "build or test folders were packed"

# 2. A fake /autograder root, laid out as Gradescope does.
root=$scratch/autograder
mkdir -p "$root/source" "$root/submission" "$root/results"
unzip -q "$scratch/autograder.zip" -d "$root/source"
cp "$root/source/run_autograder" "$root/run_autograder"
[ -x "$root/run_autograder" ] || fail "run_autograder is not executable"
cp "$fixture/reduction.cu" "$root/submission/"
(cd "$root" && CUGRADE_AUTOGRADER_ROOT=$root CUGRADE_AUTOGRADER_BIN=$cugrade ./run_autograder) \
  >"$scratch/stdout.txt" 2>&1 || { cat "$scratch/stdout.txt"; fail "run_autograder exited $?"; }
results=$root/results/results.json
[ -f "$results" ] || { cat "$scratch/stdout.txt"; fail "no results.json"; }

# 3. results.json in Gradescope's format: a score that the tests add up to, the emulation note,
# the hidden group present as a hidden test without its shapes, and the fixture's fault found.
python3 - "$results" "$root/source/cugrade/assignments/reduction/hidden.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
hidden_shapes = [s["n"] for g in json.load(open(sys.argv[2]))["groups"] for s in g["shapes"]]
def check(ok, what):
    if not ok:
        sys.exit("FAIL: " + what + "\n" + json.dumps(r, indent=2)[:4000])
check(isinstance(r.get("score"), (int, float)), "no numeric score")
check(r["output"].startswith("Graded in emulation"), "the output does not say it ran in emulation")
check(r.get("stdout_visibility") == "hidden", "stdout is not hidden from students")
tests = r["tests"]
for t in tests:
    check(t["status"] in ("passed", "failed"), "bad status in " + t["name"])
    check(t.get("visibility") in ("visible", "hidden", "after_due_date", "after_published"),
          "bad visibility in " + t["name"])
scored = sum(t.get("score", 0) for t in tests)
check(abs(scored - r["score"]) < 1e-6, "the tests add up to %s, not the score %s" % (scored, r["score"]))
hidden = [t for t in tests if t["name"].endswith("/ hidden")]
check(len(hidden) == 2 and all(t["visibility"] == "hidden" for t in hidden),
      "the hidden group is not graded as two hidden tests (one per kernel)")
convergent = [t for t in tests if t["name"].startswith("reduce_convergent") and "score" in t]
check(any(t["status"] == "failed" for t in convergent), "the fixture's broken kernel passed")
check("barrier_divergence" in r["output"], "the fixture's barrier divergence is not reported")
text = json.dumps(r)
for n in hidden_shapes:
    if n >= 100:
        check("n=%d" % n not in text and " %d " % n not in text, "hidden size %d is visible" % n)
print("results.json: score %s of %d tests, hidden group graded, emulation noted" % (r["score"], len(tests)))
PY

# 4. A cugrade that cannot run gives a results.json without a score, never a zero.
(cd "$root" && CUGRADE_AUTOGRADER_ROOT=$root CUGRADE_AUTOGRADER_BIN=/bin/false ./run_autograder) \
  >"$scratch/broken.txt" 2>&1 || fail "run_autograder failed when cugrade did"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert "score" not in r, r
assert r["tests"][0]["name"] == "grading infrastructure", r
print("a broken grader gives no score:", r["output"][:60])
' "$results"

# 5. setup.sh builds the packed tree's `grade` preset through its scripts/setup (apt-get and
# cmake are loggers here; the real build takes many minutes).
stubs=$scratch/stubs
mkdir -p "$stubs"
cat >"$stubs/cmake" <<'STUB'
#!/usr/bin/env bash
echo "cmake $*" >>"$CUGRADE_STUB_LOG"
if [ "$1" = --build ]; then
  mkdir -p build/grade/bin
  printf '#!/bin/sh\necho "cugrade (stub)"\n' >build/grade/bin/cugrade
  chmod +x build/grade/bin/cugrade
fi
STUB
printf '#!/bin/sh\necho "apt-get $*" >>"$CUGRADE_STUB_LOG"\n' >"$stubs/apt-get"
chmod +x "$stubs/cmake" "$stubs/apt-get"
CUGRADE_STUB_LOG=$scratch/stub.log CUGRADE_AUTOGRADER_ROOT=$root PATH="$stubs:$PATH" \
  bash "$root/source/setup.sh" >"$scratch/setup.txt" 2>&1 ||
  { cat "$scratch/setup.txt"; fail "setup.sh exited $?"; }
# Gradescope has no GPU: scripts/setup leaves the CUDA targets out there (an explicit OFF).
grep -qxE "cmake --preset grade( -DCUGRADE_ENABLE_CUDA=(ON|OFF))?" "$scratch/stub.log" ||
  { cat "$scratch/stub.log"; fail "setup.sh did not configure the grade preset"; }
grep -q "^cmake --build --preset grade" "$scratch/stub.log" || { cat "$scratch/stub.log"; fail "setup.sh did not build the grade preset"; }
grep -q "setup.sh: built cugrade (stub)" "$scratch/setup.txt" || { cat "$scratch/setup.txt"; fail "setup.sh did not check what it built"; }
rm -rf "$root/source/cugrade/build"

# 6. The packed tree is a complete CMake project for the grade preset.
(cd "$root/source/cugrade" && cmake --preset grade >"$scratch/configure.txt" 2>&1) ||
  { tail -30 "$scratch/configure.txt"; fail "the packed tree does not configure"; }
echo "the Gradescope package grades in a fake /autograder root; setup.sh builds the grade preset"
