#!/usr/bin/env python3
"""Hostile command lines through the built resumetool: every command, every option that takes a
value and every positional argument, given odd paths, names and numbers, one at a time beside
otherwise good arguments.

The commands and their options are read from the binary itself (`--experimental-dump-help`), so a
new option is fuzzed without editing this script. Each run happens in a fresh folder that holds a
blob, a partial file, a sub-folder and a checkpoint; network commands talk to a tiny HTTP server
on 127.0.0.1 and nothing else.

What is checked, whatever the value:
  * the process ends by itself with a status below 128 (no trap, no signal), and within the
    time limit (no hang);
  * a status of 0 or a refusal (1, 2 or 64), never a backtrace on standard error;
  * the devices it was pointed at (/dev/null, /dev/full, or, for root, nodes of the same devices
    in the run's folder) are still character devices, and the run's folder is never removed.

    Scripts/argument-fuzz.py --binary .build/release/resumetool          # every value
    Scripts/argument-fuzz.py --binary .build/debug/resumetool --short    # CI's short form

Exit status: 0 no violation, 1 violations (each printed), 2 the sweep could not run.
"""
import argparse
import http.server
import json
import os
import plistlib
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SAMPLES = os.path.join(ROOT, "Samples")
BLOB = "ios12-keyed-archive.resumedata"
PAYLOAD = bytes(range(256)) * 64

# Every value a person or a script might pass by mistake, or an attacker on purpose.
FULL = [
    "a", "-", ".", "..", "/", "SUBFOLDER", "x" * 300, "a\nb", "DEVFULL", "DEVNULL", "",
    "99999999999999999999999", "9223372036854775807", "-9223372036854775808", "-1", "0", "1e308",
    "nan", "inf", "\u202e", "%00", "/nonexistent/folder/file", "ftp://x", "http://", "http://[::1",
    "file:///etc/passwd", "a:b", "'", "--", "1k", "-5M",
]
SHORT = ["a", "-", ".", "SUBFOLDER", "x" * 300, "a\nb", "DEVFULL", "DEVNULL", "99999999999999999999999", "-1", "0"]

# DEVFULL and DEVNULL are /dev/full and /dev/null. Run as root, a command that renamed a file over
# them would replace the machine's own nodes (as an early build's `resume -o /dev/full` did), so
# root gets nodes of the same devices made in each run's folder instead.
DEVICES = {"DEVFULL": (1, 7), "DEVNULL": (1, 3)}

# Positional arguments walked by these values but only where the command does not then read the
# whole machine: a scan or recover of "/" or ".." is a long walk, not a bug.
WHOLE_TREE = {"/", ".."}

# More good command lines for the inputs a command reads besides a download blob: a Safari
# bundle, an upload blob and the file it sends. Only their positional arguments are walked (the
# options are the base's, walked there).
MORE_BASES = {
    "inspect": [["BUNDLE"], ["UPLOADBLOB"]],
    "validate": [["BUNDLE"], ["UPLOADBLOB"]],
    "explain": [["BUNDLE"], ["UPLOADBLOB", "--file", "UPLOADFILE"]],
    "resume": [["BUNDLE", "-o", "bundle.out", "--retries", "0"], ["UPLOADBLOB", "--file", "UPLOADFILE", "--retries", "0"]],
    "upload": [["UPLOADFILE", "SERVER", "--retries", "0"]],
}

# A good command line for each command; PLACEHOLDERS are filled in per run.
BASES = {
    "inspect": ["BLOB"],
    "validate": ["BLOB"],
    "explain": ["BLOB"],
    "edit": ["BLOB", "--url", "https://example.com/other.bin"],
    "convert": ["BLOB", "--to", "xml"],
    "repair": ["BLOB"],
    "rebuild": ["--partial", "PARTIAL", "--url", "SERVER", "--etag", '"t"'],
    "relocate": ["BLOB", "--temp-file", "CFNetworkDownload_new.tmp"],
    "discard": ["BLOB"],
    "plist print": ["BLOB"],
    "plist convert": ["--to", "json", "BLOB"],
    "archive": ["BLOB"],
    "scan": ["."],
    "tasks": ["BLOB"],
    "download": ["SERVER", "--retries", "0"],
    "resume": ["CHECKPOINT", "--retries", "0"],
    "recover": [".", "--retries", "0"],
    # The sweep's server answers POST with 501: the upload is refused, after no retry.
    "upload": ["PARTIAL", "SERVER", "--retries", "0"],
}
# Options whose value, when hostile, makes a command wait on purpose (a rate of 1 byte/s).
SLOW_OPTIONS = {"--limit-rate"}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(PAYLOAD)))
        self.send_header("ETag", '"t"')
        self.end_headers()
        self.wfile.write(PAYLOAD)

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(PAYLOAD)))
        self.send_header("ETag", '"t"')
        self.end_headers()

    def do_POST(self):
        """An upload's creation: the draft's 104 with a resume URL, then the connection closes,
        so `upload --retries 0` stops and keeps its checkpoint (the template's upload blob)."""
        self.wfile.write(b"HTTP/1.1 104 Upload Resumption Supported\r\nUpload-Draft-Interop-Version: 6\r\n"
                         b"Location: /up/1\r\n\r\n")
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args):
        pass


def leaves(command, prefix=()):
    """(path, arguments) of every command that runs something."""
    name = command["commandName"]
    path = prefix + ((name,) if prefix or name != "resumetool" else ())
    subcommands = [c for c in command.get("subcommands", []) if c["commandName"] != "help"]
    if subcommands:
        for sub in subcommands:
            yield from leaves(sub, path)
    else:
        yield " ".join(path), command.get("arguments", [])


def value_slots(arguments):
    """Each option that takes a value (its first long or short spelling), and each positional."""
    options, positionals = [], []
    for argument in arguments:
        if argument.get("shouldDisplay") is False and not argument.get("names"):
            continue
        kind = argument["kind"]
        names = argument.get("names", [])
        if kind == "option":
            spelled = [("--" if n["kind"] == "long" else "-") + n["name"] for n in names if n["kind"] in ("long", "short")]
            if spelled and spelled[0] not in ("--help", "--version"):
                options.append(spelled[0])
        elif kind == "positional":
            positionals.append(argument.get("valueName", "value"))
    return options, positionals


class Sweep:
    def __init__(self, binary, work, values, timeout, verbose):
        self.binary, self.work, self.values, self.timeout, self.verbose = binary, work, values, timeout, verbose
        self.runs = 0
        self.violations = []
        self.counter = 0
        # Command -> {exit status: runs}: what each command was given and how it answered.
        self.outcomes = {}

    def template(self, server):
        """The folder every run starts from: a blob, a partial file, a sub-folder, and a
        checkpoint of our own for the test server's file."""
        folder = os.path.join(self.work, "template")
        os.makedirs(os.path.join(folder, "SUBFOLDER"))
        shutil.copy(os.path.join(SAMPLES, BLOB), os.path.join(folder, "blob"))
        with open(os.path.join(folder, "partial"), "wb") as f:
            f.write(PAYLOAD[:1000])
        with open(os.path.join(folder, "got.bin.part"), "wb") as f:
            f.write(PAYLOAD[:1000])
        subprocess.run([self.binary, "rebuild", "--partial", os.path.join(folder, "got.bin.part"), "--url", server,
                        "--etag", '"t"', "-o", os.path.join(folder, "got.bin.resume")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=True)
        # A Safari bundle (modern layout) holding the first 1000 bytes of the server's file.
        os.makedirs(os.path.join(folder, "got.bin.download"))
        with open(os.path.join(folder, "got.bin.download", "Info.plist"), "wb") as f:
            plistlib.dump({"DownloadEntryURL": server, "DownloadEntryIdentifier": "5A4D2C1B-0000-4000-8000-000000000001"}, f)
        with open(os.path.join(folder, "got.bin.download", "got.bin"), "wb") as f:
            f.write(PAYLOAD[:1000])
        # An upload stopped after the server's 104: its blob and identity record beside the file.
        with open(os.path.join(folder, "upfile"), "wb") as f:
            f.write(PAYLOAD[:5000])
        subprocess.run([self.binary, "upload", "upfile", server, "--retries", "0", "--quiet"], cwd=folder,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        if not os.path.exists(os.path.join(folder, "upfile.uploadresume")):
            raise SystemExit("argument-fuzz: the template's upload left no blob")
        self.seeded = folder

    def seed(self, server):
        self.counter += 1
        folder = os.path.join(self.work, "run-%d" % self.counter)
        shutil.copytree(self.seeded, folder)
        return folder

    def devices(self, folder):
        """The device paths of this run: nodes in its folder for root, else the system's."""
        if os.geteuid() != 0:
            return {"DEVFULL": "/dev/full", "DEVNULL": "/dev/null"}
        paths = {}
        for name, (major, minor) in DEVICES.items():
            path = os.path.join(folder, name.lower())
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
            paths[name] = path
        return paths

    def fill(self, arguments, server, devices):
        table = {"BLOB": "blob", "PARTIAL": "partial", "SERVER": server, "CHECKPOINT": "got.bin.resume",
                 "BUNDLE": "got.bin.download", "UPLOADBLOB": "upfile.uploadresume", "UPLOADFILE": "upfile"}
        table.update(devices)
        return [table.get(a, a) for a in arguments]

    def run(self, name, template, server):
        folder = self.seed(server)
        devices = self.devices(folder)
        arguments = self.fill(template, server, devices)
        self.runs += 1
        line = [self.binary] + name.split() + arguments
        try:
            done = subprocess.run(line, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.violations.append("hang (over %ss): %r" % (self.timeout, line[1:]))
            return
        finally:
            for device in list(devices.values()) + ["/dev/null", "/dev/full"]:
                if not stat.S_ISCHR(os.lstat(device).st_mode):
                    self.violations.append("%s is no longer a character device after %r" % (device, line[1:]))
        error = done.stderr.decode("utf-8", "replace")
        tally = self.outcomes.setdefault(name, {})
        tally[done.returncode] = tally.get(done.returncode, 0) + 1
        if done.returncode < 0 or done.returncode >= 128:
            self.violations.append("signal/status %d: %r\n%s" % (done.returncode, line[1:], error[-2000:]))
        elif done.returncode not in (0, 1, 2, 64):
            self.violations.append("status %d: %r\n%s" % (done.returncode, line[1:], error[-2000:]))
        elif "Fatal error" in error or "Stack dump" in error or "Current stack trace" in error:
            self.violations.append("backtrace: %r\n%s" % (line[1:], error[-2000:]))
        elif self.verbose:
            print("ok %d %r" % (done.returncode, line[1:]))
        if not os.path.isdir(folder):
            self.violations.append("its folder was removed: %r" % (line[1:],))
        shutil.rmtree(folder, ignore_errors=True)

    def sweep(self, help_tree, server, only=None):
        commands = [name for name, _ in leaves(help_tree["command"])]
        for name in sorted(set(BASES) - set(commands)):
            # A base the binary no longer has: the values meant for it were never tried.
            self.violations.append("%r is in BASES but the binary has no such command: it was never fuzzed" % name)
        for name, arguments in leaves(help_tree["command"]):
            if only is not None and name not in only:
                continue
            if name not in BASES:
                self.violations.append("no base command line for %r: add it to BASES" % name)
                continue
            base = BASES[name]
            options, positionals = value_slots(arguments)
            for more in MORE_BASES.get(name, []):
                for value in self.values:
                    for index, token in enumerate(more):
                        if token.startswith("-") or (index > 0 and more[index - 1].startswith("-") and more[index - 1] != "--file"):
                            continue
                        self.run(name, more[:index] + [value] + more[index + 1:], server)
            for value in self.values:
                # Positionals: each placeholder of the base replaced in turn.
                for index, token in enumerate(base):
                    if token.startswith("-") or (index > 0 and base[index - 1].startswith("-")):
                        continue
                    if name in ("scan", "recover") and value in WHOLE_TREE:
                        continue
                    self.run(name, base[:index] + [value] + base[index + 1:], server)
                # Options: given the value, in place of the base's where it has one.
                for option in options:
                    if option in SLOW_OPTIONS:
                        continue
                    arguments = list(base)
                    if option in arguments:
                        arguments[arguments.index(option) + 1] = value
                    else:
                        arguments += [option, value]
                    self.run(name, arguments, server)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--short", action="store_true", help="fewer values (CI)")
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--commands", default=None, metavar="NAME,...", help="only these commands (e.g. inspect,plist print)")
    parser.add_argument("--min-runs", type=int, default=0, metavar="N",
                        help="fail when fewer than N command lines ran (the caller's floor)")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    dumped = subprocess.run([binary, "--experimental-dump-help"], stdout=subprocess.PIPE, check=False)
    if dumped.returncode != 0:
        print("argument-fuzz: %s --experimental-dump-help failed" % binary)
        return 2
    help_tree = json.loads(dumped.stdout)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/got.bin" % server.server_address[1]
    work = tempfile.mkdtemp(prefix="argument-fuzz-")
    try:
        sweep = Sweep(binary, work, SHORT if args.short else FULL, args.timeout, args.verbose)
        sweep.template(url)
        only = set(args.commands.split(",")) if args.commands else None
        sweep.sweep(help_tree, url, only)
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    # How many command lines each command ran, and how they ended: the evidence that it tested.
    for name, _ in leaves(help_tree["command"]):
        if only is not None and name not in only:
            continue
        tally = sweep.outcomes.get(name, {})
        print("argument-fuzz: %-14s %4d runs (%s)" % (name, sum(tally.values()),
              ", ".join("exit %d: %d" % item for item in sorted(tally.items())) or "none"))
        if not tally and name in BASES:
            sweep.violations.append("%r ran no command line" % name)
    if sweep.runs < args.min_runs:
        sweep.violations.append("%d runs, under the floor of %d (--min-runs)" % (sweep.runs, args.min_runs))
    for violation in sweep.violations:
        print("VIOLATION: " + violation)
    print("argument-fuzz: %d runs, %d violations" % (sweep.runs, len(sweep.violations)))
    return 1 if sweep.violations else 0


if __name__ == "__main__":
    sys.exit(main())
