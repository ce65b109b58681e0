#!/usr/bin/env python3
"""Loopback transfer benchmark (issue 5 "Speed", issue 7 "transfer"); run through Benchmarks/transfer.sh.

Starts nginx (config: Benchmarks/transfer/nginx.conf) on a free loopback port serving a random file,
then downloads it with resumetool, curl, wget and aria2c, alternating the tools within each round.
Per run: wall time from launch to exit (so process start-up is included) and the peak resident
set as `/usr/bin/time -f %M` prints it. Between runs the output
is deleted and `sync` runs (untimed), so no run pays for the write-back of the one before.

The continue case: a 90 %-done download (partial file + blob made by pausing resumetool at 90 %)
is continued; the figure is the time from launch until the partial file first grows, polled
every 0.2 ms, plus the wall time to the end.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MIB = 1 << 20


def log(text):
    print(text, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_certificates(prefix):
    """A certificate authority made for this run and a certificate for 127.0.0.1 signed by it
    (EC P-256, as most servers use); returns (CA file, certificate, key)."""
    ca_key, ca, key, csr, cert, ext = (os.path.join(prefix, n) for n in
                                       ("ca-key.pem", "ca.pem", "server-key.pem", "server.csr", "server.pem", "san.ext"))
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": True}
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=transfer benchmark CA"], **quiet)
    subprocess.run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"], **quiet)
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
                    "-out", cert, "-days", "2", "-extfile", ext], **quiet)
    return ca, cert, key


class Nginx:
    def __init__(self, root, prefix, slow_after):
        self.port = free_port()
        self.tls_port = free_port()
        self.ca, cert, key = make_certificates(prefix)
        with open(os.path.join(HERE, "nginx.conf")) as f:
            text = f.read()
        for key, value in {"@PREFIX@": prefix, "@ROOT@": root, "@PORT@": str(self.port),
                           "@TLS_PORT@": str(self.tls_port), "@CERT@": cert, "@KEY@": key,
                           "@SLOW_AFTER@": str(slow_after)}.items():
            text = text.replace(key, value)
        conf = os.path.join(prefix, "nginx.conf")
        with open(conf, "w") as f:
            f.write(text)
        self.process = subprocess.Popen(
            ["/usr/sbin/nginx", "-p", prefix, "-c", conf, "-e", os.path.join(prefix, "error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.01)
        self.stop()
        raise SystemExit("nginx did not start: " + open(os.path.join(prefix, "error.log")).read())

    def url(self, path, tls=False):
        if tls:
            return f"https://127.0.0.1:{self.tls_port}/{path}"
        return f"http://127.0.0.1:{self.port}/{path}"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful stop of master and workers
            self.process.wait()


def run_measured(argv, watch=None, initial=0, cwd=None):
    """Runs argv; returns (wall seconds, (peak RSS bytes, user + system CPU seconds), seconds until
    `watch` grew past `initial` or None)."""
    # Through /usr/bin/time: a child started straight from Python would inherit Python's own
    # peak as its ru_maxrss (Linux keeps it across vfork and execve); time's is about 2 MiB.
    memory = os.path.join(tempfile.gettempdir(), f"transfer-bench-rss.{os.getpid()}")
    start = time.perf_counter()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M %U %S", "-o", memory, *argv],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    first = None
    if watch is not None:
        while first is None:
            try:
                if os.stat(watch).st_size > initial:
                    first = time.perf_counter() - start
                    break
            except FileNotFoundError:
                pass
            pid, status, _ = os.wait4(process.pid, os.WNOHANG)
            if pid != 0:
                return finish(argv, process, start, status, memory, first)
            time.sleep(0.0002)
    pid, status, _ = os.wait4(process.pid, 0)
    return finish(argv, process, start, status, memory, first)


def finish(argv, process, start, status, memory, first):
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"{argv[0]} failed ({process.returncode}): {error.strip()}")
    with open(memory) as f:
        fields = f.read().split()
    rss = int(fields[-3]) * 1024  # KiB
    cpu = float(fields[-2]) + float(fields[-1])
    os.unlink(memory)
    return wall, (rss, cpu), first


def fresh_tools(resumetool, url, out):
    """name -> (argv, path the tool leaves the file at). Defaults of each tool, one connection."""
    return {
        "resumetool": ([resumetool, "download", "--quiet", "-o", out, url], out),
        "curl": (["curl", "--silent", "--show-error", "--fail", "-o", out, url], out),
        "wget": (["wget", "--quiet", "-O", out, url], out),
        "aria2c": (["aria2c", "--quiet", "--allow-overwrite=true", "--auto-file-renaming=false",
                    "-d", os.path.dirname(out), "-o", os.path.basename(out), url], out),
    }


def https_tools(resumetool, url, out, ca):
    """The same tools over TLS, each trusting the run's CA; curl with its defaults (HTTP/2, as
    nginx offers it) and with --http1.1."""
    return {
        "resumetool": ([resumetool, "download", "--quiet", "--cacert", ca, "-o", out, url], out),
        "curl": (["curl", "--silent", "--show-error", "--fail", "--cacert", ca, "-o", out, url], out),
        "curl --http1.1": (["curl", "--silent", "--show-error", "--fail", "--http1.1", "--cacert", ca, "-o", out, url], out),
        "wget": (["wget", "--quiet", "--ca-certificate=" + ca, "-O", out, url], out),
        "aria2c": (["aria2c", "--quiet", "--allow-overwrite=true", "--auto-file-renaming=false", "--ca-certificate=" + ca,
                    "-d", os.path.dirname(out), "-o", os.path.basename(out), url], out),
    }


def https_capped_tools(resumetool, url, out, ca):
    aria = ["aria2c", "--quiet", "--allow-overwrite=true", "--auto-file-renaming=false", "--file-allocation=none",
            "--ca-certificate=" + ca, "-d", os.path.dirname(out), "-o", os.path.basename(out)]
    return {
        "resumetool --connections 4": ([resumetool, "download", "--quiet", "--cacert", ca, "--connections", "4", "-o", out, url], out),
        "curl": (["curl", "--silent", "--show-error", "--fail", "--cacert", ca, "-o", out, url], out),
        "aria2c -x4": (aria + ["-x4", "-s4", "-k1M", url], out),
        # The memory bound holds over TLS too, each connection with its own TLS buffers (issue 37).
        "resumetool --connections 16": ([resumetool, "download", "--quiet", "--cacert", ca, "--connections", "16", "-o", out, url], out),
    }


SCENARIOS = {
    # name: (what it measures, the row the goal compares with, the most resumetool's time may be of it)
    "tmpfs": ("server file and destination on tmpfs (/dev/shm): the engine alone, fsync free", "curl", 0.67),
    "disk": ("destination on the real disk, every tool durable", "curl + fsync", 0.8),
    # Issue 37 tightened the capped goals from 0.35× (issue 13) to 0.30×.
    "capped": ("nginx capping each connection at 16 MiB/s (limit_rate 16m)", "curl", 0.30),
    "default": ("destination under the work folder", "curl", None),
    "https-tmpfs": ("https (TLS, a CA of the run's own passed to each tool), server file and destination on tmpfs", "curl", 0.8),
    "https-capped": ("https, nginx capping each connection at 16 MiB/s (limit_rate 16m)", "curl", 0.30),
    # Issue 37: what several connections cost where they cannot help (no cap, loopback).
    "connections-tmpfs": ("uncapped, --connections 4 vs one connection, server file and destination on tmpfs", "curl", None),
    "https-connections-tmpfs": ("https, uncapped, --connections 4 vs one connection, on tmpfs", "curl", None),
}

# The most user+sys CPU `--connections 4` may take, as a multiple of one connection's (issue 37).
CONNECTIONS_CPU_LIMIT = 1.15


def connections_tools(resumetool, url, out, ca=None):
    """One connection and four, both resumetool, and curl, against an uncapped server."""
    trust = ["--cacert", ca] if ca else []
    curl_trust = ["--cacert", ca, "--http1.1"] if ca else []
    return {
        "resumetool": ([resumetool, "download", "--quiet", *trust, "-o", out, url], out),
        "resumetool --connections 4": ([resumetool, "download", "--quiet", *trust, "--connections", "4", "-o", out, url], out),
        "curl": (["curl", "--silent", "--show-error", "--fail", *curl_trust, "-o", out, url], out),
    }


def capped_tools(resumetool, url, out):
    """--connections against a server that caps each connection; aria2c -x4 beside it."""
    aria = ["aria2c", "--quiet", "--allow-overwrite=true", "--auto-file-renaming=false", "--file-allocation=none",
            "-d", os.path.dirname(out), "-o", os.path.basename(out)]
    return {
        "resumetool --connections 4": ([resumetool, "download", "--quiet", "--connections", "4", "-o", out, url], out),
        "curl": (["curl", "--silent", "--show-error", "--fail", "-o", out, url], out),
        "aria2c -x4": (aria + ["-x4", "-s4", "-k1M", url], out),
        # The memory bound holds whatever the number of connections.
        "resumetool --connections 16": ([resumetool, "download", "--quiet", "--connections", "16", "-o", out, url], out),
    }


def reference_tools(source, url, out):
    """The ceilings: writing the file without the network, the network without writing, and curl
    paying for durability as resumetool does."""
    return {
        "cat > file": (["sh", "-c", f'cat "{source}" > "{out}"'], out),
        "curl > /dev/null": (["curl", "--silent", "--show-error", "--fail", "-o", "/dev/null", url], None),
        # What resumetool does besides: the file is on disk (fsync) before it gets its final name.
        "curl + fsync": (["sh", "-c", f'curl --silent --show-error --fail -o "{out}" "{url}" && sync "{out}"'], out),
    }


def clean(directory):
    for name in os.listdir(directory):
        os.unlink(os.path.join(directory, name))
    os.sync()


def median_spread(values):
    return statistics.median(values), min(values), max(values)


def transfer_matrix(tools, order, runs, size, out_dir, verify_source):
    results = {name: {"wall": [], "rss": [], "cpu": []} for name in order}
    for round_index in range(runs):
        shift = round_index % len(order)
        rotated = order[shift:] + order[:shift]
        for name in rotated:
            argv, path = tools[name]
            clean(out_dir)
            wall, (rss, cpu), _ = run_measured(argv)
            if path is not None:
                got = os.path.getsize(path)
                if got != size:
                    raise SystemExit(f"{name}: wrote {got} bytes, expected {size}")
                if round_index == 0 and verify_source is not None:
                    if subprocess.run(["cmp", "-s", verify_source, path]).returncode != 0:
                        raise SystemExit(f"{name}: the downloaded file differs from the source")
            results[name]["wall"].append(wall)
            results[name]["rss"].append(rss)
            results[name]["cpu"].append(cpu)
            log(f"  round {round_index + 1}/{runs} {name:18} {size / wall / 1e9:6.2f} GB/s  {rss / MIB:7.1f} MiB  {cpu:5.2f} s CPU")
    clean(out_dir)
    return results


def make_partial(resumetool, nginx, work, size, slow_after):
    """Pauses a resumetool download at 90 % (with the X-Benchmark-Slow header nginx crawls from there;
    the URL is the continue's own, since a blob for another URL is set aside) and keeps the
    partial file and blob as the pristine starting point of every continue run."""
    out = os.path.join(work, "continue", "big.bin")
    shutil.rmtree(os.path.dirname(out), ignore_errors=True)  # a finished file would mean nothing to do
    os.makedirs(os.path.dirname(out))
    process = subprocess.Popen([resumetool, "download", "--quiet", "-H", "X-Benchmark-Slow: 1", "-o", out, nginx.url("big.bin")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            if os.path.getsize(out + ".part") >= slow_after:
                break
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)  # pauses: final checkpoint, exit 130
    process.wait()
    if not os.path.exists(out + ".resume"):
        raise SystemExit("resumetool left no blob when paused")
    shutil.copyfile(out + ".part", out + ".pristine-part")
    shutil.copyfile(out + ".resume", out + ".pristine-resume")
    os.unlink(out + ".part")
    os.unlink(out + ".resume")
    partial = os.path.getsize(out + ".pristine-part")
    log(f"  partial file: {partial} of {size} bytes ({100 * partial / size:.1f} %)")
    return out, partial


def continue_tools(resumetool, url, out):
    """name -> (argv, file that grows). curl/wget/aria2c continue after the bytes of the file itself."""
    return {
        "resumetool": ([resumetool, "download", "--quiet", "-o", out, url], out + ".part"),
        "curl": (["curl", "--silent", "--show-error", "--fail", "-C", "-", "-o", out, url], out),
        "wget": (["wget", "--quiet", "-c", "-O", out, url], out),
        # prealloc would make the file full-size before the first byte arrives.
        "aria2c": (["aria2c", "--quiet", "-c", "--file-allocation=none", "--auto-file-renaming=false",
                    "-d", os.path.dirname(out), "-o", os.path.basename(out), url], out),
    }


def prepare_continue(name, out):
    for suffix in ["", ".part", ".resume", ".aria2"]:
        if os.path.exists(out + suffix):
            os.unlink(out + suffix)
    if name == "resumetool":
        shutil.copyfile(out + ".pristine-part", out + ".part")
        shutil.copyfile(out + ".pristine-resume", out + ".resume")
    else:
        shutil.copyfile(out + ".pristine-part", out)
    os.sync()


def continue_matrix(tools, order, runs, out, partial, size):
    results = {name: {"first": [], "wall": []} for name in order}
    for round_index in range(runs):
        shift = round_index % len(order)
        rotated = order[shift:] + order[:shift]
        for name in rotated:
            argv, watch = tools[name]
            prepare_continue(name, out)
            wall, _, first = run_measured(argv, watch=watch, initial=partial)
            if os.path.getsize(out) != size:
                raise SystemExit(f"{name}: continued file has {os.path.getsize(out)} bytes, expected {size}")
            results[name]["first"].append(first if first is not None else wall)
            results[name]["wall"].append(wall)
            log(f"  round {round_index + 1}/{runs} {name:10} first byte {1000 * results[name]['first'][-1]:7.1f} ms, done {wall:.2f} s")
    return results


def partial_reads(resumetool, url, out):
    """Bytes resumetool reads from the partial file while continuing (strace of read/pread64 on its fd)."""
    prepare_continue("resumetool", out)
    trace = out + ".strace"
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,read,pread64,close", "-o", trace,
                    resumetool, "download", "--quiet", "-o", out, url], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    part = out + ".part"
    fds, total = set(), 0
    with open(trace) as f:
        for line in f:
            fields = line.split(None, 1)
            if len(fields) < 2:
                continue
            call = fields[1]
            if call.startswith("openat(") and f'"{part}"' in call and "= " in call:
                result = call.rsplit("= ", 1)[1].split()[0]
                if result.isdigit():
                    fds.add(result)
            elif call.startswith(("read(", "pread64(")):
                fd = call.split("(", 1)[1].split(",", 1)[0]
                if fd in fds and "= " in call:
                    result = call.rsplit("= ", 1)[1].split()[0]
                    if result.lstrip("-").isdigit() and int(result) > 0:
                        total += int(result)
            elif call.startswith("close("):
                fds.discard(call.split("(", 1)[1].split(")", 1)[0])
    os.unlink(trace)
    return total


def fmt_rate(size, seconds):
    return f"{size / seconds / 1e9:.2f} GB/s"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resumetool", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size-mib", type=int, default=1024)
    parser.add_argument("--work", help="temporary folder (default: a new one under /tmp, removed at the end)")
    parser.add_argument("--skip-continue", action="store_true")
    parser.add_argument("--only", action="append", help="tool names to run (repeatable)")
    parser.add_argument("--summary", help="append JSON lines of the medians here (for compare.sh)")
    parser.add_argument("--baseline", help="another resumetool build, measured as an extra row (before/after a change)")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="default",
                        help="tmpfs: run in /dev/shm (engine alone); disk: goal against curl + fsync; "
                             "capped: nginx at 16 MiB/s per connection, --connections 4 vs curl and aria2c -x4; "
                             "connections-tmpfs: --connections 4 vs one connection uncapped, CPU (issue 37)")
    args = parser.parse_args()

    size = args.size_mib * MIB
    if args.scenario in ("capped", "https-capped", "https-tmpfs", "connections-tmpfs", "https-connections-tmpfs"):
        args.skip_continue = True
    base = "/dev/shm" if args.scenario in ("tmpfs", "https-tmpfs", "connections-tmpfs", "https-connections-tmpfs") else "/tmp"
    work = args.work or tempfile.mkdtemp(prefix="transfer-bench.", dir=base)
    os.makedirs(work, exist_ok=True)
    root, prefix, out_dir = (os.path.join(work, n) for n in ("www", "nginx", "out"))
    for d in (root, prefix, out_dir):
        os.makedirs(d, exist_ok=True)
    for d in (work, root):
        os.chmod(d, 0o755)  # nginx workers run as nobody when started by root
    source = os.path.join(root, "big.bin")
    nginx = None
    try:
        if os.path.exists(source) and os.path.getsize(source) == size:
            log(f"reusing {source}")
        else:
            log(f"writing {args.size_mib} MiB of random bytes to {source}")
            with open(source, "wb") as f:
                for _ in range(args.size_mib):
                    f.write(os.urandom(MIB))
        os.chmod(source, 0o644)
        slow_after = size * 9 // 10
        nginx = Nginx(root, prefix, slow_after)
        url = nginx.url("big.bin")
        out = os.path.join(out_dir, "big.bin")

        if args.scenario in ("capped", "https-capped"):
            tls = args.scenario.startswith("https")
            url = nginx.url("capped/big.bin", tls=tls)
            tools = https_capped_tools(args.resumetool, url, out, nginx.ca) if tls else capped_tools(args.resumetool, url, out)
            if args.baseline:
                name = "resumetool --connections 4"
                tools["resumetool (baseline) --connections 4"] = ([args.baseline] + tools[name][0][1:], out)
        elif args.scenario in ("connections-tmpfs", "https-connections-tmpfs"):
            tls = args.scenario.startswith("https")
            url = nginx.url("big.bin", tls=tls)
            tools = connections_tools(args.resumetool, url, out, nginx.ca if tls else None)
            if args.baseline:
                for name in ("resumetool", "resumetool --connections 4"):
                    tools[name.replace("resumetool", "resumetool (baseline)", 1)] = ([args.baseline] + tools[name][0][1:], out)
        elif args.scenario == "https-tmpfs":
            url = nginx.url("big.bin", tls=True)
            tools = https_tools(args.resumetool, url, out, nginx.ca)
            if args.baseline:
                tools["resumetool (baseline)"] = ([args.baseline] + tools["resumetool"][0][1:], out)
        else:
            tools = fresh_tools(args.resumetool, url, out)
            if args.baseline:
                argv = [args.baseline] + tools["resumetool"][0][1:]
                tools["resumetool (baseline)"] = (argv, out)
            tools.update(reference_tools(source, url, out))
        order = [n for n in tools if not args.only or n in args.only]
        log(f"download {args.size_mib} MiB, {args.runs} rounds, order rotating: {', '.join(order)}")
        fresh = transfer_matrix(tools, order, args.runs, size, out_dir, source)
        report_fresh(fresh, size, args.runs, args.scenario)
        sys.stdout.flush()

        cont = None
        reads = None
        if not args.skip_continue:
            log("continue a 90 % download")
            out_continue, partial = make_partial(args.resumetool, nginx, work, size, slow_after)
            ctools = continue_tools(args.resumetool, url, out_continue)
            corder = [n for n in ctools if not args.only or n in args.only]
            cont = continue_matrix(ctools, corder, args.runs, out_continue, partial, size)
            if shutil.which("strace"):
                reads = partial_reads(args.resumetool, url, out_continue)

        if cont:
            report_continue(cont, reads, size)
        if args.summary:
            write_summary(args.summary, fresh, cont, size, args.scenario)
    finally:
        if nginx is not None:
            nginx.stop()
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


def report_fresh(fresh, size, runs, scenario):
    what, reference, limit = SCENARIOS[scenario]
    print(f"### Transfer ({scenario}): {size // MIB} MiB from nginx over loopback, {what}; {runs} rounds, tools alternating\n")
    print(f"| tool | time median | min – max | time vs {reference} | throughput | user+sys CPU median (vs {reference}) "
          f"| peak memory median (max) | goal |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    their_cpu = statistics.median(fresh[reference]["cpu"]) if reference in fresh else None
    theirs = statistics.median(fresh[reference]["wall"]) if reference in fresh else None
    for name, r in fresh.items():
        med, lo, hi = median_spread(r["wall"])
        ratio = f"{med / theirs:.2f}×" if theirs else "–"
        goal = "–"
        if name.startswith("resumetool") and "baseline" not in name:
            parts = []
            if limit is not None and theirs and name != "resumetool --connections 16":
                parts.append(f"≤ {limit}× {reference}: {'met' if med / theirs <= limit else '**missed**'}")
            if scenario == "https-tmpfs" and their_cpu:
                cpu_ratio = statistics.median(r["cpu"]) / their_cpu
                parts.append(f"CPU ≤ 1.3× {reference}: {'met' if cpu_ratio <= 1.3 else '**missed**'}")
            if name == "resumetool --connections 4" and "resumetool" in fresh and scenario.endswith("connections-tmpfs"):
                cpu_ratio = statistics.median(r["cpu"]) / statistics.median(fresh["resumetool"]["cpu"])
                parts.append(f"CPU {cpu_ratio:.2f}× one connection's, ≤ {CONNECTIONS_CPU_LIMIT}×: "
                             f"{'met' if cpu_ratio <= CONNECTIONS_CPU_LIMIT else '**missed**'}")
            parts.append(f"≤ 64 MiB: {'met' if max(r['rss']) <= 64 * MIB else '**missed**'}")
            goal = "; ".join(parts)
        cpu = statistics.median(r["cpu"])
        cpu_ratio = f" ({cpu / their_cpu:.2f}×)" if their_cpu else ""
        print(f"| {name} | {med:.3f} s | {lo:.3f} – {hi:.3f} s | {ratio} | {fmt_rate(size, med)} | {cpu:.2f} s{cpu_ratio} "
              f"| {statistics.median(r['rss']) / MIB:.1f} MiB ({max(r['rss']) / MIB:.1f}) | {goal} |")


def report_continue(cont, reads, size):
    print(f"\n### Continue a 90 %-done {size // MIB} MiB download: time to the first new byte on disk\n")
    print("| tool | first byte median | min – max | whole continue median | goal |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name, r in cont.items():
        med, lo, hi = median_spread(r["first"])
        goal = "–"
        if name == "resumetool":
            goal = f"< 100 ms {'met' if med < 0.1 else '**missed**'}"
            if reads is not None:
                goal += f"; partial file bytes read: {reads}"
        print(f"| {name} | {1000 * med:.1f} ms | {1000 * lo:.1f} – {1000 * hi:.1f} ms "
              f"| {statistics.median(r['wall']):.2f} s | {goal} |")


def write_summary(path, fresh, cont, size, scenario):
    what, reference, limit = SCENARIOS[scenario]
    rows = []
    for name in [n for n in fresh if n.startswith("resumetool") and "baseline" not in n]:
        ours = statistics.median(fresh[name]["wall"])
        if reference in fresh and name != "resumetool --connections 16":
            theirs = statistics.median(fresh[reference]["wall"])
            rows.append({"case": f"{scenario}: {name} {size // MIB} MiB, time vs {reference}", "ours": ours,
                         "theirs": theirs, "unit": "s", "ratio": ours / theirs,
                         "goal": f"≤ {limit}×" if limit else "–", "met": ours / theirs <= limit if limit else None})
        if scenario == "https-tmpfs" and reference in fresh:
            ours_cpu, theirs_cpu = statistics.median(fresh[name]["cpu"]), statistics.median(fresh[reference]["cpu"])
            rows.append({"case": f"{scenario}: {name} user+sys CPU vs {reference}", "ours": ours_cpu, "theirs": theirs_cpu,
                         "unit": "s", "ratio": ours_cpu / theirs_cpu, "goal": "≤ 1.3×", "met": ours_cpu / theirs_cpu <= 1.3})
        if name == "resumetool --connections 4" and "resumetool" in fresh and scenario.endswith("connections-tmpfs"):
            ours_cpu, one_cpu = statistics.median(fresh[name]["cpu"]), statistics.median(fresh["resumetool"]["cpu"])
            rows.append({"case": f"{scenario}: {name} user+sys CPU vs one connection", "ours": ours_cpu, "theirs": one_cpu,
                         "unit": "s", "ratio": ours_cpu / one_cpu, "goal": f"≤ {CONNECTIONS_CPU_LIMIT}×",
                         "met": ours_cpu / one_cpu <= CONNECTIONS_CPU_LIMIT})
        peak = max(fresh[name]["rss"])
        rows.append({"case": f"{scenario}: {name} peak memory (max over runs)", "ours": peak / MIB, "theirs": None,
                     "unit": "MiB", "ratio": None, "goal": "≤ 64 MiB", "met": peak <= 64 * MIB})
    for other in ["curl --http1.1", "wget", "aria2c", "aria2c -x4"]:
        if other in fresh and reference in fresh:
            rows.append({"case": f"{scenario}: {other}, time vs {reference}", "ours": statistics.median(fresh[other]["wall"]),
                         "theirs": statistics.median(fresh[reference]["wall"]), "unit": "s",
                         "ratio": statistics.median(fresh[other]["wall"]) / statistics.median(fresh[reference]["wall"]),
                         "goal": "–", "met": None})
    if cont and "resumetool" in cont:
        ours = statistics.median(cont["resumetool"]["first"])
        theirs = statistics.median(cont["curl"]["first"]) if "curl" in cont else None
        rows.append({"case": "continue 90 %: first byte (vs curl -C -)", "ours": ours * 1000,
                     "theirs": theirs * 1000 if theirs else None, "unit": "ms",
                     "ratio": ours / theirs if theirs else None, "goal": "< 100 ms", "met": ours < 0.1})
    with open(path, "a") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
