#!/usr/bin/env python3
"""`resumetool scan` of zip and tar extractions against unpacking them (issue 25).

Builds, in /dev/shm, a full-file-system extraction of FILES files (100,000 by default: the
generator's resume files around Samples/ under filesystem1/private/var/, plus small noise files,
one in ten a property list without a blob) as .tar.gz and as .zip with
Tests/ResumetoolTests/Backups/make_extraction.py. Then, RUNS times and alternating, times
`resumetool scan --json` on each archive, `tar -xzf` of the .tar.gz and `unzip -q` of the .zip into
a fresh folder of /dev/shm (tmpfs: unpacking costs no disk, its best case), and prints the
median, the spread (min-max), the ratio of medians and the scan's peak RSS.

Goals: scan <= 1.0 x the unpacking time of the same archive; peak RSS <= 128 MiB.

    swift build -c release --product resumetool
    python3 Benchmarks/archive_bench.py [--files 100000] [--runs 5] [--binary .build/release/resumetool]...

--binary given twice or more compares builds: every round runs each build's scan and the
unpacking, in an order that turns around from one round to the next.
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
GENERATOR = os.path.join(REPO, "Tests", "ResumetoolTests", "Backups", "make_extraction.py")
# The generator's own files: the blobs, partial files, notes and the two metadata plists.
GENERATOR_FILES = 11


def timed(arguments, cwd=None):
    """Seconds, peak RSS (KiB) and CPU seconds (user + system) of one run, measured on the child
    alone (wait4)."""
    # Standard error goes to a file: a pipe read only at the end could fill and block the child.
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=errors, cwd=cwd)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = 0
        errors.seek(0)
        stderr = errors.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{arguments[0]} failed ({code}): {stderr}")
    return seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def unpack(arguments, scratch):
    """Times an unpacking into a fresh tmpfs folder; the removal is not timed."""
    target = tempfile.mkdtemp(dir=scratch)
    try:
        seconds, _, cpu = timed(arguments + [target] if arguments[0] == "unzip" else arguments, cwd=target)
        return seconds, cpu
    finally:
        shutil.rmtree(target)


def describe(values):
    return f"{statistics.median(values):.3f} s (spread {min(values):.3f}-{max(values):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", action="append")
    arguments = parser.parse_args()
    binaries = arguments.binary or [os.path.join(REPO, ".build", "release", "resumetool")]
    for tool in ("tar", "unzip"):
        if shutil.which(tool) is None:
            sys.exit(f"archive_bench.py needs {tool} (apt-get install -y {tool})")
    work = tempfile.mkdtemp(prefix="archive-bench-", dir="/dev/shm")
    try:
        subprocess.run([sys.executable, GENERATOR, work, "--no-tree", "--formats", "tar.gz,zip",
                        "--noise", str(max(0, arguments.files - GENERATOR_FILES))], check=True)
        archives = {fmt: os.path.join(work, "extraction." + fmt) for fmt in ("tar.gz", "zip")}
        scratch = os.path.join(work, "unpacked")
        os.makedirs(scratch)
        commands = {
            # GNU tar warns about libarchive's pax keyword (LIBARCHIVE.creationtime) once per member.
            "tar.gz": ["tar", "--warning=no-unknown-keyword", "-xzf", archives["tar.gz"]],
            "zip": ["unzip", "-q", archives["zip"], "-d"],
        }
        tools = [("scan", binary) for binary in binaries] + [("unpack", None)]
        times = {(fmt, tool): [] for fmt in archives for tool in tools}
        cpus = {(fmt, tool): [] for fmt in archives for tool in tools}
        peaks = {(fmt, binary): [] for fmt in archives for binary in binaries}
        # Warm the page cache and check the scan once.
        for fmt, path in archives.items():
            for binary in binaries:
                timed([binary, "scan", "--json", path])
        for run in range(arguments.runs):
            for fmt, path in archives.items():
                # Alternate which goes first, so neither always meets a warmer machine.
                for tool in (tools if run % 2 == 0 else list(reversed(tools))):
                    what, binary = tool
                    if what == "scan":
                        seconds, peak, cpu = timed([binary, "scan", "--json", path])
                        peaks[(fmt, binary)].append(peak)
                    else:
                        seconds, cpu = unpack(commands[fmt], scratch)
                    times[(fmt, tool)].append(seconds)
                    cpus[(fmt, tool)].append(cpu)
        print(f"{arguments.files:,} files, {arguments.runs} runs each, alternating; archives in /dev/shm, unpacked into /dev/shm; "
              f"load average {os.getloadavg()[0]:.1f}")
        for fmt, path in archives.items():
            unpacked = times[(fmt, ("unpack", None))]
            tool = "tar -xzf" if fmt == "tar.gz" else "unzip -q"
            print(f".{fmt} ({os.path.getsize(path) / 1048576:.1f} MiB)")
            print(f"  {tool:<23} {describe(unpacked)}, CPU {statistics.median(cpus[(fmt, ('unpack', None))]):.3f} s")
            for binary in binaries:
                scan = times[(fmt, ("scan", binary))]
                ratio = statistics.median(scan) / statistics.median(unpacked)
                cpu_ratio = statistics.median(cpus[(fmt, ("scan", binary))]) / statistics.median(cpus[(fmt, ("unpack", None))])
                peak = max(peaks[(fmt, binary)]) / 1024
                name = binary if len(binaries) > 1 else "resumetool scan --json"
                print(f"  {name:<23} {describe(scan)}, CPU {statistics.median(cpus[(fmt, ('scan', binary))]):.3f} s, peak RSS {peak:.1f} MiB")
                print(f"    ratio {ratio:.2f} x, CPU {cpu_ratio:.2f} x (goal <= 1.0: {'met' if ratio <= 1.0 else 'NOT met'}; "
                      f"issue 37: <= 0.6: {'met' if ratio <= 0.6 else 'NOT met'}); "
                      f"memory goal <= 128 MiB: {'met' if peak <= 128 else 'NOT met'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
