#!/usr/bin/env python3
"""`resumetool scan` of iTunes/Finder backups (issue 25).

Builds, in /dev/shm, a backup of FILES files (50,000 by default: the generator's resume files
around Samples/ plus small noise files, one in ten a property list without a blob) with
Tests/ResumetoolTests/Backups/make_backup.py, plain and encrypted (iOS's own counts: DPIC
10,000,000, ITER 10,000), and a tiny encrypted backup with the same counts to time the key
derivation alone. Runs `resumetool scan --json` on each RUNS times and prints files/s and the
goals: plain ≥ 50,000 files/s; encrypted ≤ key derivation + 1.5 × plain.

    swift build -c release --product resumetool
    python3 Benchmarks/backup_bench.py [--files 50000] [--runs 5] [--binary .build/release/resumetool]...

The three scans alternate within each round; --binary given twice or more compares builds, which
take turns in every round.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GENERATOR = os.path.join(REPO, "Tests", "ResumetoolTests", "Backups", "make_backup.py")
PASSWORD = "benchmark password"


def make(out, files, encrypted):
    arguments = [sys.executable, GENERATOR, out, "--noise", str(max(0, files - 7))]
    if encrypted:
        arguments += ["--password", PASSWORD]
    subprocess.run(arguments, check=True)


def scan(binary, root, password_file=None):
    arguments = [binary, "scan", "--json"] + (["--password-file", password_file] if password_file else []) + [root]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"scan failed ({result.returncode}): {result.stderr.decode(errors='replace')}")
    # CPU seconds too (user + system): on a shared machine the wall time says more about the neighbours.
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def spread(values, unit="s"):
    return f"{statistics.median(values):.3f} {unit} ({min(values):.3f} – {max(values):.3f})"


def report(name, files, plain_runs, derivation_runs, encrypted_runs):
    """Medians with their spread (min – max); the encrypted ratio also round by round, since every
    round ran the three scans one after the other under the same neighbours."""
    runs = len(plain_runs)
    print(f"backup scan{name}, {files:,} files, {runs} runs, medians (min – max), wall / CPU user+system, load {os.getloadavg()[0]:.1f}:")
    plain_wall = statistics.median(r[0] for r in plain_runs)
    plain_cpu = statistics.median(r[1] for r in plain_runs)
    print(f"  plain:          {spread([r[0] for r in plain_runs])} wall, {spread([r[1] for r in plain_runs])} CPU; "
          f"{files / plain_wall:,.0f} files/s   goal ≥ 50,000 files/s: {'met' if files / plain_wall >= 50_000 else 'NOT met'}")
    derivation_wall = statistics.median(r[0] for r in derivation_runs)
    derivation_cpu = statistics.median(r[1] for r in derivation_runs)
    print(f"  key derivation: {spread([r[0] for r in derivation_runs])} wall, {spread([r[1] for r in derivation_runs])} CPU "
          f"(a 7-file encrypted backup; DPIC 10,000,000 + ITER 10,000)")
    encrypted_wall = statistics.median(r[0] for r in encrypted_runs)
    encrypted_cpu = statistics.median(r[1] for r in encrypted_runs)
    rest_wall, rest_cpu = encrypted_wall - derivation_wall, encrypted_cpu - derivation_cpu
    print(f"  encrypted:      {spread([r[0] for r in encrypted_runs])} wall, {spread([r[1] for r in encrypted_runs])} CPU; without the derivation "
          f"{rest_wall:.3f} s wall = {rest_wall / plain_wall:.2f} × plain, {rest_cpu:.3f} s CPU = {rest_cpu / plain_cpu:.2f} × plain   "
          f"goal ≤ 1.5 × plain: {'met' if rest_wall <= 1.5 * plain_wall else 'NOT met'}")
    wall_ratios = [(e[0] - d[0]) / p[0] for p, d, e in zip(plain_runs, derivation_runs, encrypted_runs)]
    cpu_ratios = [(e[1] - d[1]) / p[1] for p, d, e in zip(plain_runs, derivation_runs, encrypted_runs)]
    print(f"  round by round, (encrypted − derivation) / plain: wall {spread(wall_ratios, '×')}, CPU {spread(cpu_ratios, '×')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    # Given twice or more (a build before and after a change), the binaries take turns in every
    # round, the first going first in odd rounds and last in even ones.
    parser.add_argument("--binary", action="append")
    arguments = parser.parse_args()
    binaries = arguments.binary or [os.path.join(REPO, ".build", "release", "resumetool")]
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    work = tempfile.mkdtemp(prefix="backup-bench.", dir=base)
    try:
        plain, encrypted, tiny = (os.path.join(work, name) for name in ("plain", "encrypted", "tiny"))
        print(f"building backups of {arguments.files:,} files in {work} …", file=sys.stderr)
        make(plain, arguments.files, False)
        make(encrypted, arguments.files, True)
        make(tiny, 0, True)
        password_file = os.path.join(work, "password")
        with open(password_file, "w") as handle:
            handle.write(PASSWORD + "\n")
        # One untimed run each, so every run finds the files in the page cache.
        for binary in binaries:
            scan(binary, plain)
            scan(binary, encrypted, password_file)
        runs = {binary: ([], [], []) for binary in binaries}
        # Plain, derivation and encrypted alternate within each round, so that a busy moment
        # of the shared machine falls on all three rather than on one of them.
        for round_number in range(arguments.runs):
            for binary in (binaries if round_number % 2 == 0 else list(reversed(binaries))):
                plain_runs, derivation_runs, encrypted_runs = runs[binary]
                plain_runs.append(scan(binary, plain))
                derivation_runs.append(scan(binary, tiny, password_file))
                encrypted_runs.append(scan(binary, encrypted, password_file))
        for binary in binaries:
            report(f" ({binary})" if len(binaries) > 1 else "", arguments.files, *runs[binary])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
