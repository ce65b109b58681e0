#!/usr/bin/env python3
"""Upload benchmark (issue 36): `resumetool upload FILE URL` vs `curl -T FILE URL`, same server.

Makes a random file (512 MiB by default) on /dev/shm, starts UploadBenchServer (Apple's
NIOResumableUpload on 127.0.0.1, which also takes a plain PUT: Benchmarks/Sources/UploadBenchServer)
storing uploads in a folder on /dev/shm, then runs alternating rounds of both clients, the order
rotated every round (with --baseline, three tools). After each run the stored file's SHA-256 must
be the source's. Per run: wall time from launch to exit (start-up included), the client's
user+sys CPU (os.wait4) and peak RSS (/usr/bin/time -f %M), and the server's CPU (/proc).

curl runs with `-H 'Expect:'`: without it curl waits up to a second for a `100 Continue` that the
server (NIO's HTTP/1 pipeline) never sends; resumetool sends no Expect either.

Resume after kill: resumetool uploads to its own path, is SIGKILLed once the server has stored
~40 % of the file, and the same command runs again; the server's log says which requests the
second run made and how many body bytes it sent, against the offset the server had.

    Benchmarks/upload_bench.py [--runs N] [--size-mib N] [--skip-kill] [--json FILE]

Needs release builds: `swift build -c release --product resumetool` at the root and
`swift build -c release --package-path Benchmarks --product UploadBenchServer`.
"""

import argparse
import hashlib
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MIB = 1 << 20


def log(text):
    print(text, file=sys.stderr, flush=True)


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            block = f.read(8 * MIB)
            if not block:
                return digest.hexdigest()
            digest.update(block)


def make_file(path, size):
    digest = hashlib.sha256()
    with open(path, "wb") as f:
        left = size
        while left:
            block = os.urandom(min(16 * MIB, left))
            f.write(block)
            digest.update(block)
            left -= len(block)
    return digest.hexdigest()


class Server:
    """UploadBenchServer, its standard output read line by line on a thread of its own."""

    def __init__(self, binary, folder):
        self.folder = folder
        self.lines = []
        self.changed = threading.Condition()
        self.process = subprocess.Popen([binary, folder], stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        line = self.wait_for(lambda l: l.startswith("listening "), 0, timeout=30)
        self.port = int(line.split()[1])

    def _read(self):
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()

    def mark(self):
        with self.changed:
            return len(self.lines)

    def wait_for(self, predicate, start, timeout=30):
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for line in self.lines[start:]:
                    if predicate(line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError("server: no such line in %d s (log since: %r)" % (timeout, self.lines[start:]))
                self.changed.wait(left)

    def since(self, start):
        with self.changed:
            return list(self.lines[start:])

    def cpu(self):
        """The server's user+sys CPU seconds so far (/proc/PID/stat)."""
        with open("/proc/%d/stat" % self.process.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.terminate()
        self.process.wait()


def measured(command, rss_file):
    """Runs `command`; wall seconds, user+sys CPU seconds, peak RSS in MiB, exit status.

    Under `/usr/bin/time -f %M`: the peak RSS wait4 reports for a child of this Python process
    includes Python's own (Linux keeps the forked, pre-exec memory's high-water mark), while
    time's child is forked from a small process. CPU from wait4 (time's own is ~1 ms)."""
    start = time.perf_counter()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file] + command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    with open(rss_file) as f:
        rss = int(f.read().split()[-1]) / 1024
    return wall, usage.ru_utime + usage.ru_stime, rss, process.returncode


def stored_path(server, path):
    return os.path.join(server.folder, path.replace("/", "_"))


def check_stored(server, mark, path, size, digest):
    line = server.wait_for(lambda l: l == "stored %s bytes=%d" % (path, size), mark)
    stored = stored_path(server, path)
    if sha256_of(stored) != digest:
        raise RuntimeError("%s: the server stored other bytes (%s)" % (path, line))
    os.unlink(stored)


def spread(values):
    return "%.3f–%.3f" % (min(values), max(values))


def kill_check(server, resumetool, source, size, digest):
    """Uploads, SIGKILLs the client at ~40 % stored, runs the same command again."""
    path = "/kill"
    url = "http://127.0.0.1:%d%s" % (server.port, path)
    command = [resumetool, "upload", "--quiet", source, url]
    stored = stored_path(server, path)
    mark = server.mark()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    target = int(size * 0.4)
    while True:
        try:
            if os.stat(stored).st_size >= target:
                break
        except FileNotFoundError:
            pass
        if process.poll() is not None:
            raise RuntimeError("the upload ended before 40 %% (status %s)" % process.returncode)
        time.sleep(0.0005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    # The first connection's end, as the server saw it.
    server.wait_for(lambda l: l.startswith("closed ") and " POST " in l, mark)
    first = server.since(mark)
    first_body = sum(int(l.rsplit("body=", 1)[1]) for l in first if l.startswith("closed "))
    second_mark = server.mark()
    wall, cpu, rss, status = measured(command, os.path.join(os.path.dirname(source), "rss"))
    if status != 0:
        raise RuntimeError("the second run failed (status %d)" % status)
    check_stored(server, second_mark, path, size, digest)
    server.wait_for(lambda l: l.startswith("closed ") and " PATCH " in l, second_mark)
    time.sleep(0.05)
    second = server.since(second_mark)
    heads = [l for l in second if l.startswith("head ")]
    methods = [l.split()[2] for l in heads]
    patch_offsets = [int(l.rsplit("offset=", 1)[1]) for l in heads if l.split()[2] == "PATCH"]
    second_body = sum(int(l.rsplit("body=", 1)[1]) for l in second if l.startswith("closed "))
    offset = patch_offsets[0] if patch_offsets else None
    leftover = [n for n in (source + ".uploadresume", source + ".uploadresume.identity") if os.path.exists(n)]
    return {
        "killed_at_server_bytes": first_body,
        "killed_at_percent": round(100 * first_body / size, 1),
        "second_run_requests": methods,
        "patch_offset": offset,
        "remainder": size - offset if offset is not None else None,
        "second_run_body_bytes": second_body,
        "bytes_sent_twice": first_body + second_body - size,
        "second_run_wall_s": round(wall, 3),
        "second_run_peak_rss_mib": round(rss, 1),
        "checkpoint_left": leftover,
        "log": first + second,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size-mib", type=int, default=512)
    parser.add_argument("--resumetool", default=os.path.join(ROOT, ".build/release/resumetool"))
    parser.add_argument("--server", default=os.path.join(HERE, ".build/release/UploadBenchServer"))
    parser.add_argument("--baseline", metavar="BINARY",
                        help="another resumetool build (say, before a change), run in the same rounds")
    parser.add_argument("--skip-kill", action="store_true")
    parser.add_argument("--json", help="write the results here too")
    args = parser.parse_args()
    for binary in (args.resumetool, args.server):
        if not os.access(binary, os.X_OK):
            sys.exit("missing %s (see the release builds in this script's docstring)" % binary)
    if shutil.which("curl") is None:
        sys.exit("missing curl")

    work = tempfile.mkdtemp(prefix="uploadbench-", dir="/dev/shm")
    folder = os.path.join(work, "stored")
    os.mkdir(folder)
    source = os.path.join(work, "source.bin")
    size = args.size_mib * MIB
    server = None
    try:
        log("making %d MiB of random bytes in %s" % (args.size_mib, source))
        digest = make_file(source, size)
        server = Server(args.server, folder)
        base = "http://127.0.0.1:%d" % server.port
        load_before = os.getloadavg()
        tools = {
            "resumetool": lambda url: [args.resumetool, "upload", "--quiet", source, url],
            "curl": lambda url: ["curl", "-sS", "-f", "-H", "Expect:", "-o", "/dev/null", "-T", source, url],
        }
        if args.baseline:
            tools["baseline"] = lambda url: [args.baseline, "upload", "--quiet", source, url]
        results = {name: [] for name in tools}
        for round_index in range(args.runs):
            # Rotated every round, so that no tool always follows the same one.
            names = list(tools)
            shift = round_index % len(names)
            order = names[shift:] + names[:shift]
            for name in order:
                path = "/%s-%d" % (name, round_index)
                mark = server.mark()
                server_before = server.cpu()
                wall, cpu, rss, status = measured(tools[name](base + path), os.path.join(work, "rss"))
                if status != 0:
                    raise RuntimeError("%s exited with %d" % (name, status))
                server_cpu = server.cpu() - server_before
                check_stored(server, mark, path, size, digest)
                results[name].append({"wall": wall, "cpu": cpu, "rss": rss, "server_cpu": server_cpu})
                log("round %d %-11s %.3f s wall, %.3f s CPU, %.1f MiB; server %.2f s CPU" % (
                    round_index + 1, name, wall, cpu, rss, server_cpu))
        load_after = os.getloadavg()

        summary = {}
        for name, runs in results.items():
            summary[name] = {
                "runs": len(runs),
                "wall_median_s": statistics.median(r["wall"] for r in runs),
                "wall_spread_s": spread([r["wall"] for r in runs]),
                "cpu_median_s": statistics.median(r["cpu"] for r in runs),
                "cpu_spread_s": spread([r["cpu"] for r in runs]),
                "peak_rss_max_mib": max(r["rss"] for r in runs),
                "server_cpu_median_s": statistics.median(r["server_cpu"] for r in runs),
                "wall_s": [round(r["wall"], 3) for r in runs],
            }
        ratio = summary["resumetool"]["wall_median_s"] / summary["curl"]["wall_median_s"]
        cpu_ratio = summary["resumetool"]["cpu_median_s"] / summary["curl"]["cpu_median_s"]
        print("machine: %s, %d CPUs, kernel %s" % (cpu_model(), os.cpu_count() or 0, platform.release()))
        print("load average before %.2f %.2f %.2f, after %.2f %.2f %.2f" % (load_before + load_after))
        print("%d MiB, %d alternating rounds, every stored file checked (SHA-256)" % (args.size_mib, args.runs))
        print()
        print("| client | wall median (min–max) | user+sys CPU median (min–max) | peak RSS (max) | server CPU median |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for name, s in summary.items():
            print("| %s | %.3f s (%s) | %.3f s (%s) | %.1f MiB | %.2f s |" % (
                name, s["wall_median_s"], s["wall_spread_s"], s["cpu_median_s"], s["cpu_spread_s"], s["peak_rss_max_mib"],
                s["server_cpu_median_s"]))
        print()
        print("time ratio resumetool/curl %.2f× (goal ≤ 1.0×: %s); CPU ratio %.2f×; peak RSS %.1f MiB (goal ≤ 64 MiB: %s)" % (
            ratio, "met" if ratio <= 1.0 else "missed", cpu_ratio, summary["resumetool"]["peak_rss_max_mib"],
            "met" if summary["resumetool"]["peak_rss_max_mib"] <= 64 else "missed"))
        for name, s in summary.items():
            print("%s runs (s): %s" % (name, ", ".join("%.3f" % w for w in s["wall_s"])))
        kill = None
        if not args.skip_kill:
            kill = kill_check(server, args.resumetool, source, size, digest)
            print()
            print("resume after kill: killed with %d bytes at the server (%.1f %%); second run: %s; PATCH from %s, "
                  "remainder %s, second run sent %d body bytes; bytes sent twice: %d; checkpoint left: %s" % (
                      kill["killed_at_server_bytes"], kill["killed_at_percent"], " + ".join(kill["second_run_requests"]),
                      kill["patch_offset"], kill["remainder"], kill["second_run_body_bytes"], kill["bytes_sent_twice"],
                      kill["checkpoint_left"] or "none"))
            goal = (kill["second_run_requests"] == ["HEAD", "PATCH"] and kill["bytes_sent_twice"] == 0
                    and kill["second_run_body_bytes"] == kill["remainder"])
            print("goal (one HEAD, one PATCH, no byte sent twice): %s" % ("met" if goal else "missed"))
            print("server log: " + " | ".join(kill["log"]))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"summary": summary, "runs": results, "kill": kill,
                           "load": [load_before, load_after]}, f, indent=1)
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
