#!/usr/bin/env python3
"""`ptxemu exec` without a CUDA toolkit: usage errors, a bad config key
before the program starts, the environment the program gets (library
path first, PTXEMU_* from the options), its exit status passed through,
and the message for a program that never loads the drop-in library.
Usage: test_exec_cli.py PTXEMU CUDART_DIR"""
import os
import subprocess
import sys


def run(ptxemu, *args):
    return subprocess.run([ptxemu, "exec", *args], capture_output=True, text=True, timeout=60)


def main():
    ptxemu, cudart_dir = sys.argv[1:3]
    cudart_dir = os.path.realpath(cudart_dir)
    fails = []
    os.environ["LD_LIBRARY_PATH"] = "/previous/dir"  # the library goes before it

    def expect(label, r, rc, out=(), err=()):
        bad = [f"exit {r.returncode}, expected {rc}"] if r.returncode != rc else []
        bad += [f"stdout lacks {w!r}" for w in out if w not in r.stdout]
        bad += [f"stderr lacks {w!r}" for w in err if w not in r.stderr]
        print(("ok   " if not bad else "FAIL ") + label)
        for b in bad:
            print("     " + b + f"\n     stdout: {r.stdout!r}\n     stderr: {r.stderr!r}")
        fails.extend([label] if bad else [])

    expect("no program: usage", run(ptxemu), 2, err=["usage: ptxemu exec"])
    expect("bad key: one message, program not run",
           run(ptxemu, "--set", "gpu.bogus=1", "--", "/bin/sh", "-c", "echo RAN"), 2,
           err=["unknown key 'bogus'"])
    expect("bad preset", run(ptxemu, "--config", "no-such-gpu", "--", "/bin/true"), 2,
           err=["no-such-gpu"])
    show = 'echo "$PTXEMU_MODE|$PTXEMU_CONFIG|$PTXEMU_SET|$PTXEMU_LOG"; echo "$LD_LIBRARY_PATH"'
    r = run(ptxemu, "--timing", "--config", "c2050", "--warp-sched", "gto", "--set",
            "gpu.num_sms=4", "--log", "info", "--", "/bin/sh", "-c", show)
    expect("environment of the program", r, 0,
           out=["timing|c2050|warp.policy=gto;gpu.num_sms=4|info",
                cudart_dir + ":/previous/dir"])
    expect("a program that never loads libcudart",
           run(ptxemu, "--", "/bin/sh", "-c", "exit 0"), 0, err=["did not load ptxemu's"])
    expect("the program's exit status",
           run(ptxemu, "-q", "--", "/bin/sh", "-c", "exit 3"), 3)
    expect("a program that does not exist", run(ptxemu, "--", "/no/such/program"), 127,
           err=["cannot run /no/such/program"])
    if fails:
        print(f"{len(fails)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
