#!/usr/bin/env python3
"""`ptxemu exec` without a CUDA toolkit: usage errors, a bad config key
before the program starts, the environment the program gets (library
path first, PTXEMU_* from the options), its exit status passed through,
the message for a program that never loads the drop-in library (and only
for one that exited: a signal or a missing program is said as such), and
unwritable --stats / --keep-ptx paths refused before the program starts.
Usage: test_exec_cli.py PTXEMU CUDART_DIR"""
import os
import subprocess
import sys
import tempfile


def run(ptxemu, *args):
    return subprocess.run([ptxemu, "exec", *args], capture_output=True, text=True, timeout=60)


def main():
    ptxemu, cudart_dir = sys.argv[1:3]
    cudart_dir = os.path.realpath(cudart_dir)
    fails = []
    os.environ["LD_LIBRARY_PATH"] = "/previous/dir"  # the library goes before it

    def expect(label, r, rc, out=(), err=(), not_err=(), not_out=()):
        bad = [f"exit {r.returncode}, expected {rc}"] if r.returncode != rc else []
        bad += [f"stdout lacks {w!r}" for w in out if w not in r.stdout]
        bad += [f"stderr lacks {w!r}" for w in err if w not in r.stderr]
        bad += [f"stderr has {w!r}" for w in not_err if w in r.stderr]
        bad += [f"stdout has {w!r}" for w in not_out if w in r.stdout]
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
           err=["cannot run /no/such/program: no such program"], not_err=["did not load"])
    expect("a program that cannot be run", run(ptxemu, "--", "/"), 126,
           err=["cannot run /: "], not_err=["did not load"])
    expect("a program killed by a signal: its name, no static-runtime hint",
           run(ptxemu, "--", "/bin/sh", "-c", "kill -SEGV $$"), 128 + 11,
           err=["was killed by SIGSEGV (signal 11", "ended by a signal"],
           not_err=["did not load", "statically linked"])
    expect("an abort", run(ptxemu, "-q", "--", "/bin/sh", "-c", "kill -ABRT $$"), 128 + 6,
           err=["killed by SIGABRT (signal 6"], not_err=["did not load"])
    expect("a program exiting non-zero without the library still gets the hint",
           run(ptxemu, "--", "/bin/sh", "-c", "exit 4"), 4, err=["did not load ptxemu's"])
    expect("--stats in a folder that does not exist: refused before the program runs",
           run(ptxemu, "--stats", "/nonexistent/dir/s.json", "--", "/bin/sh", "-c", "echo RAN"),
           1, err=["--stats: cannot write /nonexistent/dir/s.json: No such file or directory"],
           not_out=["RAN"])
    expect("--stats under timing likewise",
           run(ptxemu, "--timing", "--stats", "/nonexistent/dir/s.json", "--", "/bin/true"), 1,
           err=["--stats: cannot write /nonexistent/dir/s.json"])
    expect("--stats that is a folder", run(ptxemu, "--stats", "/", "--", "/bin/true"), 1,
           err=["--stats: cannot write /"])
    expect("--keep-ptx that cannot be created",
           run(ptxemu, "--keep-ptx", "/proc/no-such/ptx", "--", "/bin/sh", "-c", "echo RAN"), 1,
           err=["--keep-ptx: cannot create /proc/no-such/ptx"], not_out=["RAN"])
    lost = ('printf "mode=functional\\nlaunches=1\\noutput_error=PTXEMU_STATS: cannot write '
            '/x/s.json: No space left on device\\n" > "$PTXEMU_SUMMARY"')
    expect("an output the runtime could not write fails a run that passed",
           run(ptxemu, "--", "/bin/sh", "-c", lost), 1,
           err=["1 launches", "error: PTXEMU_STATS: cannot write /x/s.json"])
    expect("... also with -q, and the program's own failure status is kept",
           run(ptxemu, "-q", "--", "/bin/sh", "-c", lost + "; exit 5"), 5,
           err=["error: PTXEMU_STATS: cannot write"], not_err=["launches"])
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([os.path.realpath(ptxemu), "exec", "--keep-ptx", "a/b", "--",
                            "/bin/sh", "-c", 'echo "$PTXEMU_KEEP_PTX"'], cwd=tmp,
                           capture_output=True, text=True, timeout=60)
        expect("--keep-ptx: the folder is made and given to the program by absolute name", r,
               0, out=[os.path.join(os.path.realpath(tmp), "a/b")])
    if fails:
        print(f"{len(fails)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
