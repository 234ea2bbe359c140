#!/usr/bin/env python3
"""dockerfile_test.py SOURCE_DIR: the Dockerfile at the root parses, and what it does holds
together without building it (that takes a container engine and a full build: docs/gradescope.md
says how it was tried).

- Every line is an instruction Docker and Podman know, continuations and comments included.
- Every stage starts FROM debian:12; a COPY --from names an earlier stage; a COPY from the build
  context names files that exist and that .dockerignore does not leave out.
- .dockerignore leaves out reference/, every hidden.json and tests/, so the image is the student
  distribution whatever tree it is built from.
- The scripts the RUN lines call exist and are executable; the build stage packs a .deb where
  the last stage takes it from.
- The last stage works in /work and its entrypoint (exec form) runs `cugrade check` on /work in
  emulation; every starter README shows the build and run commands with that mount point and the
  image's tag."""
import fnmatch
import glob
import json
import os
import re
import shlex
import sys

source = os.path.realpath(sys.argv[1])
failures = []

KNOWN = {"FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME",
         "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"}


def fail(what):
    failures.append(what)
    print("FAIL: " + what)


def instructions(path):
    """(line number, INSTRUCTION, arguments) with continuations joined and comments dropped."""
    out, pending, start = [], "", 0
    for number, line in enumerate(open(path), 1):
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        text = pending + stripped
        pending = ""
        word, _, args = text.partition(" ")
        out.append((start, word.upper(), args.strip()))
        if word.upper() not in KNOWN:
            fail("Dockerfile:%d: %r is not a Dockerfile instruction" % (start, word))
    if pending:
        fail("Dockerfile: the last instruction ends in a continuation")
    return out


def ignore_patterns():
    path = os.path.join(source, ".dockerignore")
    if not os.path.exists(path):
        fail(".dockerignore is missing")
        return []
    return [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]


def ignored(relative, patterns):
    parts = relative.split("/")
    for p in patterns:
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            if fnmatch.fnmatch(prefix, p) or (p.startswith("**/") and fnmatch.fnmatch(parts[i - 1], p[3:])):
                return True
    return False


def stages_of(lines):
    stages = []
    for number, word, args in lines:
        if word == "FROM":
            image, _, name = args.partition(" AS ") if " AS " in args else args.partition(" as ")
            stages.append({"image": image.strip(), "name": name.strip(), "lines": [], "at": number})
        elif not stages:
            fail("Dockerfile:%d: %s before the first FROM" % (number, word))
        else:
            stages[-1]["lines"].append((number, word, args))
    return stages


def check_copies(stages, patterns):
    for i, stage in enumerate(stages):
        for number, word, args in stage["lines"]:
            if word != "COPY":
                continue
            words = shlex.split(args)
            flags = [w for w in words if w.startswith("--")]
            paths = [w for w in words if not w.startswith("--")]
            sources = paths[:-1]
            origin = [f.split("=", 1)[1] for f in flags if f.startswith("--from=")]
            if origin:
                if origin[0] not in [s["name"] for s in stages[:i]]:
                    fail("Dockerfile:%d: COPY --from=%s names no earlier stage" % (number, origin[0]))
                continue
            for src in sources:
                matches = glob.glob(os.path.join(source, src))
                if not matches:
                    fail("Dockerfile:%d: COPY %s: no such file in the build context" % (number, src))
                for m in matches:
                    rel = os.path.relpath(m, source)
                    if rel != "." and ignored(rel, patterns):
                        fail("Dockerfile:%d: COPY %s is left out by .dockerignore" % (number, src))


def check_scripts(stages):
    for stage in stages:
        for number, word, args in stage["lines"]:
            if word != "RUN":
                continue
            for script in re.findall(r"(?:^|[\s;&|])\./(scripts/[\w.-]+)", args):
                path = os.path.join(source, script)
                if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                    fail("Dockerfile:%d: RUN calls ./%s, which is not an executable file" % (number, script))


def check_deb_handover(stages):
    build_runs = " ".join(a for s in stages[:-1] for _, w, a in s["lines"] if w == "RUN")
    if "cpack -G DEB" not in build_runs:
        fail("no build stage packs the .deb with cpack -G DEB")
    last = stages[-1]
    copies = [a for _, w, a in last["lines"] if w == "COPY" and "--from=" in a]
    runs = " ".join(a for _, w, a in last["lines"] if w == "RUN")
    if not copies:
        fail("the last stage copies nothing from the build stage")
        return
    *_, origin, target = shlex.split(copies[0])
    origin, target = origin.rstrip("/"), target.rstrip("/")
    if not re.search(r"apt-get[^&]* install [^&]*" + re.escape(target) + r"/cugrade_\*\.deb", runs):
        fail("the last stage does not apt-get install the .deb it copied to " + target)
    if not re.search(r"(cugrade_\*\.deb|-B) " + re.escape(origin) + r"/?(\s|$)", build_runs):
        fail("the build stage does not leave the .deb in " + origin + ", where the last stage takes it")


def check_entrypoint(last):
    words = {w: a for _, w, a in last["lines"]}
    workdir = words.get("WORKDIR", "")
    if workdir != "/work":
        fail("the last stage works in %r, not /work (the folder students mount)" % workdir)
    try:
        entry = json.loads(words.get("ENTRYPOINT", ""))
    except ValueError:
        fail("the ENTRYPOINT is not in exec (JSON) form")
        return
    text = " ".join(entry)
    for needed in ("cugrade check", "/work", "--backend emu", "--no-sandbox"):
        if needed not in text:
            fail("the ENTRYPOINT %r does not hold %r" % (text, needed))


def check_readmes():
    for readme in sorted(glob.glob(os.path.join(source, "assignments", "*", "starter", "README.md"))):
        name = os.path.basename(os.path.dirname(os.path.dirname(readme)))
        text = open(readme).read()
        for needed in ("podman build -t cugrade .", "docker build -t cugrade .",
                       'podman run --rm -v "$PWD":/work cugrade ' + name, "cpack -G DEB",
                       "sudo apt-get install ./cugrade_"):
            if needed not in text:
                fail("%s does not show %r" % (os.path.relpath(readme, source), needed))


def main():
    dockerfile = os.path.join(source, "Dockerfile")
    if not os.path.exists(dockerfile):
        sys.exit("FAIL: no Dockerfile at the root of " + source)
    patterns = ignore_patterns()
    for needed in ("reference", "**/hidden.json", "tests"):
        if needed not in patterns:
            fail(".dockerignore does not leave out " + needed)
    for left_out in ("reference/matmul.cu", "assignments/matmul/hidden.json", "tests/CMakeLists.txt"):
        if not ignored(left_out, patterns):
            fail(".dockerignore lets %s into the build context" % left_out)
    stages = stages_of(instructions(dockerfile))
    if len(stages) < 2:
        fail("the Dockerfile has %d stage(s); it builds the .deb in one and installs it in another"
             % len(stages))
        return
    for stage in stages:
        if stage["image"] != "debian:12":
            fail("Dockerfile:%d: FROM %s, not debian:12" % (stage["at"], stage["image"]))
    check_copies(stages, patterns)
    check_scripts(stages)
    check_deb_handover(stages)
    check_entrypoint(stages[-1])
    check_readmes()


main()
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("the Dockerfile parses, its steps name files that exist, and the README runs it as built")
