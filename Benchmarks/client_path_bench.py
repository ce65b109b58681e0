#!/usr/bin/env python3
"""The download's two transports side by side: the direct path and AsyncHTTPClient's.

One release binary downloads the same file from nginx on [::1] twice per round: once as
http://[::1]:PORT/ (the direct path) and once as http://[::1%251]:PORT/ (an IPv6 address with a
zone, which the direct path leaves to AsyncHTTPClient), with curl in the same rounds; the order
rotates every round. Wall time, CPU time (user + system) and peak RSS, median and spread.
The files go to /dev/shm, so the disk is out of the measurement.

    python3 Benchmarks/client_path_bench.py --binary .build/release/resumetool [--size-mib 512] [--runs 7]
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

NGINX = """worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    sendfile on;
    default_type application/octet-stream;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server {{ listen [::1]:{port}; root {root}; }}
}}
"""


def free_port():
    with socket.socket(socket.AF_INET6) as s:
        s.bind(("::1", 0))
        return s.getsockname()[1]


def measured(argv):
    """Runs argv under /usr/bin/time; (wall s, cpu s, max RSS MiB)."""
    fmt = "%e %U %S %M"
    start = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-f", fmt, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{argv[0]} failed ({done.returncode}): {done.stderr[-800:]}")
    fields = done.stderr.strip().splitlines()[-1].split()
    return wall, float(fields[1]) + float(fields[2]), int(fields[3]) / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--size-mib", type=int, default=512)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="client-path-", dir="/dev/shm")
    os.chmod(work, 0o755)
    nginx = None
    try:
        root = os.path.join(work, "root")
        os.makedirs(root)
        with open(os.path.join(root, "f.bin"), "wb") as f:
            chunk = os.urandom(1 << 20)
            for _ in range(args.size_mib):
                f.write(chunk)
        port = free_port()
        with open(os.path.join(work, "nginx.conf"), "w") as f:
            f.write(NGINX.format(prefix=work, port=port, root=root))
        nginx = subprocess.Popen(["/usr/sbin/nginx", "-p", work, "-c", os.path.join(work, "nginx.conf")], stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("::1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        out = os.path.join(work, "out.bin")
        tools = {
            "resumetool, direct path": lambda: [args.binary, "download", "--quiet", f"http://[::1]:{port}/f.bin", "-o", out],
            "resumetool, AsyncHTTPClient": lambda: [args.binary, "download", "--quiet", f"http://[::1%251]:{port}/f.bin", "-o", out],
            "curl": lambda: ["curl", "-sS", "-o", out, f"http://[::1]:{port}/f.bin"],
        }
        names = list(tools)
        results = {name: [] for name in names}
        for run in range(args.runs):
            order = names[run % len(names):] + names[:run % len(names)]
            for name in order:
                for leftover in (out, out + ".part", out + ".resume"):
                    if os.path.exists(leftover):
                        os.remove(leftover)
                results[name].append(measured(tools[name]()))
                if os.path.getsize(out) != args.size_mib << 20:
                    sys.exit(f"{name}: wrong size {os.path.getsize(out)}")
            print(f"round {run + 1}/{args.runs} done", file=sys.stderr)
        curl_wall = statistics.median(w for w, _, _ in results["curl"])
        print(f"{args.size_mib} MiB from nginx on [::1] to /dev/shm, {args.runs} rounds, order rotating")
        print("| tool | wall median | wall spread | vs curl | CPU median | CPU spread | peak RSS |")
        print("|---|---|---|---|---|---|---|")
        for name in names:
            walls = [w for w, _, _ in results[name]]
            cpus = [c for _, c, _ in results[name]]
            rss = statistics.median(r for _, _, r in results[name])
            print(f"| {name} | {statistics.median(walls):.3f} s | {min(walls):.3f} – {max(walls):.3f} s | "
                  f"{statistics.median(walls) / curl_wall:.2f}× | {statistics.median(cpus):.2f} s | "
                  f"{min(cpus):.2f} – {max(cpus):.2f} s | {rss:.1f} MiB |")
    finally:
        if nginx:
            nginx.terminate()
            nginx.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
