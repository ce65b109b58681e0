#!/usr/bin/env python3
"""`resumetool scan` benchmark (issue 16).

Builds a tree of N files (100,000 by default) in /dev/shm, laid out like a phone's app containers:
mostly noise (random bytes, text, JPEG-like and SQLite-like headers, SVG/HTML that start like XML)
of varied sizes from 1 B to 1 MiB, plus property lists without blobs, resume blobs under hashed
names (all four containers, from Samples/), blobs embedded in NSUserDefaults plists, and
CFNetworkDownload_*.tmp partial files. Then runs `resumetool scan --json TREE > /dev/null` under
`/usr/bin/time -v` RUNS times (5 by default) and prints files/s (median, min – max), peak RSS and
CPU% (above 100 % means more than one core was busy).

    swift build -c release
    python3 Benchmarks/scan_bench.py [--files 100000] [--runs 5] [--binary .build/release/resumetool]...

--binary given twice or more compares builds (before and after a change): they take turns in
every round, the first going first in odd rounds and last in even ones.
"""

import argparse
import os
import plistlib
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def log(text):
    print(text, file=sys.stderr, flush=True)


def build_tree(root, files, seed=16):
    rng = random.Random(seed)
    samples = os.path.join(REPO, "Samples")
    blobs = [open(os.path.join(samples, name), "rb").read() for name in (
        "ios12-keyed-archive.resumedata", "ios9-xml.plist", "binary-dictionary.bplist",
        "webkit-keyed-archive.plist", "ios8-local-path.plist", "newer-obscured-format.resumedata")]
    noise_heads = [b"\xff\xd8\xff\xe0\x00\x10JFIF", b"SQLite format 3\x00", b"PK\x03\x04", b"\x89PNG\r\n\x1a\n",
                   b"<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\">", b"<!DOCTYPE html><html>",
                   b"{\"key\": \"value\"}", b"Lorem ipsum dolor sit amet, "]
    random_block = rng.randbytes(4 << 20)
    counts = {"noise": 0, "plist": 0, "blob": 0, "embedded": 0, "partial": 0}
    shutil.rmtree(root, ignore_errors=True)
    containers_root = os.path.join(root, "private/var/mobile/Containers/Data/Application")
    made = 0
    container_count = max(1, files // 500)
    for c in range(container_count):
        container = os.path.join(containers_root, str(uuid.UUID(int=rng.getrandbits(128))).upper())
        folders = [os.path.join(container, sub) for sub in (
            "Documents", "Documents/media", "Documents/media/thumbs", "Library/Caches", "Library/Caches/com.example.images",
            "Library/Caches/com.example.dl", "Library/Preferences", "Library/Application Support/db", "tmp")]
        for folder in folders:
            os.makedirs(folder, exist_ok=True)
        share = files // container_count + (1 if c < files % container_count else 0)
        for i in range(share):
            r = rng.random()
            if r < 0.004:
                path = os.path.join(container, "Library/Caches/com.example.dl", "%032x" % rng.getrandbits(128))
                data = rng.choice(blobs)
                counts["blob"] += 1
            elif r < 0.006:
                path = os.path.join(container, "Library/Preferences", "com.example.app%d.plist" % i)
                data = plistlib.dumps({"pending": [{"title": "t", "resumeData": rng.choice(blobs[:5])}], "volume": 0.5},
                                      fmt=plistlib.FMT_BINARY)
                counts["embedded"] += 1
            elif r < 0.010:
                path = os.path.join(container, "tmp", "CFNetworkDownload_%06x.tmp" % rng.getrandbits(24))
                data = random_block[:rng.randrange(1, 1 << 20)]
                counts["partial"] += 1
            elif r < 0.040:
                path = os.path.join(rng.choice(folders), "settings%d.plist" % i)
                value = {"key%d" % k: ("v" * rng.randrange(1, 40)) for k in range(rng.randrange(1, 30))}
                data = plistlib.dumps(value, fmt=rng.choice([plistlib.FMT_BINARY, plistlib.FMT_XML]))
                counts["plist"] += 1
            else:
                path = os.path.join(rng.choice(folders), "%08x%s" % (rng.getrandbits(32), rng.choice(["", ".jpg", ".db", ".json", ".txt", ".dat"])))
                # Mostly small (1 B – 16 KiB), one in ten 16 KiB – 1 MiB; log-uniform within each.
                size = int(2 ** (rng.uniform(0, 14) if rng.random() < 0.9 else rng.uniform(14, 20)))
                head = rng.choice(noise_heads)
                start = rng.randrange(0, (4 << 20) - size + 1)
                data = (head + random_block[start:start + size])[:size]
                counts["noise"] += 1
            with open(path, "wb") as f:
                f.write(data)
            made += 1
    return made, counts


def run(binary, root):
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-v", binary, "scan", "--json", root],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise SystemExit(f"scan failed ({result.returncode}): {result.stderr[-2000:]}")
    # Timed here: /usr/bin/time prints the wall time in hundredths only (it includes its own fork).
    seconds = time.perf_counter() - start
    text = result.stderr
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    cpu = int(re.search(r"Percent of CPU this job got: (\d+)%", text).group(1))
    cpu_seconds = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1)) + \
        float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
    return seconds, rss, cpu, cpu_seconds


def report_runs(name, made, total, count, runs, load_before):
    rates = [made / r[0] for r in runs]
    print(f"scan {made:,} files ({total / 2**20:,.0f} MiB){f' with {name}' if name else ''}, {count} runs, load average before/after "
          f"{load_before:.2f}/{os.getloadavg()[0]:.2f} ({os.cpu_count()} cores):")
    print(f"  files/s: median {statistics.median(rates):,.0f}, min – max {min(rates):,.0f} – {max(rates):,.0f}")
    print(f"  wall: median {statistics.median(r[0] for r in runs):.3f} s (min – max {min(r[0] for r in runs):.3f} – {max(r[0] for r in runs):.3f})")
    print(f"  CPU time (user + system): median {statistics.median(r[3] for r in runs):.3f} s "
          f"(min – max {min(r[3] for r in runs):.3f} – {max(r[3] for r in runs):.3f}), "
          f"{made / statistics.median(r[3] for r in runs):,.0f} files per CPU second")
    print(f"  peak RSS: max {max(r[1] for r in runs) / 1024:.1f} MiB, median {statistics.median(r[1] for r in runs) / 1024:.1f} MiB")
    print(f"  CPU: median {statistics.median(r[2] for r in runs)} %, max {max(r[2] for r in runs)} % (200 % = both cores busy)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", default="/dev/shm/resumetool-scan-bench")
    parser.add_argument("--binary", action="append")
    parser.add_argument("--keep", action="store_true", help="leave the tree in place")
    args = parser.parse_args()
    binaries = args.binary or [os.path.join(REPO, ".build/release/resumetool")]

    log(f"building {args.files:,} files in {args.root} ...")
    made, counts = build_tree(args.root, args.files)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.root) for f in fs)
    log(f"  {made:,} files, {total / 2**20:,.0f} MiB: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))

    import json
    expected_blobs = counts["blob"] + counts["embedded"]
    for binary in binaries:
        check = subprocess.run([binary, "scan", "--json", args.root], capture_output=True, text=True)
        report = json.loads(check.stdout)
        log(f"  {binary}: scan found {len(report['blobs']):,} blobs (expected {expected_blobs:,}), "
            f"{len(report['orphanPartialFiles']):,} orphan partial files, {len(report['errors'])} errors")
        if len(report["blobs"]) != expected_blobs:
            raise SystemExit("the scan did not find every blob: the timing would mean nothing")

    load_before = os.getloadavg()[0]
    runs = {binary: [] for binary in binaries}
    for index in range(args.runs):
        for binary in (binaries if index % 2 == 0 else list(reversed(binaries))):
            seconds, rss, cpu, cpu_seconds = run(binary, args.root)
            runs[binary].append((seconds, rss, cpu, cpu_seconds))
            name = f" {binary}" if len(binaries) > 1 else ""
            log(f"  run {index + 1}/{args.runs}{name}: {seconds:.3f} s, {made / seconds:,.0f} files/s, peak RSS {rss / 1024:.1f} MiB, "
                f"CPU {cpu} % ({cpu_seconds:.2f} s), load average {os.getloadavg()[0]:.2f}")
    for binary in binaries:
        report_runs(binary if len(binaries) > 1 else None, made, total, args.runs, runs[binary], load_before)
    if not args.keep:
        shutil.rmtree(args.root, ignore_errors=True)


if __name__ == "__main__":
    main()
