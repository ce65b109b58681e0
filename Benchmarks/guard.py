#!/usr/bin/env python3
"""The measuring half of Benchmarks/guard.sh, which builds the two binaries and calls this.

Runs the project's speed goals for two builds of resumetool, BASE and HEAD, taking turns within
every round (the order flips from one round to the next), and prints one table: each goal's BASE
and HEAD medians, the ratio HEAD/BASE of the medians, the spread (min – max) of the per-round
ratios, and a flag where HEAD is more than --threshold per cent worse (every figure is a time:
lower is better). Exit status: 0, or 1 when a row is flagged (0 with --warn-only), 2 when a goal
failed to run. A goal whose tool or input is missing is skipped, and its row says why.

Each goal is set up as the acceptance scripts in shared/bench set it up (scale.sh, inspect.sh),
and timed with the measuring code of the benchmarks beside this file:

  download     https, 512 MiB on /dev/shm from nginx (2 workers, RSA-2048 certificate, sendfile,
               no HTTP/2), `download URL --cacert CA -o F --quiet`: user+sys CPU and wall (scale.sh a)
  connections  the same with `--connections 4`, uncapped: user+sys CPU and wall (scale.sh b)
  archive      `scan FILE.tar.gz --json` of make_archives.py --big 20000: wall and CPU (scale.sh c)
  inspect      `inspect --json` of 3,000 blobs named one by one (the six good Samples, 500 copies
               each): wall (inspect.sh)
  tasks        `tasks LEDGER --json` of a 10,000-row ledger (tasks_bench.py's): wall and CPU
  upload       `upload --quiet FILE URL`, 512 MiB on /dev/shm to UploadBenchServer (Apple's
               NIOResumableUpload on 127.0.0.1), every stored file's SHA-256 checked (upload_bench.py)

Every run goes through upload_bench.measured (wall from launch to exit, user+sys CPU of the child
from wait4, peak RSS from /usr/bin/time), except tasks, through tasks_bench.run (the same three
figures from /usr/bin/time -v).
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout by the imports below
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "transfer"))

import tasks_bench  # noqa: E402
import transfer  # noqa: E402  (Benchmarks/transfer/transfer.py)
import upload_bench  # noqa: E402

MIB = 1 << 20
GOALS = ["download", "connections", "archive", "inspect", "tasks", "upload"]
# inspect.sh's blobs: one per container, the project's good samples.
INSPECT_SAMPLES = ["ios9-xml.plist", "ios8-local-path.plist", "ios11-byte-range.plist", "ios12-keyed-archive.resumedata",
                   "webkit-keyed-archive.plist", "ios10-corrupted-requests.plist"]


def log(text):
    print(text, file=sys.stderr, flush=True)


class Skip(Exception):
    """A goal that cannot run here (a tool, an input or a subcommand missing): its rows say why."""


class Context:
    """What every goal needs: the two builds, the rounds, the work folder, the servers to stop."""

    def __init__(self, args):
        self.builds = {"BASE": args.base, "HEAD": args.head}
        self.rounds = args.rounds
        self.work = args.work
        self.args = args
        self.rss_file = os.path.join(args.work, "rss")

    def folder(self, name):
        path = os.path.join(self.work, name)
        os.makedirs(path, exist_ok=True)
        os.chmod(path, 0o755)  # nginx workers run as nobody when started by root
        return path

    def note_pid(self, pid):
        """guard.sh's exit trap stops every process named here, should this script be killed."""
        with open(os.path.join(self.work, "pids"), "a") as f:
            f.write(f"{pid}\n")

    def measure(self, argv, statuses=(0,)):
        """Wall and user+sys CPU seconds of one run. Its standard error goes to a file (scan and
        inspect report findings there, once per blob), shown when the status is not the one expected."""
        stderr = os.path.join(self.work, "stderr")
        saved = os.dup(2)
        try:
            with open(stderr, "wb") as f:
                os.dup2(f.fileno(), 2)
            wall, cpu, _, status = upload_bench.measured(argv, self.rss_file)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        if status not in statuses:
            with open(stderr, errors="replace") as f:
                raise RuntimeError(f"{' '.join(argv[:2])} exited with {status}: {f.read()[-500:].strip()}")
        return wall, cpu

    def alternate(self, run_one, label):
        """run_one(name, binary, round) -> {metric: seconds}. Returns {metric: {name: [per round]}}."""
        names = list(self.builds)
        results = {}
        for index in range(self.rounds):
            order = names if index % 2 == 0 else names[::-1]
            for name in order:
                for metric, value in run_one(name, self.builds[name], index).items():
                    results.setdefault(metric, {n: [] for n in names})[name].append(value)
            log(f"  {label} round {index + 1}/{self.rounds}: " + "; ".join(
                f"{metric} " + ", ".join(f"{n} {v[n][-1]:.3f}" for n in names) for metric, v in results.items()))
        return results


def needs(*tools):
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise Skip(f"needs {', '.join(missing)} (not installed)")


def help_text(binary, *command):
    result = subprocess.run([binary, *command, "--help"], capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def has_subcommand(binary, command):
    """`resumetool NAME --help` prints the root's help, status 0, for a NAME it does not know (an
    older build without `upload`): the usage line must name the command."""
    status, text = help_text(binary, command)
    return status == 0 and any(line.strip().startswith("USAGE: ") and f" {command}" in line.split("[", 1)[0]
                               for line in text.splitlines()), text


def require_subcommand(ctx, command, option=None):
    for name, binary in ctx.builds.items():
        known, text = has_subcommand(binary, command)
        if not known:
            raise Skip(f"{name} has no `{command}` command")
        if option and option not in text:
            raise Skip(f"{name}'s `{command}` has no {option}")


class ScaleNginx:
    """nginx as shared/bench/scale.sh configures it: 2 workers, TLS with a self-signed RSA-2048
    certificate for 127.0.0.1, sendfile, no access log, HTTP/1.1 only; on a free loopback port."""

    def __init__(self, ctx, root):
        prefix = ctx.folder("nginx")
        self.ca = os.path.join(prefix, "cert.pem")
        key = os.path.join(prefix, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", self.ca],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.port = transfer.free_port()
        conf = os.path.join(prefix, "nginx.conf")
        error_log = os.path.join(prefix, "error.log")
        with open(conf, "w") as f:
            f.write(f"daemon off; master_process on; worker_processes 2; pid {prefix}/nginx.pid; error_log {error_log};\n"
                    "events { worker_connections 64; }\n"
                    f"http {{ access_log off; sendfile on; client_body_temp_path {prefix}/body; "
                    f"proxy_temp_path {prefix}/proxy; fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; "
                    f"scgi_temp_path {prefix}/scgi; server {{ listen 127.0.0.1:{self.port} ssl; ssl_certificate {self.ca}; "
                    f"ssl_certificate_key {key}; root {root}; }} }}\n")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([nginx, "-p", prefix, "-c", conf, "-e", error_log],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ctx.note_pid(self.process.pid)
        for _ in range(500):
            try:
                transfer.socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.01)
        self.stop()
        with open(error_log) as f:
            raise RuntimeError("nginx did not start: " + f.read()[-500:])

    def url(self, name):
        return f"https://127.0.0.1:{self.port}/{name}"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: master and workers
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def downloads(ctx, goals):
    """scale.sh a and b: each build downloads once with one connection, then with four, per round."""
    needs("openssl")
    if shutil.which("nginx") is None and not os.path.exists("/usr/sbin/nginx"):
        raise Skip("needs nginx (not installed; apt-get install nginx-light)")
    require_subcommand(ctx, "download")
    size = ctx.args.download_mib * MIB
    root = ctx.folder("www")
    source = os.path.join(root, "f.bin")
    log(f"download: {ctx.args.download_mib} MiB of random bytes in {source}")
    digest = upload_bench.make_file(source, size)
    os.chmod(source, 0o644)
    out = ctx.folder("downloads")
    server = ScaleNginx(ctx, root)
    try:
        url = server.url("f.bin")
        variants = [(goal, ["--connections", "4"] if goal == "connections" else []) for goal in ("download", "connections")
                    if goal in goals]

        def run_one(name, binary, index):
            values = {}
            for goal, extra in variants:
                target = os.path.join(out, f"{name}-{goal}")
                wall, cpu = ctx.measure([binary, "download", url, "--cacert", server.ca, "-o", target, "--quiet", *extra])
                if os.path.getsize(target) != size:
                    raise RuntimeError(f"{name} {goal}: {os.path.getsize(target)} bytes, expected {size}")
                if index == 0 and upload_bench.sha256_of(target) != digest:
                    raise RuntimeError(f"{name} {goal}: the downloaded file differs from the source")
                for leftover in os.listdir(out):  # the file, and a .part or .resume had it failed
                    os.unlink(os.path.join(out, leftover))
                values[f"{goal} cpu"] = cpu
                values[f"{goal} wall"] = wall
            return values

        return ctx.alternate(run_one, "download")
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


def first_statuses(ctx, command):
    """One untimed run of each build (the page cache warmed, as the benchmarks beside this file
    warm it); its exit status, whatever the command's rules make it for these inputs (below 64),
    is what every timed run must give. 64 and above is a usage error or a signal: the goal ends."""
    statuses = {}
    for name, binary in ctx.builds.items():
        status = subprocess.run([binary, *command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if status < 0 or status >= 64:
            raise RuntimeError(f"{name}: `{command[0]}` exited with {status}")
        statuses[name] = status
    return statuses


def archive(ctx):
    """scale.sh c: `scan FILE.tar.gz --json` of make_archives.py --big N (wall; CPU beside it)."""
    generator = os.path.join(ctx.args.shared_bench, "make_archives.py")
    if not os.path.exists(generator):
        raise Skip(f"needs {generator} (set GUARD_SHARED_BENCH to the shared bench folder)")
    require_subcommand(ctx, "scan")
    folder = ctx.folder("archive")
    path = os.path.join(folder, "big.tar.gz")
    log(f"archive: make_archives.py --big {ctx.args.archive_files}")
    with open(os.path.join(folder, "big.json"), "w") as listing:
        subprocess.run([sys.executable, generator, "--big", str(ctx.args.archive_files), path], check=True, stdout=listing)
    try:
        statuses = first_statuses(ctx, ["scan", path, "--json"])

        def run_one(name, binary, index):
            wall, cpu = ctx.measure([binary, "scan", path, "--json"], statuses=(statuses[name],))
            return {"archive wall": wall, "archive cpu": cpu}

        return ctx.alternate(run_one, "archive")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def inspect(ctx):
    """inspect.sh: `inspect --json` of the six good samples, COPIES copies each, named one by one."""
    samples = [os.path.join(REPO, "Samples", n) for n in INSPECT_SAMPLES]
    absent = [s for s in samples if not os.path.exists(s)]
    if absent:
        raise Skip(f"needs {', '.join(absent)}")
    require_subcommand(ctx, "inspect")
    folder = ctx.folder("blobs")
    for i in range(1, ctx.args.blob_copies + 1):
        for sample in samples:
            shutil.copyfile(sample, os.path.join(folder, f"{i}-{os.path.basename(sample)}"))
    names = [os.path.join(folder, n) for n in sorted(os.listdir(folder))]
    try:
        statuses = first_statuses(ctx, ["inspect", "--json", *names])

        def run_one(name, binary, index):
            wall, _ = ctx.measure([binary, "inspect", "--json", *names], statuses=(statuses[name],))
            return {"inspect wall": wall}

        return ctx.alternate(run_one, "inspect")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tasks(ctx):
    """tasks_bench.py's ledger and run: `tasks LEDGER --json` (wall; CPU beside it)."""
    if not os.path.exists(tasks_bench.GENERATOR):
        raise Skip(f"needs {tasks_bench.GENERATOR}")
    require_subcommand(ctx, "tasks")
    folder = ctx.folder("ledger")
    log(f"tasks: a {ctx.args.ledger_rows}-row ledger")
    subprocess.run([sys.executable, tasks_bench.GENERATOR, folder, "--version", "3", "--scenario", "bench",
                    "--rows", str(ctx.args.ledger_rows)], check=True, stdout=subprocess.DEVNULL)
    database = os.path.join(folder, tasks_bench.LEDGER)
    try:
        for binary in ctx.builds.values():
            tasks_bench.run(binary, database, "json")  # the page cache, as tasks_bench.py warms it

        def run_one(name, binary, index):
            wall, _, cpu = tasks_bench.run(binary, database, "json")
            return {"tasks wall": wall, "tasks cpu": cpu}

        return ctx.alternate(run_one, "tasks")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def upload(ctx):
    """upload_bench.py's server, file and check: `upload --quiet FILE URL` (wall; CPU beside it)."""
    server_binary = ctx.args.upload_server
    require_subcommand(ctx, "upload")
    if not server_binary or not os.access(server_binary, os.X_OK):
        raise Skip("needs UploadBenchServer (swift build -c release --package-path Benchmarks --product UploadBenchServer)")
    folder = ctx.folder("upload")
    stored = os.path.join(folder, "stored")
    os.makedirs(stored)
    source = os.path.join(folder, "source.bin")
    size = ctx.args.upload_mib * MIB
    log(f"upload: {ctx.args.upload_mib} MiB of random bytes in {source}")
    digest = upload_bench.make_file(source, size)
    server = upload_bench.Server(server_binary, stored)
    ctx.note_pid(server.process.pid)
    try:
        def run_one(name, binary, index):
            path = f"/{name}-{index}"
            mark = server.mark()
            wall, cpu = ctx.measure([binary, "upload", "--quiet", source, f"http://127.0.0.1:{server.port}{path}"])
            upload_bench.check_stored(server, mark, path, size, digest)
            return {"upload wall": wall, "upload cpu": cpu}

        return ctx.alternate(run_one, "upload")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def rows_of(args):
    """(goal, metric key, row title) in table order."""
    d, a, b, u = args.download_mib, args.archive_files, args.blob_copies * len(INSPECT_SAMPLES), args.upload_mib
    return [
        ("download", "download cpu", f"https download {d} MiB, one connection: user+sys CPU"),
        ("download", "download wall", f"https download {d} MiB, one connection: wall"),
        ("connections", "connections cpu", f"https download {d} MiB, --connections 4: user+sys CPU"),
        ("connections", "connections wall", f"https download {d} MiB, --connections 4: wall"),
        ("archive", "archive wall", f"scan .tar.gz of {a:,} files: wall"),
        ("archive", "archive cpu", f"scan .tar.gz of {a:,} files: user+sys CPU"),
        ("inspect", "inspect wall", f"inspect --json of {b:,} named blobs: wall"),
        ("tasks", "tasks wall", f"tasks --json, {args.ledger_rows:,}-row ledger: wall"),
        ("tasks", "tasks cpu", f"tasks --json, {args.ledger_rows:,}-row ledger: user+sys CPU"),
        ("upload", "upload wall", f"upload {u} MiB to a local server: wall"),
        ("upload", "upload cpu", f"upload {u} MiB to a local server: user+sys CPU"),
    ]


def seconds(value):
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.3f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="BASE's release binary")
    parser.add_argument("--head", required=True, help="HEAD's release binary")
    parser.add_argument("--base-label", default="BASE")
    parser.add_argument("--head-label", default="HEAD")
    parser.add_argument("--work", required=True, help="an empty folder for the inputs (removed by the caller)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threshold", type=float, default=5.0, help="per cent HEAD may be worse before a row is flagged")
    parser.add_argument("--warn-only", action="store_true", help="flags are warnings: exit 0 even when a row is flagged")
    parser.add_argument("--only", default=",".join(GOALS), help="comma-separated goals: " + ", ".join(GOALS))
    parser.add_argument("--download-mib", type=int, default=512)
    parser.add_argument("--archive-files", type=int, default=20_000)
    parser.add_argument("--blob-copies", type=int, default=500)
    parser.add_argument("--ledger-rows", type=int, default=10_000)
    parser.add_argument("--upload-mib", type=int, default=512)
    parser.add_argument("--upload-server", help="UploadBenchServer's release binary")
    parser.add_argument("--shared-bench", default=os.path.join(REPO, "..", "shared", "bench"))
    args = parser.parse_args()
    goals = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = [g for g in goals if g not in GOALS]
    if unknown or args.rounds < 1:
        parser.error(f"unknown goal {', '.join(unknown)} (known: {', '.join(GOALS)})" if unknown else "--rounds must be >= 1")
    # guard.sh's trap sends SIGTERM; the finally blocks stop the servers.
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda received, _: sys.exit(128 + received))

    ctx = Context(args)
    load_before = os.getloadavg()
    started = time.monotonic()
    results, outcome = {}, {}  # outcome: goal -> None (ran), "skipped: ...", "error: ..."
    steps = [("download", lambda covered: downloads(ctx, covered)), ("archive", lambda _: archive(ctx)),
             ("inspect", lambda _: inspect(ctx)), ("tasks", lambda _: tasks(ctx)), ("upload", lambda _: upload(ctx))]
    for goal, step in steps:
        covered = ["download", "connections"] if goal == "download" else [goal]
        covered = [g for g in covered if g in goals]
        if "connections" in covered:
            try:
                require_subcommand(ctx, "download", "--connections")
            except Skip as skip:  # the one-connection rows can still run
                outcome["connections"] = f"skipped: {skip}"
                log(f"connections: skipped: {skip}")
                covered.remove("connections")
        if not covered:
            continue
        try:
            results.update(step(covered))
            verdict = None
        except Skip as skip:
            verdict = f"skipped: {skip}"
        except (RuntimeError, subprocess.CalledProcessError, OSError, SystemExit) as error:
            if isinstance(error, SystemExit) and error.code in (128 + signal.SIGTERM, 128 + signal.SIGHUP):
                raise
            verdict = f"error: {error}"
        for g in covered:
            outcome[g] = verdict
        if verdict:
            log(f"{goal}: {verdict}")
    load_after = os.getloadavg()

    print(f"\n### Benchmark guard: {args.head_label} against {args.base_label}\n")
    print(f"{args.rounds} round{'s' if args.rounds != 1 else ''}, the two builds taking turns in every round (order flipping); medians; "
          f"a row is flagged when HEAD/BASE > {1 + args.threshold / 100:.2f}. "
          f"{os.cpu_count()} CPUs, load average {load_before[0]:.1f} before, {load_after[0]:.1f} after; "
          f"{time.monotonic() - started:.0f} s.\n")
    print("| goal | BASE median | HEAD median | HEAD/BASE | per-round ratios min – max | verdict |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    flagged, failed = [], False
    for goal, key, title in rows_of(args):
        if goal not in goals:
            continue
        verdict = outcome.get(goal)
        if verdict:
            failed = failed or verdict.startswith("error")
            print(f"| {title} | – | – | – | – | **{verdict}** |")
            continue
        base, head = results[key]["BASE"], results[key]["HEAD"]
        if statistics.median(base) <= 0 or 0 in base:  # /usr/bin/time -v resolves 10 ms only
            print(f"| {title} | {seconds(statistics.median(base))} | {seconds(statistics.median(head))} | – | – "
                  f"| too small to compare |")
            continue
        ratio = statistics.median(head) / statistics.median(base)
        per_round = [h / b for b, h in zip(base, head)]
        worse = ratio > 1 + args.threshold / 100
        if worse:
            flagged.append(title)
        print(f"| {title} | {seconds(statistics.median(base))} | {seconds(statistics.median(head))} | {ratio:.3f} "
              f"| {min(per_round):.3f} – {max(per_round):.3f} | {'**FLAGGED: HEAD slower**' if worse else 'ok'} |")
    print()
    if flagged:
        print(f"{len(flagged)} row(s) flagged" + (" (warnings only: GUARD_WARN_ONLY)" if args.warn_only else "") +
              ". Rerun on a quiet machine, or with more rounds, before concluding: the per-round spread says how far "
              "noise alone moves the ratio.")
    else:
        print("No row flagged.")
    if failed:
        return 2
    return 1 if flagged and not args.warn_only else 0


if __name__ == "__main__":
    sys.exit(main())
