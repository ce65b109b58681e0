#!/usr/bin/env python3
"""`resumetool scan` of iTunes/Finder backups (issue 25).

Builds, in /dev/shm, a backup of FILES files (50,000 by default: the generator's resume files
around Samples/ plus small noise files, one in ten a property list without a blob) with
Tests/ResumetoolTests/Backups/make_backup.py, plain and encrypted (iOS's own counts: DPIC
10,000,000, ITER 10,000), and a tiny encrypted backup with the same counts to time the key
derivation alone. Runs `resumetool scan --json` on each RUNS times and prints files/s and the
goals: plain ≥ 50,000 files/s; encrypted ≤ key derivation + 1.5 × plain.

    swift build -c release --product resumetool
    python3 Benchmarks/backup_bench.py [--files 50000] [--runs 5] [--binary .build/release/resumetool]
"""

import argparse
import os
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
    start = time.perf_counter()
    result = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"scan failed ({result.returncode}): {result.stderr.decode(errors='replace')}")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "release", "resumetool"))
    arguments = parser.parse_args()
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
        scan(arguments.binary, plain)
        scan(arguments.binary, encrypted, password_file)
        plain_times = [scan(arguments.binary, plain) for _ in range(arguments.runs)]
        derivation_times = [scan(arguments.binary, tiny, password_file) for _ in range(arguments.runs)]
        encrypted_times = [scan(arguments.binary, encrypted, password_file) for _ in range(arguments.runs)]
        plain_median = statistics.median(plain_times)
        derivation = statistics.median(derivation_times)
        encrypted_median = statistics.median(encrypted_times)
        files = arguments.files
        print(f"backup scan, {files:,} files, {arguments.runs} runs (medians; min – max):")
        print(f"  plain:     {plain_median:.3f} s ({min(plain_times):.3f} – {max(plain_times):.3f}), "
              f"{files / plain_median:,.0f} files/s   goal ≥ 50,000 files/s: {'met' if files / plain_median >= 50_000 else 'NOT met'}")
        print(f"  key derivation (a 7-file encrypted backup, DPIC 10,000,000 + ITER 10,000): {derivation:.3f} s "
              f"({min(derivation_times):.3f} – {max(derivation_times):.3f})")
        rest = encrypted_median - derivation
        print(f"  encrypted: {encrypted_median:.3f} s ({min(encrypted_times):.3f} – {max(encrypted_times):.3f}); "
              f"without the derivation {rest:.3f} s = {rest / plain_median:.2f} × plain, "
              f"{files / rest:,.0f} files/s   goal ≤ 1.5 × plain: {'met' if rest <= 1.5 * plain_median else 'NOT met'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
