#!/usr/bin/env python3
"""workflow_test.py BUILD_DIR SOURCE_DIR RELEASE_DEB: runs the GitHub Classroom workflow of every
starter (assignments/*/starter/.github/workflows/cugrade.yml) as GitHub would, step by step, in
scratch workspaces, pushes one after another sharing one Actions cache.

What the simulator does for each part of the workflow:
- `container: debian:12`: this machine must be Debian 12 itself; steps run on it, as root, with
  the job's `apt-get` a stand-in (below) so nothing is installed into the machine.
- `uses: actions/checkout`: copies the starter (or a solution over it) into the workspace.
- `uses: actions/cache/restore` and `actions/cache/save`: a folder of the test's, keyed by the
  evaluated `key`, outlives the runs: restore copies it into `path` and sets the output
  `cache-hit`; save stores `path` under the key unless the key exists (GitHub never overwrites).
- `if:` and `${{ }}`: `env.X`, `steps.ID.outputs.NAME`, compared with `==` or `!=` to a quoted
  string; any other expression, action or step kind fails the test (the simulator must learn it).
- `run`: under GitHub's shell (`bash -e`; `shell: bash` adds pipefail) with the workflow's env,
  RUNNER_TEMP, GITHUB_WORKSPACE and GITHUB_STEP_SUMMARY, in the workspace.
- Stand-ins, first on PATH: `curl` logs every download, then runs the real curl (the release is
  a file:// URL to RELEASE_DEB, the student .deb the test built with cpack); `apt-get` logs its
  arguments, checks that named packages and the .deb's dependencies are installed here (what
  apt-get would resolve in the container), and "installs" a .deb with dpkg -x into the job's own
  root, whose usr/bin is on the job's PATH.

Each starter's check must fail and the reference reduction handed in must pass, with the summary
in the log and the step summary and no hidden test in sight. Only the first push may download:
the release file is removed after it, so a later download fails. A release whose SHA-256 differs
from the pinned one is refused before it is cached, and a cached file that changed is refused
before it is installed."""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

build_dir, source, release_deb = (os.path.realpath(p) for p in sys.argv[1:4])
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what)


class UnsupportedWorkflow(Exception):
    """The workflow uses something this simulator cannot run faithfully."""


def write_executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


CURL = """#!/bin/sh
echo "curl $*" >>"$CUGRADE_TEST_LOG"
exec {real} "$@"
"""

# apt-get as the job's container would run it, without installing into this machine.
APT_GET = """#!/usr/bin/env python3
import os, subprocess, sys
args = sys.argv[1:]
with open(os.environ["CUGRADE_TEST_LOG"], "a") as log:
    log.write("apt-get " + " ".join(args) + "\\n")
words, i = [], 0
while i < len(args):
    if args[i] == "-o":
        i += 2
        continue
    if not args[i].startswith("-"):
        words.append(args[i])
    i += 1
if not words or words[0] not in ("update", "install"):
    sys.exit("apt-get stand-in: only update and install are simulated, not %r" % words)
def installed(name):
    q = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True)
    return "install ok installed" in q.stdout
for word in words[1:]:
    if "/" not in word:
        if not installed(word):
            sys.exit("E: %s is not installed on the test machine (the stand-in installs nothing)" % word)
        continue
    depends = subprocess.run(["dpkg-deb", "-f", word, "Depends"], capture_output=True, text=True,
                             check=True).stdout
    for group in filter(None, (g.strip() for g in depends.split(","))):
        names = [alt.split("(")[0].strip() for alt in group.split("|")]
        if not any(installed(n) for n in names):
            sys.exit("E: %s depends on %s, which Debian 12 here does not have" % (word, group))
    if "--download-only" not in args:
        subprocess.run(["dpkg", "-x", word, os.environ["CUGRADE_JOB_ROOT"]], check=True)
"""


def expression_value(text, context):
    """The value of `env.X` or `steps.ID.outputs.NAME`."""
    parts = text.strip().split(".")
    if len(parts) == 2 and parts[0] == "env":
        return context["env"].get(parts[1], "")
    if len(parts) == 4 and parts[0] == "steps" and parts[2] == "outputs":
        return context["steps"].get(parts[1], {}).get(parts[3], "")
    raise UnsupportedWorkflow("expression %r" % text)


def condition_holds(text, context):
    match = re.fullmatch(r"\s*(\S+)\s*(==|!=)\s*'([^']*)'\s*", text)
    if not match:
        raise UnsupportedWorkflow("condition %r" % text)
    value = expression_value(match.group(1), context)
    return (value == match.group(3)) == (match.group(2) == "==")


def substituted(text, context):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: expression_value(m.group(1), context), str(text))


def host_is_debian_12():
    with open("/etc/os-release") as f:
        fields = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    return fields.get("ID") == "debian" and fields.get("VERSION_ID", "").strip('"') == "12"


def shell_command(step, script):
    # GitHub's defaults on Linux: `bash -e {0}`, and with `shell: bash` pipefail too.
    if step.get("shell") == "bash":
        return ["bash", "--noprofile", "--norc", "-eo", "pipefail", script]
    return ["bash", "-e", script]


class Runner:
    """One simulated repository's pushes, sharing an Actions cache."""

    def __init__(self, scratch, overrides):
        self.scratch = scratch
        self.overrides = overrides  # the release URL and SHA-256 the test pins
        self.cache = tempfile.mkdtemp(dir=scratch, prefix="actions-cache-")
        self.stubs = os.path.join(scratch, "stubs")
        if not os.path.isdir(self.stubs):
            os.makedirs(self.stubs)
            write_executable(os.path.join(self.stubs, "curl"),
                             CURL.format(real=shutil.which("curl")))
            write_executable(os.path.join(self.stubs, "apt-get"), APT_GET)

    def cache_entry(self, key):
        return os.path.join(self.cache, re.sub(r"[^A-Za-z0-9._-]", "_", key))

    def uses(self, step, action, context, workspace, starter, replace_source):
        inputs = {k: substituted(v, context) for k, v in step.get("with", {}).items()}
        outputs = {}
        if action.startswith("actions/checkout@"):
            target = os.path.join(workspace, inputs.get("path", "."))
            shutil.copytree(starter, target, dirs_exist_ok=True)
            for name, path in replace_source.items():
                shutil.copy(path, os.path.join(target, name))
        elif action.startswith("actions/cache/restore@"):
            entry = self.cache_entry(inputs["key"])
            hit = os.path.isdir(entry)
            if hit:
                shutil.copytree(entry, os.path.join(workspace, inputs["path"]), dirs_exist_ok=True)
            outputs["cache-hit"] = "true" if hit else "false"
        elif action.startswith("actions/cache/save@"):
            entry = self.cache_entry(inputs["key"])
            if not os.path.isdir(entry):
                shutil.copytree(os.path.join(workspace, inputs["path"]), entry)
        else:
            raise UnsupportedWorkflow("action " + action)
        return outputs

    def push(self, workflow, starter, replace_source={}):
        """Runs the job's steps; returns (exit status of the last step run, its log, the step
        summary, the names of the steps run)."""
        doc = yaml.safe_load(open(workflow))
        triggers = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
        if "push" not in (triggers if isinstance(triggers, (list, dict)) else [triggers]):
            fail(workflow + ": does not run on push")
        (job,) = doc["jobs"].values()
        image = job.get("container")
        image = image.get("image") if isinstance(image, dict) else image
        if image != "debian:12":
            raise UnsupportedWorkflow("container %r (the simulator runs debian:12 jobs only)" % image)
        workspace = tempfile.mkdtemp(dir=self.scratch, prefix="workspace-")
        job_root = tempfile.mkdtemp(dir=self.scratch, prefix="container-root-")
        summary = os.path.join(self.scratch, os.path.basename(workspace) + ".summary.md")
        env = {k: str(v) for k, v in doc.get("env", {}).items()}
        env.update(self.overrides)
        context = {"env": env, "steps": {}}
        process_env = dict(os.environ)
        process_env.update(env)
        process_env.update({
            "RUNNER_TEMP": tempfile.mkdtemp(dir=self.scratch, prefix="runner-temp-"),
            "GITHUB_STEP_SUMMARY": summary, "GITHUB_WORKSPACE": workspace,
            "CUGRADE_JOB_ROOT": job_root, "CUGRADE_TEST_LOG": self.log,
            "PATH": ":".join([self.stubs, os.path.join(job_root, "usr", "bin"),
                              os.environ["PATH"]])})
        status, log, ran = 0, "", []
        for i, step in enumerate(job["steps"]):
            name = step.get("name", str(i))
            if "if" in step and not condition_holds(step["if"], context):
                continue
            ran.append(name)
            if "uses" in step:
                outputs = self.uses(step, step["uses"], context, workspace, starter,
                                    replace_source)
                if "id" in step:
                    context["steps"][step["id"]] = outputs
                continue
            if "run" not in step:
                raise UnsupportedWorkflow("step %r neither uses an action nor runs" % name)
            script = os.path.join(self.scratch, "step-%d.sh" % i)
            with open(script, "w") as f:
                f.write(step["run"])
            step_env = dict(process_env)
            step_env.update({k: substituted(v, context) for k, v in step.get("env", {}).items()})
            done = subprocess.run(shell_command(step, script), cwd=workspace, env=step_env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            status, log = done.returncode, done.stdout
            print("  step %r exited %d" % (name, status))
            if status != 0:
                break
        text = open(summary).read() if os.path.exists(summary) else ""
        return status, log, text, ran

    @property
    def log(self):
        return os.path.join(self.scratch, "commands.log")

    def downloads(self):
        if not os.path.exists(self.log):
            return []
        return [line for line in open(self.log) if line.startswith("curl ")]


def expect_check(assignment, status, log, summary, ran, passing):
    # The spec's last kernel: the summary names every kernel the check graded.
    with open(os.path.join(source, "assignments", assignment, "assignment.json")) as spec:
        last_kernel = json.load(spec)["kernels"][-1]["name"]
    if status != (0 if passing else 1):
        fail("%s: the check step exited %d for %s (steps run: %s)\n%s" % (
            assignment, status, "a correct submission" if passing else "the starter", ran, log))
    for needed in (last_kernel, "score:", "backend: emu"):
        if needed not in log:
            fail("%s: the job log lacks %r:\n%s" % (assignment, needed, log))
        if needed not in summary:
            fail("%s: the step summary lacks %r" % (assignment, needed))
    if "hidden" in log:
        fail("%s: the student's check shows hidden tests:\n%s" % (assignment, log))


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_pins(workflow):
    """The workflow pins a URL and a SHA-256 and keys its cache on the SHA-256."""
    doc = yaml.safe_load(open(workflow))
    env = doc.get("env", {})
    if not re.fullmatch(r"https://\S+\.deb", str(env.get("CUGRADE_DEB_URL", ""))):
        fail(workflow + ": env.CUGRADE_DEB_URL is not the https URL of a .deb")
    sha = env.get("CUGRADE_DEB_SHA256")
    if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
        fail(workflow + ": env.CUGRADE_DEB_SHA256 is not a SHA-256 in hex, as a quoted string "
                        "(YAML reads an unquoted all-digit hash as a number): %r" % (sha,))
    keys = [s["with"]["key"] for s in doc["jobs"]["check"]["steps"]
            if s.get("uses", "").startswith("actions/cache")]
    if len(keys) != 2 or any("env.CUGRADE_DEB_SHA256" not in k for k in keys):
        fail(workflow + ": the cache is not restored and saved under a key holding the SHA-256")


def workflows():
    # Every assignment with a starter (no hand-typed list: a new assignment is covered).
    for name in sorted(os.listdir(os.path.join(source, "assignments"))):
        starter = os.path.join(source, "assignments", name, "starter")
        if os.path.isdir(starter):
            yield name, starter, os.path.join(starter, ".github", "workflows", "cugrade.yml")


def pushes_share_one_download(scratch, release):
    runner = Runner(scratch, {"CUGRADE_DEB_URL": "file://" + release,
                              "CUGRADE_DEB_SHA256": sha256(release)})
    first = True
    for assignment, starter, workflow in workflows():
        if not os.path.exists(workflow):
            fail(assignment + ": the starter has no .github/workflows/cugrade.yml")
            continue
        check_pins(workflow)
        print(assignment + ": the starter pushed" + (" (first push: downloads)" if first else ""))
        *outcome, ran = runner.push(workflow, starter)
        expect_check(assignment, *outcome, ran, passing=False)
        if first:
            if len(runner.downloads()) != 1:
                fail("the first push downloaded %d times, not once" % len(runner.downloads()))
            os.remove(release)  # from now on a download would fail
            first = False
        elif any(name.startswith("Download") for name in ran):
            fail(assignment + ": a later push ran the download step: " + ", ".join(ran))
        if assignment == "reduction":
            print(assignment + ": the reference solution pushed")
            solution = {"reduction.cu": os.path.join(source, "reference", "reduction.cu")}
            *outcome, ran = runner.push(workflow, starter, solution)
            expect_check(assignment, *outcome, ran, passing=True)
    if len(runner.downloads()) != 1:
        fail("%d downloads in all, not 1:\n%s" % (len(runner.downloads()),
                                                   "".join(runner.downloads())))
    print("the first push downloaded the release; every later push installed it from the cache")


def wrong_sha_is_refused(scratch, release):
    _, starter, workflow = next(workflows())
    runner = Runner(scratch, {"CUGRADE_DEB_URL": "file://" + release,
                              "CUGRADE_DEB_SHA256": "0" * 64})
    status, log, _, ran = runner.push(workflow, starter)
    if status == 0 or "FAILED" not in log or not ran[-1].startswith("Download"):
        fail("a release with another SHA-256 was not refused at the download step: steps %s\n%s"
             % (ran, log))
    if os.listdir(runner.cache):
        fail("a release with another SHA-256 was cached")
    # A cached release that changed after it was saved is refused before it is installed.
    runner = Runner(scratch, {"CUGRADE_DEB_URL": "file://" + release,
                              "CUGRADE_DEB_SHA256": sha256(release)})
    runner.push(workflow, starter)
    cached = glob.glob(os.path.join(runner.cache, "*", "cugrade.deb"))
    if len(cached) != 1:
        fail("a push saved %d cugrade.deb in the cache, not 1" % len(cached))
        return
    with open(cached[0], "ab") as f:
        f.write(b"tampered")
    status, log, _, ran = runner.push(workflow, starter)
    if status == 0 or "FAILED" not in log or not ran[-1].startswith("Install"):
        fail("a changed cached release was not refused at the install step: steps %s\n%s"
             % (ran, log))
    print("a release or a cached file whose SHA-256 differs from the pin is refused")


def main():
    if not host_is_debian_12():
        sys.exit("the workflows run in a debian:12 container, and the simulator runs their steps "
                 "on this machine, which is not Debian 12")
    scratch = tempfile.mkdtemp(prefix="cugrade-classroom-")
    try:
        release = os.path.join(scratch, "release", os.path.basename(release_deb))
        os.makedirs(os.path.dirname(release))
        shutil.copy(release_deb, release)
        pins = os.path.join(scratch, "pins")
        os.makedirs(pins)
        wrong_sha_is_refused(pins, release)
        pushes_share_one_download(scratch, release)
    except UnsupportedWorkflow as e:
        fail("the workflow uses %s, which this simulator does not run" % e)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        sys.exit("%d failure(s)" % len(failures))
    print("every starter's workflow installs the pinned release, cached after the first push, "
          "and checks in emulation")


main()
