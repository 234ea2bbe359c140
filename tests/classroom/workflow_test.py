#!/usr/bin/env python3
"""workflow_test.py BUILD_DIR SOURCE_DIR: runs the GitHub Classroom workflow of every starter
(assignments/*/starter/.github/workflows/cugrade.yml) as GitHub would, step by step, in a
scratch workspace: the checkout step copies the starter in as the submission, and every `run`
step runs under the shell GitHub uses, with the workflow's env, RUNNER_TEMP and
GITHUB_STEP_SUMMARY. Two stand-ins, both visible here: CUGRADE_REPOSITORY is a local git
repository holding the source tree's scripts (cloned for real), and CUGRADE_BUILD_DIR points
scripts/student-distribution at this build instead of compiling cugrade again (minutes); `sudo`
is a pass-through. The check step must print the summary in the log and the step summary, fail
on a starter and pass on the reference solution handed in as the submission."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

build_dir, source = (os.path.realpath(p) for p in sys.argv[1:3])
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what)


def local_cugrade_repository(scratch):
    repo = os.path.join(scratch, "cugrade.git-source")
    shutil.copytree(os.path.join(source, "scripts"), os.path.join(repo, "scripts"))
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@localhost"]
    subprocess.run(git + ["init", "-q", "-b", "main", repo], check=True)
    subprocess.run(git + ["-C", repo, "add", "-A"], check=True)
    subprocess.run(git + ["-C", repo, "commit", "-q", "-m", "scripts"], check=True)
    return "file://" + repo


def pass_through_sudo(scratch):
    stubs = os.path.join(scratch, "stubs")
    os.makedirs(stubs)
    with open(os.path.join(stubs, "sudo"), "w") as f:
        f.write('#!/bin/sh\nexec "$@"\n')
    os.chmod(os.path.join(stubs, "sudo"), 0o755)
    return stubs


def shell_command(step, script):
    # GitHub's defaults on Linux: `bash -e {0}`, and with `shell: bash` pipefail too.
    if step.get("shell") == "bash":
        return ["bash", "--noprofile", "--norc", "-eo", "pipefail", script]
    return ["bash", "-e", script]


def run_workflow(workflow, starter, replace_source, scratch, repository, stubs):
    """Runs the job's steps; returns (exit status of the last step run, its log, step summary)."""
    doc = yaml.safe_load(open(workflow))
    triggers = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
    if "push" not in (triggers if isinstance(triggers, (list, dict)) else [triggers]):
        fail(workflow + ": does not run on push")
    (job,) = doc["jobs"].values()
    workspace = tempfile.mkdtemp(dir=scratch, prefix="workspace-")
    runner_temp = tempfile.mkdtemp(dir=scratch, prefix="runner-temp-")
    summary = os.path.join(scratch, os.path.basename(workspace) + ".summary.md")
    env = dict(os.environ)
    env.update({k: str(v) for k, v in doc.get("env", {}).items()})
    env.update({"CUGRADE_REPOSITORY": repository, "RUNNER_TEMP": runner_temp,
                "GITHUB_STEP_SUMMARY": summary, "GITHUB_WORKSPACE": workspace,
                "CUGRADE_BUILD_DIR": build_dir, "PATH": stubs + ":" + os.environ["PATH"]})
    status, log = 0, ""
    for i, step in enumerate(job["steps"]):
        if step.get("uses", "").startswith("actions/checkout"):
            target = os.path.join(workspace, step.get("with", {}).get("path", "."))
            shutil.copytree(starter, target, dirs_exist_ok=True)
            for name, path in replace_source.items():
                shutil.copy(path, os.path.join(target, name))
            continue
        if "run" not in step:
            fail(workflow + ": step %d neither checks out nor runs" % i)
            continue
        script = os.path.join(scratch, "step-%d.sh" % i)
        with open(script, "w") as f:
            f.write(step["run"])
        step_env = dict(env)
        step_env.update({k: str(v) for k, v in step.get("env", {}).items()})
        ran = subprocess.run(shell_command(step, script), cwd=workspace, env=step_env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        status, log = ran.returncode, ran.stdout
        print("  step %r exited %d" % (step.get("name", i), status))
        if status != 0:
            break
    text = open(summary).read() if os.path.exists(summary) else ""
    return status, log, text


def expect_check(assignment, status, log, summary, passing):
    # The spec's last kernel: the summary names every kernel the check graded.
    with open(os.path.join(source, "assignments", assignment, "assignment.json")) as spec:
        last_kernel = json.load(spec)["kernels"][-1]["name"]
    if status != (0 if passing else 1):
        fail("%s: the check step exited %d for %s\n%s" % (
            assignment, status, "a correct submission" if passing else "the starter", log))
    for needed in (last_kernel, "score:", "backend: emu"):
        if needed not in log:
            fail("%s: the job log lacks %r:\n%s" % (assignment, needed, log))
        if needed not in summary:
            fail("%s: the step summary lacks %r" % (assignment, needed))
    if "hidden" in log:
        fail("%s: the student's check shows hidden tests:\n%s" % (assignment, log))


def main():
    scratch = tempfile.mkdtemp(prefix="cugrade-classroom-")
    try:
        repository = local_cugrade_repository(scratch)
        stubs = pass_through_sudo(scratch)
        # Every assignment with a starter (no hand-typed list: a new assignment is covered).
        assignments = sorted(name for name in os.listdir(os.path.join(source, "assignments"))
                             if os.path.isdir(os.path.join(source, "assignments", name, "starter")))
        for assignment in assignments:
            starter = os.path.join(source, "assignments", assignment, "starter")
            workflow = os.path.join(starter, ".github", "workflows", "cugrade.yml")
            if not os.path.exists(workflow):
                fail(assignment + ": the starter has no .github/workflows/cugrade.yml")
                continue
            print(assignment + ": the starter as submitted")
            expect_check(assignment, *run_workflow(workflow, starter, {}, scratch, repository,
                                                   stubs), passing=False)
            if assignment == "reduction":
                print(assignment + ": the reference solution as submitted")
                solution = {"reduction.cu": os.path.join(source, "reference", "reduction.cu")}
                expect_check(assignment, *run_workflow(workflow, starter, solution, scratch,
                                                       repository, stubs), passing=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        sys.exit("%d failure(s)" % len(failures))
    print("every starter's workflow builds the student distribution and checks in emulation")


main()
