# student_checks.sh (sourced): the checks that an installed or packed student distribution holds
# no answers, shared by student_test.sh (cmake --install --component student), the package tests
# (the students' tree and the .deb built from it) and the Classroom workflow test (its release).
# Each check exits through `fail`.

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# no_reference_kernel ROOT SOURCE: no reference/ folder under ROOT and no file under ROOT equal to
# one of SOURCE/reference/*.cu. Only files of the reference's size can equal it: those are compared
# (a cmp for every file of a whole source tree took most of this check's 20 s).
no_reference_kernel() {
  local root=$1 source=$2 ref f
  [ -z "$(find "$root" -type d -name reference)" ] || fail "$root holds a reference/ folder"
  for ref in "$source"/reference/*.cu; do
    while IFS= read -r -d '' f; do
      if cmp -s "$ref" "$f"; then fail "$f is the reference solution $(basename "$ref")"; fi
    done < <(find "$root" -type f -size "$(stat -c %s "$ref")c" -print0)
  done
}

# no_hidden_shape ROOT SOURCE ASSIGNMENTS: no hidden.json under ROOT, and no file of
# ASSIGNMENTS/<name> (the installed or packed assignments folder) holds a shape of the hidden groups
# of SOURCE/assignments/<name>/hidden.json (compared with spaces removed, so formatting cannot
# hide one). Another assignment may show the same size openly (reduction's visible n = 1000).
# Prints how many shape-file pairs it searched.
no_hidden_shape() {
  local root=$1 source=$2 assignments=$3 hidden name shapes f squeezed shape looked=0
  [ -z "$(find "$root" -name hidden.json)" ] || fail "$root holds a hidden.json"
  for hidden in "$source"/assignments/*/hidden.json; do
    name=$(basename "$(dirname "$hidden")")
    shapes=$(python3 -c '
import json, sys
for group in json.load(open(sys.argv[1]))["groups"]:
    for shape in group["shapes"]:
        print(json.dumps(shape, separators=(",", ":")))
' "$hidden")
    [ -n "$shapes" ] || fail "no hidden shapes found in $hidden to look for"
    [ -d "$assignments/$name" ] || fail "$assignments/$name is missing"
    while IFS= read -r f; do
      squeezed=$(tr -d ' \n\t' <"$f")
      while IFS= read -r shape; do
        [[ $squeezed != *"$shape"* ]] || fail "$f holds the hidden shape $shape of $name"
        looked=$((looked + 1))
      done <<<"$shapes"
    done < <(find "$assignments/$name" -type f)
  done
  [ "$looked" -gt 0 ] || fail "no assignment file was searched"
  echo "$looked"
}

# checks_like_a_student PREFIX SOURCE SCRATCH: PREFIX/bin/cugrade, run from an unrelated folder
# with a bare environment, passes the reference reduction handed in (printing its summary,
# nothing hidden) and fails the starter installed with it (exit 1).
checks_like_a_student() {
  local prefix=$1 source=$2 scratch=$3 home=$3/home status=0
  mkdir -p "$home/elsewhere" "$home/good" "$home/starter"
  cp "$source/reference/reduction.cu" "$home/good/"
  cp "$prefix/share/cugrade/assignments/reduction/starter/reduction.cu" "$home/starter/"
  (cd "$home/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$home" "$prefix/bin/cugrade" check \
    reduction "$home/good" --backend emu) >"$scratch/good.txt" 2>&1 ||
    { cat "$scratch/good.txt"; fail "check of a correct submission exited $?"; }
  grep -q "reduce_convergent" "$scratch/good.txt" || { cat "$scratch/good.txt"; fail "no summary"; }
  ! grep -qi "hidden" "$scratch/good.txt" || { cat "$scratch/good.txt"; fail "check shows hidden tests"; }
  (cd "$home/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$home" "$prefix/bin/cugrade" check \
    reduction "$home/starter" --backend emu) >"$scratch/starter.txt" 2>&1 || status=$?
  [ "$status" = 1 ] || { cat "$scratch/starter.txt"; fail "check of the starter exited $status, not 1"; }
}

# depends_cover_libraries DEB ROOT: every shared library an ELF file of the .deb (unpacked in
# ROOT) needs is shipped in it or belongs, on this machine, to a package its Depends names; the
# CUDA toolkit's libraries (not a Debian package here: the GPU backend's runners) excepted. A
# library whose package is missing would make the program fail to start in a clean Debian.
depends_cover_libraries() {
  local deb=$1 root=$2 depends lib owner multiarch
  depends=$(dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' | sed 's/(.*//; s/ //g')
  multiarch=$(gcc -print-multiarch) # this machine's libraries, not another architecture's copy
  while IFS= read -r lib; do
    [ -n "$lib" ] || continue
    [ -z "$(find "$root" -name "$lib" -print -quit)" ] || continue
    case $lib in libcuda* | libcudart* | libcublas*) continue ;; esac
    owner=$(dpkg -S "*/$multiarch/$lib" 2>/dev/null | head -n 1 | cut -d: -f1)
    [ -n "$owner" ] || fail "no package here holds $lib, which the .deb's programs need"
    grep -qx "$owner" <<<"$depends" ||
      fail "the .deb's programs need $lib, from $owner, which its Depends does not name: $(dpkg-deb -f "$deb" Depends)"
  done < <(find "$root" -type f -exec sh -c 'readelf -h "$1" >/dev/null 2>&1 && readelf -d "$1"' _ {} \; |
    sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sort -u)
}
