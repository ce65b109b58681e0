#!/usr/bin/env python3
"""Black-box fault injection over the built resumetool (issue 23).

Runs real commands under `strace -f -e inject=SYSCALL:error=ERRNO:when=N` (and `signal=SIGKILL`)
against a real nginx on 127.0.0.1, at early, middle and late N counted from a clean traced run of
the same command, and checks what a user is promised whatever the fault:

  * the process is never killed by anything but the injected SIGKILL (exit < 128: no trap);
  * when the fault hit the command's own files, it says so on standard error (an error, or a
    warning when the output is whole anyway) and exits non-zero unless the output is right;
  * the destination is absent or byte-identical; no other output is left half-written;
  * every resume blob left behind is readable and counts only bytes the partial file really
    holds (the source's own prefix);
  * a clean rerun of the same command gives the byte-identical file and leaves nothing beside it
    (no .part, no .resume, no .NAME.tmp-PID-RANDOM).

    Scripts/fault-sweep.py --binary .build/release/resumetool            # the full sweep
    Scripts/fault-sweep.py --binary .build/debug/resumetool --short      # CI's short form

Exit status: 0 no violation, 1 violations (each printed), 2 the sweep could not run (no strace,
no nginx). strace counts `when=N` per thread; N is taken as the most calls one thread made of
that system call in the clean run, so every thread that gets that far is hit at its N-th call.
`--seccomp-bpf` is not used: it makes signal injection a no-op in strace 6.1.
"""
import argparse
import hashlib
import json
import os
import plistlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SAMPLES = os.path.join(ROOT, "Samples")
TEMPORARY = re.compile(r"^\..+\.tmp-[1-9][0-9]*-(0|[1-9][0-9]*)$")

NGINX_CONF = """worker_processes 1;
daemon off;
master_process on;
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
    server {{
        listen 127.0.0.1:{port};
        root {root};
        location / {{ }}
    }}
}}
"""


class UploadServer:
    """The server side of the resumable-upload draft (interop version 6) as far as `resumetool
    upload` goes: a POST answered with 104 and its resume URL, then 201 once the body is whole;
    HEAD answering the offset the server holds; PATCH appending at it. What a killed client sent
    stays, so a rerun continues. The finished uploads are kept; the last one is checked."""

    def __init__(self):
        self.lock = threading.Lock()
        self.parts = {}
        self.finished = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *arguments):
                pass

            def answer(self, status, fields=()):
                self.send_response_only(status)
                for name, value in list(fields) + [("Upload-Draft-Interop-Version", "6"), ("Content-Length", "0")]:
                    self.send_header(name, value)
                self.end_headers()

            def upload(self):
                match = re.match(r"^/up/(\d+)$", self.path)
                with server.lock:
                    return int(match.group(1)) if match and int(match.group(1)) in server.parts else None

            def receive(self, number):
                """Appends the body as it arrives: a client killed midway leaves what it sent."""
                length = int(self.headers.get("Content-Length", "0"))
                while length > 0:
                    chunk = self.rfile.read(min(length, 65536))
                    if not chunk:
                        return False
                    with server.lock:
                        server.parts[number] += chunk
                    length -= len(chunk)
                return True

            def finish_upload(self, number, status):
                complete = self.headers.get("Upload-Complete", "?1") == "?1"
                with server.lock:
                    offset = len(server.parts[number])
                    if complete:
                        server.finished.append(bytes(server.parts[number]))
                self.answer(status if complete else 204, [("Upload-Complete", "?1" if complete else "?0"), ("Upload-Offset", str(offset))])

            def do_POST(self):
                with server.lock:
                    number = len(server.parts) + 1
                    server.parts[number] = bytearray()
                self.wfile.write(("HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\n"
                                  "Location: /up/%d\r\n\r\n" % number).encode())
                self.wfile.flush()
                if self.receive(number):
                    self.finish_upload(number, 201)

            def do_HEAD(self):
                number = self.upload()
                if number is None:
                    return self.answer(404)
                with server.lock:
                    offset = len(server.parts[number])
                self.answer(204, [("Upload-Complete", "?0"), ("Upload-Offset", str(offset)), ("Cache-Control", "no-store")])

            def do_PATCH(self):
                number = self.upload()
                if number is None:
                    return self.answer(404)
                with server.lock:
                    offset = len(server.parts[number])
                if self.headers.get("Upload-Offset") != str(offset):
                    return self.answer(409, [("Upload-Offset", str(offset))])
                if self.receive(number):
                    self.finish_upload(number, 201)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def last(self):
        with self.lock:
            return self.finished[-1] if self.finished else None

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    def __init__(self, root, prefix):
        binary = next((p for p in ("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None)
        if binary is None:
            raise SystemExit("fault-sweep: nginx is not installed (apt-get install nginx-light)")
        self.port = free_port()
        os.makedirs(prefix, exist_ok=True)
        with open(os.path.join(prefix, "nginx.conf"), "w") as f:
            f.write(NGINX_CONF.format(prefix=prefix, root=root, port=self.port))
        self.process = subprocess.Popen([binary, "-p", prefix, "-c", os.path.join(prefix, "nginx.conf"), "-e", os.path.join(prefix, "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(500):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.1):
                    return
            except OSError:
                time.sleep(0.01)
        raise SystemExit("fault-sweep: nginx did not start")

    def stop(self):
        self.process.send_signal(signal.SIGQUIT)
        self.process.wait()


def sha(data):
    return hashlib.sha256(data).hexdigest()


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


class Scenario:
    """One command, run in a fresh copy of `seed` (a folder); `output` is the file it makes and
    `expected` its right bytes; `blob` the checkpoint it may leave; `streams` where its standard
    output and error go; `aim` the only paths its faults hit, when not its own files."""

    def __init__(self, name, arguments, output, expected, seed=None, blob=None, partial=None, source=None, stdout=None, aim=None,
                 evidence=(), uploads=None):
        self.name, self.arguments, self.output, self.expected = name, arguments, output, expected
        self.seed, self.blob, self.partial, self.source, self.stdout = seed, blob, partial, source, stdout
        self.aim = aim
        # Files the command reads and must leave byte for byte (a bundle, the file uploaded).
        self.evidence = evidence
        # An upload's server: what it holds of each finished upload is checked after a success.
        self.uploads = uploads


class Sweep:
    def __init__(self, binary, work, short, verbose):
        self.binary, self.work, self.short, self.verbose = binary, work, short, verbose
        self.runs = 0
        self.violations = []
        self.counter = 0
        # (scenario, "SYSCALL:HOW") -> [calls in the clean run, runs, runs the fault was injected in]:
        # a listed fault that no run injected proves nothing, so it is a violation, not a skip.
        self.faults = {}

    def injections(self):
        return sum(entry[2] for entry in self.faults.values())

    # A fresh folder for one run, holding the scenario's seed.
    def folder(self, scenario):
        self.counter += 1
        path = os.path.join(self.work, "runs", "%s-%d" % (scenario.name, self.counter))
        if scenario.seed:
            shutil.copytree(scenario.seed, path, symlinks=True)
        else:
            os.makedirs(path)
        return path

    def run(self, scenario, folder, strace=None, streams=None):
        """With `streams`, standard output and error go to that file, which strace's `-P` then
        aims at: a `write` fault must hit what the tool prints, not the event loops' wake-up
        eventfds (which cannot fail so; a lost wake-up hangs NIO's shutdown)."""
        # Paths are absolute ({dir} is the run's folder): strace resolves a `-P` path that exists
        # to an absolute one, which then matches only absolute arguments.
        command = [self.binary] + [a.replace("{dir}", folder) for a in scenario.arguments]
        if strace:
            aim = ["-P", streams] if streams else []
            if scenario.aim:
                for path in scenario.aim:
                    aim += ["-P", path.replace("{dir}", folder)]
            elif strace[1] in ("trace=openat", "trace=close"):
                # The command's own files and its folder: an unaimed openat fault also hits the
                # Swift runtime's libdispatch, which traps when it cannot open /proc/PID/stat
                # (its worker-pool monitor), and an unaimed close fault SwiftNIO, whose reading of
                # the cgroup CPU quota at start-up closes with try!; faults no file system gives
                # there (see README).
                for name in (scenario.output, scenario.blob, scenario.partial):
                    if name:
                        aim += ["-P", os.path.join(folder, name)]
                aim += ["-P", folder]
            command = ["strace", "-f", "-qq", "-o", os.path.join(folder, ".strace-log")] + aim + strace + command
        target = scenario.stdout or streams
        stdout = open(target, "wb") if target else subprocess.PIPE
        try:
            done = subprocess.run(command, cwd=folder, stdout=stdout, stderr=subprocess.PIPE if not target else stdout,
                                  stdin=subprocess.DEVNULL, timeout=120)
        except subprocess.TimeoutExpired:
            return None, b"", b"(timed out after 120 s)"
        finally:
            if target:
                stdout.close()
        if streams:
            printed = read(streams) or b""
            os.unlink(streams)
            return done.returncode, b"", printed
        return done.returncode, done.stdout or b"", done.stderr or b""

    # Per thread, the most calls of `syscall` in a clean traced run.
    @staticmethod
    def streams(folder, syscall):
        return os.path.join(folder, ".streams") if syscall == "write" else None

    def count(self, scenario, syscall):
        folder = self.folder(scenario)
        status, _, _ = self.run(scenario, folder, ["-e", "trace=" + syscall], streams=self.streams(folder, syscall))
        counts = {}
        try:
            with open(os.path.join(folder, ".strace-log")) as log:
                for line in log:
                    match = re.match(r"^(\d+)\s+" + re.escape(syscall) + r"\(", line)
                    if match:
                        counts[match.group(1)] = counts.get(match.group(1), 0) + 1
        except OSError:
            # strace did not start (a name it does not know): nothing can be injected either.
            self.violation(scenario, "trace=" + syscall, "strace wrote no log (is %s a system call here?)" % syscall)
        shutil.rmtree(folder, ignore_errors=True)
        if status != 0:
            self.violation(scenario, "clean traced run", "exit %s without a fault" % status)
        return max(counts.values()) if counts else 0

    def violation(self, scenario, fault, text):
        line = "%s [%s]: %s" % (scenario.name, fault, text)
        self.violations.append(line)
        print("VIOLATION " + line, flush=True)

    def injected(self, folder):
        """The log's lines that show the fault: an injected error, or the injected SIGKILL (strace
        writes `+++ killed by SIGKILL +++` even with -qq; nothing else sends one here)."""
        try:
            with open(os.path.join(folder, ".strace-log"), errors="replace") as log:
                return [line.rstrip("\n") for line in log if "(INJECTED" in line or "+++ killed by SIGKILL" in line]
        except OSError:
            return []

    def leftovers(self, folder, scenario):
        names = set(os.listdir(folder)) - {".strace-log", ".streams"}
        if scenario.seed:
            names -= set(os.listdir(scenario.seed)) - {os.path.basename(p) for p in (scenario.blob, scenario.partial) if p}
        return names

    def check(self, scenario, fault, folder, status, stderr, killed_on_purpose, quiet_allowed=False):
        self.runs += 1
        injected = self.injected(folder)
        key = (scenario.name, fault.rsplit(":when=", 1)[0])
        if key in self.faults:
            self.faults[key][1] += 1
            self.faults[key][2] += 1 if injected else 0
        if status is None:
            return self.violation(scenario, fault, "hung: " + stderr.decode(errors="replace"))
        if status < 0 and not (killed_on_purpose and status == -signal.SIGKILL):
            return self.violation(scenario, fault, "killed by signal %d: %s" % (-status, stderr.decode(errors="replace")[-400:]))
        if status >= 128:
            return self.violation(scenario, fault, "exit %d: %s" % (status, stderr.decode(errors="replace")[-400:]))
        output = read(os.path.join(folder, scenario.output)) if scenario.output else None
        if output is not None and output != scenario.expected:
            self.violation(scenario, fault, "the output exists and differs (%d bytes, expected %d)" % (len(output), len(scenario.expected)))
        if status > 0 and not stderr.strip() and not scenario.stdout and not quiet_allowed:
            self.violation(scenario, fault, "exit %d with no message" % status)
        if status == 0 and scenario.output and output is None:
            self.violation(scenario, fault, "exit 0 without the output")
        for name in scenario.evidence:
            if read(os.path.join(folder, name)) != read(os.path.join(scenario.seed, name)):
                self.violation(scenario, fault, "%s, which it only reads, changed" % name)
        if status == 0 and scenario.uploads is not None and scenario.uploads.last() != scenario.source:
            self.violation(scenario, fault, "exit 0, and the server's last finished upload is not the file")
        if injected and status == 0 and not killed_on_purpose and not quiet_allowed and scenario.output \
                and any(self.touches_output(l, scenario) for l in injected):
            # The fault hit the command's own files and it still says success: only true when the
            # output is whole (checked above) and it said what happened.
            if not stderr.strip():
                self.violation(scenario, fault, "a fault on its own files, exit 0 and no word of it: %s" % injected[0])
        # A blob left behind is readable and counts only the partial file's true bytes.
        if scenario.blob and os.path.exists(os.path.join(folder, scenario.blob)):
            inspect = subprocess.run([self.binary, "inspect", "--json", scenario.blob], cwd=folder, capture_output=True)
            try:
                received = json.loads(inspect.stdout)[0]["bytesReceived"]
            except (ValueError, KeyError, TypeError):
                self.violation(scenario, fault, "the blob left behind is unreadable: %s" % inspect.stderr.decode(errors="replace")[:300])
            else:
                part = read(os.path.join(folder, scenario.partial))
                if part is None and output == scenario.expected:
                    # The finished file, beside a blob whose removal failed (and was reported).
                    part = output
                part = part or b""
                if received > len(part) or part[:received] != scenario.source[:received]:
                    self.violation(scenario, fault, "the blob counts %d bytes; the partial file holds %d true ones" % (
                        received, len(os.path.commonprefix([part, scenario.source[:len(part)]]))))
        # A clean rerun finishes byte-identical and leaves nothing beside the file.
        # A finished `resume` is not run again: the file it made has no checkpoint beside it, and
        # `resume` never replaces a file it cannot prove its own (exit 1, by design).
        finished = scenario.arguments[0] == "resume" and output == scenario.expected and not self.leftovers(folder, scenario) - {scenario.output}
        if scenario.arguments[0] in ("download", "convert", "repair", "rebuild", "resume") and not finished:
            again, _, err = self.run(scenario, folder)
            if again != 0:
                self.violation(scenario, fault, "the clean rerun exits %s: %s" % (again, err.decode(errors="replace")[-300:]))
            elif read(os.path.join(folder, scenario.output)) != scenario.expected:
                self.violation(scenario, fault, "the clean rerun's output differs")
            extra = {n for n in self.leftovers(folder, scenario) if n != scenario.output}
            if scenario.arguments[0] in ("download", "resume"):
                extra |= {n for n in os.listdir(folder) if TEMPORARY.match(n)}
            if extra:
                self.violation(scenario, fault, "left beside the file after the rerun: %s" % ", ".join(sorted(extra)))
        elif scenario.arguments[0] == "upload":
            # A clean rerun continues (or starts again) and sends the file whole; its checkpoint goes.
            again, _, err = self.run(scenario, folder)
            if again != 0:
                self.violation(scenario, fault, "the clean rerun exits %s: %s" % (again, err.decode(errors="replace")[-300:]))
            elif scenario.uploads.last() != scenario.source:
                self.violation(scenario, fault, "the clean rerun's upload is not the file")
            extra = self.leftovers(folder, scenario) | {n for n in os.listdir(folder) if TEMPORARY.match(n)}
            if extra:
                self.violation(scenario, fault, "left beside the file after the rerun: %s" % ", ".join(sorted(extra)))
        if self.verbose:
            print("  %s [%s]: exit %s%s" % (scenario.name, fault, status, " (hit: %s)" % injected[0][:120] if injected else ""), flush=True)
        shutil.rmtree(folder, ignore_errors=True)

    @staticmethod
    def touches_output(line, scenario):
        return scenario.output in line or ".tmp-" in line or (scenario.partial or "\0") in line

    def sweep(self, scenario, faults):
        for syscall, how in faults:
            total = self.count(scenario, syscall)
            self.faults[(scenario.name, "%s:%s" % (syscall, how))] = [total, 0, 0]
            if total == 0:
                # The binary no longer makes this call (another call does its work, or the work
                # is gone): the fault cannot be injected, and the sweep says so and fails.
                self.violation(scenario, "%s:%s" % (syscall, how),
                               "the clean run never calls %s, so this fault was never injected" % syscall)
                continue
            points = sorted({1, max(1, total // 4), max(1, total // 2), max(1, 3 * total // 4), total}) if not self.short else sorted({1, total})
            for when in points:
                folder = self.folder(scenario)
                fault = "%s:%s:when=%d" % (syscall, how, when)
                status, _, stderr = self.run(scenario, folder, ["-e", "trace=" + syscall, "-e", "inject=%s:%s:when=%d" % (syscall, how, when)],
                                             streams=self.streams(folder, syscall))
                # What the tool printed is what the fault hit: its words may be lost with it.
                self.check(scenario, fault, folder, status, stderr, killed_on_purpose=how == "signal=SIGKILL",
                           quiet_allowed=syscall == "write")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--short", action="store_true", help="the first and last N only, fewer faults (CI)")
    parser.add_argument("--size-mib", type=int, default=None, help="the downloaded file's size (default 24, short 4)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--min-injections", type=int, default=0, metavar="N",
                        help="fail when fewer than N runs had their fault injected (the caller's floor)")
    parser.add_argument("--faults", default=None, metavar="SYSCALL:HOW,...",
                        help="inject only these faults (e.g. pwritev:error=EIO) into every scenario that takes faults")
    parser.add_argument("--scenarios", default=None, metavar="NAME,...",
                        help="run only these scenarios (download, download-name, download-2, download-continue, convert, repair, rebuild, "
                             "bundle-resume, bundle-inspect, bundle-validate, bundle-explain, upload, full)")
    args = parser.parse_args()
    chosen = set(args.scenarios.split(",")) if args.scenarios else None
    override = None
    if args.faults:
        override = []
        for item in args.faults.split(","):
            syscall, _, how = item.partition(":")
            if not re.match(r"^[a-z0-9_]+$", syscall) or not re.match(r"^(error=E[A-Z0-9]+|signal=SIG[A-Z0-9]+)$", how):
                parser.error("--faults: %r is not SYSCALL:error=ERRNO or SYSCALL:signal=SIGNAL" % item)
            override.append((syscall, how))
    if shutil.which("strace") is None:
        print("fault-sweep: strace is not installed (apt-get install strace)", file=sys.stderr)
        return 2
    binary = os.path.abspath(args.binary)
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    work = tempfile.mkdtemp(prefix="resumetool-fault-sweep-", dir=base)
    # nginx's worker drops to an unprivileged user when started as root: it must read the file.
    os.chmod(work, 0o755)
    size = (args.size_mib or (4 if args.short else 24)) << 20
    source = os.urandom(size)
    served = os.path.join(work, "served")
    os.makedirs(served)
    with open(os.path.join(served, "file.bin"), "wb") as f:
        f.write(source)
    os.chmod(os.path.join(served, "file.bin"), 0o644)
    nginx = Nginx(served, os.path.join(work, "nginx"))
    started = time.time()
    sweep = Sweep(binary, work, args.short, args.verbose)
    try:
        url = "http://127.0.0.1:%d/file.bin" % nginx.port
        common = ["--retries", "0", "--checkpoint-bytes", "262144"]
        direct = Scenario("download", ["download", url, "-o", "{dir}/out.bin"] + common, "out.bin", source,
                          blob="out.bin.resume", partial="out.bin.part", source=source)
        # A host name: the direct path resolves it through SocketCalls.resolve (getaddrinfo),
        # whose reading of /etc/hosts is what faults here; a name that does not resolve is final.
        named = Scenario("download-name", ["download", url.replace("127.0.0.1", "localhost"), "-o", "{dir}/out.bin"] + common,
                         "out.bin", source, blob="out.bin.resume", partial="out.bin.part", source=source, aim=["/etc/hosts"])
        two = Scenario("download-2", ["download", url, "-o", "{dir}/out.bin", "--connections", "2"] + common, "out.bin", source,
                       blob="out.bin.resume", partial="out.bin.part", source=source)
        # A download to continue: a run killed at its second checkpoint's rename (which itself
        # leaves a temporary file for the next run to remove).
        seed = os.path.join(work, "seed-continue")
        os.makedirs(seed)
        # Two runs: the first, slowed down, is killed once its blob counts a quarter of the file;
        # the second at its first checkpoint's rename, so a temporary file is left beside them.
        arguments = [a.replace("{dir}", seed) for a in direct.arguments]
        first = subprocess.Popen([binary] + arguments + ["--limit-rate", "4M"], cwd=seed,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while first.poll() is None and time.time() < deadline:
            blob = read(os.path.join(seed, "out.bin.resume"))
            if blob and os.path.getsize(os.path.join(seed, "out.bin.part")) > size // 4:
                break
            time.sleep(0.01)
        first.kill()
        first.wait()
        # (Not aimed with -P: strace 6.1 matches only rename's first path, here a random name.)
        subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename",
                        "-e", "inject=rename:signal=SIGKILL:when=1", binary] + arguments,
                       cwd=seed, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not os.path.exists(os.path.join(seed, "out.bin.resume")) or not any(TEMPORARY.match(n) for n in os.listdir(seed)):
            sweep.violation(direct, "seed", "a kill at the checkpoint rename left no blob and temporary file: %s" % os.listdir(seed))
        continuing = Scenario("download-continue", direct.arguments, "out.bin", source, seed=seed,
                              blob="out.bin.resume", partial="out.bin.part", source=source)
        samples = os.path.join(work, "samples")
        shutil.copytree(SAMPLES, samples)

        def expected(arguments):
            folder = os.path.join(work, "expected-" + arguments[0])
            shutil.copytree(samples, folder)
            done = subprocess.run([binary] + [a.replace("{dir}", folder) for a in arguments], cwd=folder, capture_output=True)
            if done.returncode != 0:
                raise SystemExit("fault-sweep: %s failed without a fault: %s" % (arguments, done.stderr.decode()))
            return read(os.path.join(folder, "out.plist"))

        convert_args = ["convert", "ios12-keyed-archive.resumedata", "--to", "xml", "-o", "{dir}/out.plist"]
        repair_args = ["repair", "ios10-corrupted-requests.plist", "--target", "ios10", "-o", "{dir}/out.plist"]
        rebuild_args = ["rebuild", "--partial", "CFNetworkDownload_Occ2S2.tmp", "--url", "https://example.com/big.dmg",
                        "--etag", '"afda885a"', "-o", "{dir}/out.plist"]
        convert = Scenario("convert", convert_args, "out.plist", expected(convert_args), seed=samples)
        repair = Scenario("repair", repair_args, "out.plist", expected(repair_args), seed=samples)
        rebuild = Scenario("rebuild", rebuild_args, "out.plist", expected(rebuild_args), seed=samples)

        # A Safari bundle holding the file's first quarter, modern layout: `resume` continues it
        # into out.bin and never writes inside the bundle; inspect, validate and explain read it.
        bundle_seed = os.path.join(work, "seed-bundle")
        os.makedirs(os.path.join(bundle_seed, "file.bin.download"))
        with open(os.path.join(bundle_seed, "file.bin.download", "Info.plist"), "wb") as f:
            plistlib.dump({"DownloadEntryURL": url, "DownloadEntryIdentifier": "5A4D2C1B-0000-4000-8000-000000000001",
                           "DownloadEntryPath": "/Users/examiner/Downloads/file.bin.download"}, f)
        with open(os.path.join(bundle_seed, "file.bin.download", "file.bin"), "wb") as f:
            f.write(source[:size // 4])
        bundle_files = ("file.bin.download/Info.plist", "file.bin.download/file.bin")
        bundle = Scenario("bundle-resume", ["resume", "file.bin.download", "-o", "{dir}/out.bin"] + common, "out.bin", source,
                          seed=bundle_seed, blob="out.bin.resume", partial="out.bin.part", source=source, evidence=bundle_files)
        # Read-only commands: their faults are aimed at the bundle's two files.
        readers = [Scenario("bundle-" + command, [command, "file.bin.download"], None, None, seed=bundle_seed,
                            aim=["{dir}/" + name for name in bundle_files + ("file.bin.download",)], evidence=bundle_files)
                   for command in ("inspect", "validate", "explain")]
        # An upload to the draft's server: the file is read, never written; the checkpoint beside it
        # is the blob and its identity record.
        uploads = UploadServer()
        upload_seed = os.path.join(work, "seed-upload")
        os.makedirs(upload_seed)
        with open(os.path.join(upload_seed, "file.bin"), "wb") as f:
            f.write(source)
        upload = Scenario("upload", ["upload", "file.bin", "http://127.0.0.1:%d/files" % uploads.port, "--retries", "0"], None, None,
                          seed=upload_seed, source=source, evidence=("file.bin",), uploads=uploads)

        data = [("pwrite64", "error=ENOSPC"), ("pwrite64", "error=EIO"), ("splice", "error=ENOSPC"), ("splice", "error=EIO"),
                ("fsync", "error=EIO"), ("rename", "error=EXDEV"), ("rename", "error=EIO"), ("rename", "error=ENOSPC"),
                ("openat", "error=ENOSPC"), ("unlink", "error=EACCES"), ("ftruncate", "error=EIO"), ("close", "error=EIO"),
                ("write", "error=ENOSPC"), ("write", "error=EIO"), ("fsync", "signal=SIGKILL"), ("rename", "signal=SIGKILL"),
                ("pwrite64", "signal=SIGKILL"),
                # The receive's low-water mark refused, and the count of waiting bytes failing.
                ("setsockopt", "error=ENOPROTOOPT"), ("ioctl", "error=EIO")]
        if args.short:
            data = [("pwrite64", "error=ENOSPC"), ("splice", "error=EIO"), ("fsync", "error=EIO"), ("rename", "error=EXDEV"),
                    ("unlink", "error=EACCES"), ("rename", "signal=SIGKILL")]
        files = [("pwrite64", "error=ENOSPC"), ("pwrite64", "error=EIO"), ("fsync", "error=EIO"), ("rename", "error=EXDEV"),
                 ("rename", "error=EIO"), ("openat", "error=ENOSPC"), ("close", "error=EIO"), ("write", "error=ENOSPC"),
                 ("write", "error=EPIPE"), ("fsync", "signal=SIGKILL"), ("rename", "signal=SIGKILL")]
        if args.short:
            files = [("pwrite64", "error=ENOSPC"), ("fsync", "error=EIO"), ("rename", "signal=SIGKILL")]

        def wanted(scenario):
            return chosen is None or scenario.name in chosen

        for scenario in (direct, two, continuing):
            if wanted(scenario):
                sweep.sweep(scenario, override or data)
        if wanted(named):
            sweep.sweep(named, override or [("openat", "error=EACCES"), ("read", "error=EIO")])
        for scenario in (convert, repair, rebuild):
            if wanted(scenario):
                # `repair` prints its report; `convert` and `rebuild` with -o print nothing and
                # write the file with pwrite, so they make no write(2) for a fault to hit.
                faults = files if scenario is repair else [fault for fault in files if fault[0] != "write"]
                sweep.sweep(scenario, override or faults)
        if wanted(bundle):
            # `resume` copies the bundle's data file once the server continues after its bytes:
            # that copy failing, falling back to user space, or killed, too.
            copying = [("copy_file_range", "error=EIO"), ("copy_file_range", "error=EXDEV"), ("copy_file_range", "signal=SIGKILL")]
            sweep.sweep(bundle, override or (data + (copying[2:] if args.short else copying)))
        reading = [("read", "error=EIO"), ("getdents64", "error=EIO"), ("openat", "error=EACCES")]
        for scenario in readers:
            if wanted(scenario):
                sweep.sweep(scenario, override or (reading[:2] if args.short else reading))
        # The file is read with pread64; the checkpoint written with pwrite64, fsync and rename
        # (whose first path, a random temporary name, -P cannot aim at).
        if wanted(upload):
            sweep.sweep(upload, override or ([("pread64", "error=EIO"), ("rename", "error=EXDEV"), ("rename", "signal=SIGKILL")] if args.short
                                             else [("pread64", "error=EIO"), ("pwrite64", "error=ENOSPC"), ("fsync", "error=EIO"),
                                                   ("rename", "error=EXDEV"), ("rename", "signal=SIGKILL"), ("fsync", "signal=SIGKILL"),
                                                   ("pread64", "signal=SIGKILL"), ("unlink", "error=EACCES")]))
        # Standard output and error on a full disk: the work stands, nothing traps.
        for arguments in (() if chosen is not None and "full" not in chosen else (["inspect", "ios9-xml.plist"], ["repair", "ios10-corrupted-requests.plist", "--target", "ios10", "-o", "out.plist"],
                          ["validate", "broken-missing-validator.resumedata"], ["download", url, "-o", "out.bin", "--retries", "0"])):
            scenario = Scenario("full-" + arguments[0], arguments, None, None, seed=samples, stdout="/dev/full")
            folder = sweep.folder(scenario)
            status, _, _ = sweep.run(scenario, folder)
            sweep.runs += 1
            if status is None or status < 0 or status >= 128:
                sweep.violation(scenario, "stdout and stderr on /dev/full", "exit %s" % status)
            if arguments[0] == "download" and read(os.path.join(folder, "out.bin")) != source:
                sweep.violation(scenario, "stdout and stderr on /dev/full", "the download did not finish")
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        nginx.stop()
        if "uploads" in locals():
            uploads.stop()
        shutil.rmtree(work, ignore_errors=True)
    # What was injected, per scenario and fault: the evidence that the sweep tested something.
    per_call = {}
    for (name, fault), (calls, runs, hit) in sorted(sweep.faults.items()):
        print("fault-sweep: %-17s %-24s %5d calls in the clean run, injected in %d of %d runs" % (name, fault, calls, hit, runs))
        if hit == 0 and calls > 0:
            sweep.violations.append("%s [%s]: never injected in %d runs" % (name, fault, runs))
            print("VIOLATION %s [%s]: never injected in %d runs" % (name, fault, runs), flush=True)
        syscall = fault.split(":")[0]
        per_call[syscall] = per_call.get(syscall, 0) + hit
    print("fault-sweep: injected per system call: %s" % ", ".join("%s %d" % item for item in sorted(per_call.items())))
    injections = sweep.injections()
    if injections < args.min_injections:
        sweep.violations.append("runs that injected a fault: %d, under the floor of %d" % (injections, args.min_injections))
        print("VIOLATION runs that injected a fault: %d, under the floor of %d (--min-injections)" % (injections, args.min_injections), flush=True)
    print("fault-sweep: %d injected, %d runs, %d violations, %.0f s (%s, %s)" % (
        injections, sweep.runs, len(sweep.violations), time.time() - started, "short" if args.short else "full", binary))
    return 1 if sweep.violations else 0


if __name__ == "__main__":
    sys.exit(main())
