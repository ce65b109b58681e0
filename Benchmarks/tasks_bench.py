#!/usr/bin/env python3
"""`resumetool tasks` benchmark (issue 26).

Builds nsurlsessiond ledgers of N rows (10,000 by default) with Tests/LedgerFixtures/make_ledger.py
in /dev/shm: every row a download with Apple's real archived original and current requests and
response (about 1.3 KB, 1.8 KB and 1.7 KB), a third with an archived NSError too, each naming a
partial file (absent, so every row costs its path look-up). Then runs
`resumetool tasks --FORMAT LEDGER > /dev/null` under `/usr/bin/time -v` RUNS times (5 by
default) for each format and prints tasks/s (median, min – max) and peak RSS.
The goal: ≤ 1 s (≥ 10,000 tasks/s, archives decoded), ≤ 64 MiB.

    swift build -c release
    python3 Benchmarks/tasks_bench.py [--rows 10000] [--runs 5] [--binary .build/release/resumetool]...

--binary given twice or more compares builds: they take turns in every round.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GENERATOR = os.path.join(REPO, "Tests", "LedgerFixtures", "make_ledger.py")
LEDGER = "private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite"


def run(binary, database, fmt):
    command = ["/usr/bin/time", "-v", binary, "tasks", database] + ([f"--{fmt}"] if fmt != "text" else [])
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # Timed here: /usr/bin/time prints the wall time in hundredths only.
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"tasks failed ({result.returncode}):\n{result.stderr}")
    text = result.stderr
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
    return wall, rss, user + system


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", action="append")
    parser.add_argument("--formats", default="json,jsonl,csv,text")
    parser.add_argument("--keep", action="store_true", help="keep the ledger in /dev/shm")
    args = parser.parse_args()
    binaries = args.binary or [os.path.join(REPO, ".build", "release", "resumetool")]

    base = "/dev/shm" if os.path.isdir("/dev/shm") else "/tmp"
    root = os.path.join(base, f"tasks-bench-{os.getpid()}")
    shutil.rmtree(root, ignore_errors=True)
    subprocess.run([sys.executable, GENERATOR, root, "--version", "3", "--scenario", "bench", "--rows", str(args.rows)], check=True)
    database = os.path.join(root, LEDGER)
    size = sum(os.path.getsize(database + suffix) for suffix in ("", "-wal", "-shm") if os.path.exists(database + suffix))
    print(f"tasks benchmark: {args.rows:,} rows, ledger {size / (1 << 20):.1f} MiB (with -wal and -shm), {args.runs} runs per format")
    try:
        for fmt in args.formats.split(","):
            for binary in binaries:
                run(binary, database, fmt)  # warm the page cache
            results = {binary: [] for binary in binaries}
            for index in range(args.runs):
                for binary in (binaries if index % 2 == 0 else list(reversed(binaries))):
                    results[binary].append(run(binary, database, fmt))
            for binary in binaries:
                runs = results[binary]
                walls = [r[0] for r in runs]
                rates = [args.rows / max(w, 1e-6) for w in walls]
                name = f" ({binary})" if len(binaries) > 1 else ""
                print(f"  --{fmt}{name}: wall median {statistics.median(walls):.3f} s (min – max {min(walls):.3f} – {max(walls):.3f}), "
                      f"{statistics.median(rates):,.0f} tasks/s, CPU median {statistics.median(r[2] for r in runs):.3f} s, "
                      f"peak RSS max {max(r[1] for r in runs) / 1024:.1f} MiB, load average {os.getloadavg()[0]:.1f}")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
