#!/usr/bin/env python3
"""inspect and start-up benchmarks (issue 7); run through Benchmarks/compare.sh.

inspect: N resume blobs (all four containers, made by `PlistBenchmark --generate-blobs`) through
  - `resumetool inspect --json` with all of them in ONE process,
  - Benchmarks/inspect_plistlib.py (Python's plistlib, the same fields) in one process,
  - libplist's `plistutil -f xml`, which takes one file, so ONE PROCESS PER BLOB (started by xargs),
  - and, for the comparison with plistutil on its terms, `resumetool inspect --json` one process per blob.
named files (issue 15): the first 3,000 blobs named one by one on the command line, as a shell glob
  gives them, through `resumetool inspect --json` and the Python script (goal: resumetool >= 10x);
  and all N blobs named one by one against the same folder given once (goal: <= 1.3x the folder).
start-up: one blob through `resumetool inspect` vs `plistutil -i BLOB -f xml` (and the Python script).

Wall time of each command, tools alternating within each round; medians over the rounds.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def log(text):
    print(text, file=sys.stderr, flush=True)


CPU = {}  # command name -> CPU seconds (user + system) of each run, for the commands timed with cpu_as


def timed(argv, stdin=None, cpu_as=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{argv[0]} failed ({result.returncode}): {result.stderr.decode(errors='replace')[:500]}")
    if cpu_as:
        CPU.setdefault(cpu_as, []).append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def rounds(commands, runs, label):
    """commands: name -> callable returning seconds. Alternates the order each round."""
    names = list(commands)
    times = {n: [] for n in names}
    for r in range(runs):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(commands[name]())
        if label:
            log(f"  {label} round {r + 1}/{runs}: " + ", ".join(f"{n} {times[n][-1]:.3f} s" for n in names))
    return times


def same_fields(ours, python):
    """The Python script must report what resumetool reports, or the comparison means nothing."""
    keys = ["container", "infoVersion", "downloadURL", "bytesReceived", "tempFileName", "localPath",
            "entityTag", "serverDownloadDate", "byteRange"]
    request_keys = ["url", "method", "headers", "timeoutInterval", "cachePolicy", "bodyBase64", "layout"]
    if len(ours) != len(python):
        raise SystemExit(f"resumetool reported {len(ours)} blobs, Python {len(python)}")
    for a, b in zip(ours, python):
        for key in keys:
            if a.get(key) != b.get(key):
                raise SystemExit(f"{b['name']}: {key} differs: resumetool {a.get(key)!r}, Python {b.get(key)!r}")
        for kind in ["currentRequest", "originalRequest"]:
            for key in request_keys:
                x, y = (a[kind] or {}).get(key), (b[kind] or {}).get(key)
                if x != y:
                    raise SystemExit(f"{b['name']}: {kind}.{key} differs: resumetool {x!r}, Python {y!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resumetool", required=True)
    parser.add_argument("--blobs", required=True, help="folder of generated blobs")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--startup-runs", type=int, default=41)
    parser.add_argument("--per-process-sample", type=int, default=1000,
                        help="blobs for the one-resumetool-process-per-blob row (it only shows start-up cost)")
    parser.add_argument("--named", type=int, default=3000,
                        help="blobs named one by one for the named-files comparison with Python")
    parser.add_argument("--only-named", action="store_true", help="run the named-files part only")
    parser.add_argument("--static-resumetool",
                        help="also time this build (`swift build --static-swift-stdlib`) on the named files and at start-up")
    parser.add_argument("--summary", help="append JSON lines of the medians here")
    args = parser.parse_args()

    blobs = sorted(os.path.join(args.blobs, n) for n in os.listdir(args.blobs))
    count = len(blobs)
    os.chdir(args.blobs)
    names = sorted(os.listdir("."))
    listing = "\n".join(names).encode()
    script = os.path.join(HERE, "inspect_plistlib.py")
    tool = args.resumetool

    log(f"inspect: checking that the Python script reports what resumetool reports ({count} blobs)")
    # The folder, not 10,000 arguments: resumetool reads a folder's files in name order, as the
    # Python script does, and the argument parser's time grows with the square of the arguments.
    ours = json.loads(subprocess.run([tool, "inspect", "--json", "."], check=True, capture_output=True).stdout)
    python = json.loads(subprocess.run([sys.executable, script, "."], check=True, capture_output=True).stdout)
    same_fields(ours, python)
    plistutil_check = subprocess.run(["plistutil", "-i", names[0], "-f", "xml", "-o", "-"], check=True,
                                     capture_output=True).stdout
    if not plistutil_check.startswith(b"<?xml"):
        raise SystemExit("plistutil did not write XML")

    named = names[:args.named]
    named_commands = {
        f"resumetool inspect --json NAME... ({len(named)} names)":
            lambda: timed([tool, "inspect", "--json", *named], cpu_as=f"resumetool inspect --json NAME... ({len(named)} names)"),
        f"Python plistlib NAME... ({len(named)} names)":
            lambda: timed([sys.executable, script, *named], cpu_as=f"Python plistlib NAME... ({len(named)} names)"),
        f"resumetool inspect --json NAME... ({count} names)": lambda: timed([tool, "inspect", "--json", *names]),
        f"resumetool inspect --json . ({count} blobs)": lambda: timed([tool, "inspect", "--json", "."]),
    }
    static = args.static_resumetool
    if static:
        # Last, so that report_named finds the four rows above in their order.
        named_commands[f"resumetool (static stdlib) inspect --json NAME... ({len(named)} names)"] = \
            lambda: timed([static, "inspect", "--json", *named], cpu_as=f"resumetool (static stdlib) inspect --json NAME... ({len(named)} names)")
        if json.loads(subprocess.run([static, "inspect", "--json", "."], check=True, capture_output=True).stdout) != ours:
            raise SystemExit("the static build reports differently")
    if json.loads(subprocess.run([tool, "inspect", "--json", *names], check=True, capture_output=True).stdout) != ours:
        raise SystemExit("inspect NAME... and inspect FOLDER report differently")
    log(f"named files: {len(named)} and {count} names, {args.runs} rounds")
    named_times = rounds(named_commands, args.runs, "named")
    report_named(named_times, len(named), count, args.runs, args.summary)
    if args.only_named:
        return

    sample = "\n".join(names[:args.per_process_sample]).encode()

    def xargs(argv, listing=listing):
        def run():
            start = time.perf_counter()
            subprocess.run(["xargs", "-n", "1", *argv], input=listing,
                           stdout=subprocess.DEVNULL, check=True)
            return time.perf_counter() - start
        return run

    commands = {
        "resumetool inspect --json (1 process)":
            lambda: timed([tool, "inspect", "--json", "."], cpu_as="resumetool inspect --json (1 process)"),
        "Python plistlib (1 process)": lambda: timed([sys.executable, script, "."], cpu_as="Python plistlib (1 process)"),
        "plistutil -f xml (1 process per blob)": xargs(["plistutil", "-f", "xml", "-o", "/dev/null", "-i"]),
        f"resumetool inspect --json (1 process per blob, first {min(count, args.per_process_sample)} blobs)":
            xargs([tool, "inspect", "--json"], sample),
    }
    log(f"inspect: {count} blobs, {args.runs} rounds")
    inspect_times = rounds(commands, args.runs, "inspect")
    per_process = next(n for n in inspect_times if "per blob, first" in n)
    sample_count = min(count, args.per_process_sample)

    one = names[len(names) // 2]
    startup = {
        "resumetool inspect": lambda: timed([tool, "inspect", one]),
        "plistutil -i BLOB -f xml": lambda: timed(["plistutil", "-i", one, "-f", "xml", "-o", "/dev/null"]),
        "Python plistlib script": lambda: timed([sys.executable, script, one]),
    }
    if static:
        startup["resumetool (static stdlib) inspect"] = lambda: timed([static, "inspect", one])
    log(f"start-up: one blob ({one}), {args.startup_runs} rounds")
    for name in startup:  # warm the page cache and the dynamic loader's caches
        startup[name]()
    startup_times = rounds(startup, args.startup_runs, None)

    report(inspect_times, startup_times, count, args.runs, args.startup_runs, per_process, sample_count, args.summary)


def report_named(times, named, count, runs, summary):
    med = {n: statistics.median(t) for n, t in times.items()}
    ours, python, many, folder = (med[n] for n in list(times)[:4])
    print(f"### inspect: blobs named one by one on the command line, {runs} rounds, tools alternating\n")
    print("| command | median | min – max |")
    print("| --- | ---: | ---: |")
    for name, values in times.items():
        print(f"| {name} | {med[name]:.3f} s | {min(values):.3f} – {max(values):.3f} s |")
    print_cpu(times)
    print(f"\nGoals: {named:,} named blobs ≥ 10× Python — {python / ours:.1f}× {'met' if python / ours >= 10 else '**missed**'}; "
          f"{count:,} names ≤ 1.3× the folder — {many / folder:.2f}× {'met' if many / folder <= 1.3 else '**missed**'}.\n")
    for name in list(times)[4:]:
        print(f"{name}: {python / med[name]:.1f}× Python.\n")
    if summary:
        with open(summary, "a") as f:
            for title, a, b, ratio, goal, met in [
                (f"inspect {named:,} named blobs vs Python plistlib", ours, python, python / ours, "≥ 10×", python / ours >= 10),
                (f"inspect {count:,} names vs the same folder (time ratio, lower is better)", many, folder, many / folder,
                 "≤ 1.3×", many / folder <= 1.3),
            ]:
                f.write(json.dumps({"case": title, "ours": a, "theirs": b, "unit": "s", "ratio": ratio,
                                    "goal": goal, "met": met}) + "\n")


def print_cpu(times, wall=None):
    """The CPU time of the commands of one report that were timed with cpu_as (CPU holds every report's)."""
    for name in times:
        if name in CPU:
            values = CPU[name]
            suffix = f" for {wall[name]:.3f} s of wall time" if wall else ""
            print(f"\n{name}: CPU time (user + system) median {statistics.median(values):.3f} s "
                  f"({min(values):.3f} – {max(values):.3f} s){suffix}")


def report(inspect_times, startup_times, count, runs, startup_runs, per_process, sample_count, summary):
    med = {n: statistics.median(t) for n, t in inspect_times.items()}
    ours = med["resumetool inspect --json (1 process)"]
    python = med["Python plistlib (1 process)"]
    plistutil = med["plistutil -f xml (1 process per blob)"]
    print(f"### inspect: {count} resume blobs (all four containers), {runs} rounds, tools alternating\n")
    print("| tool | median | min – max | per blob | resumetool (1 process) is |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, times in inspect_times.items():
        m = med[name]
        n = sample_count if name == per_process else count
        ratio = "–" if m == ours else f"{(m / n) / (ours / count):.1f}× faster per blob"
        print(f"| {name} | {m:.3f} s | {min(times):.3f} – {max(times):.3f} s | {1e6 * m / n:.0f} µs | {ratio} |")
    print_cpu(inspect_times, wall=med)
    print(f"\nGoals: ≥ 5× Python — {python / ours:.1f}× {'met' if python / ours >= 5 else '**missed**'}; "
          f"≥ 1× plistutil — {plistutil / ours:.1f}× {'met' if plistutil / ours >= 1 else '**missed**'} "
          f"(plistutil takes one file per process; one resumetool process per blob is "
          f"{(plistutil / count) / (med[per_process] / sample_count):.2f}× as fast as plistutil per blob).\n")

    smed = {n: statistics.median(t) for n, t in startup_times.items()}
    print(f"### start-up: one blob, wall time, median of {startup_runs} runs, tools alternating\n")
    print("| command | median | min – max |")
    print("| --- | ---: | ---: |")
    for name, times in startup_times.items():
        print(f"| {name} | {1000 * smed[name]:.1f} ms | {1000 * min(times):.1f} – {1000 * max(times):.1f} ms |")
    ratio = smed["plistutil -i BLOB -f xml"] / smed["resumetool inspect"]
    print(f"\nresumetool / plistutil: {ratio:.2f}× (above 1: resumetool starts faster)\n")

    if summary:
        with open(summary, "a") as f:
            rows = [
                (f"inspect {count:,} blobs vs Python plistlib", ours, python, "≥ 5×", python / ours >= 5),
                (f"inspect {count:,} blobs vs plistutil (1 process per blob)", ours, plistutil, "≥ 1×", plistutil / ours >= 1),
                ("start-up: inspect 1 blob vs plistutil", smed["resumetool inspect"],
                 smed["plistutil -i BLOB -f xml"], "–", None),
            ]
            for title, a, b, goal, met in rows:
                f.write(json.dumps({"case": title, "ours": a, "theirs": b, "unit": "s", "ratio": b / a,
                                    "goal": goal, "met": met}) + "\n")


if __name__ == "__main__":
    main()
