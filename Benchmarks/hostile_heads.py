#!/usr/bin/env python3
"""How long the built resumetool takes to give up on a server whose answer's head never ends
(issue 23), on every HTTP path: plain http (the direct path), plain http with two connections
(AsyncHTTPClient's path), and https on both (the direct path's TLS since issue 24, and
AsyncHTTPClient's with two connections; a self-signed certificate given with --cacert). Each server answers every request with an endless stream of one kind:

  endless-100     "HTTP/1.1 100 Continue" heads, for ever
  endless-103     "103 Early Hints" heads of 20 KB each
  endless-head    one head whose header lines never end
  endless-blank   blank lines before any head

    python3 Benchmarks/hostile_heads.py --resumetool .build/release/resumetool [--runs 5]

Prints the median and spread of the wall time of `download URL --retries 0` and the error it
ended with; before issue 23, endless-100 took 60 s of full CPU per attempt on the client path.
"""
import argparse
import os
import socket
import ssl
import statistics
import subprocess
import tempfile
import threading
import time

KINDS = {
    "endless-100": b"HTTP/1.1 100 Continue\r\n\r\n" * 512,
    "endless-103": (b"HTTP/1.1 103 Early Hints\r\nLink: </" + b"a" * 20_000 + b">\r\n\r\n"),
    "endless-blank": b"\r\n" * 8192,
}


def serve(listener, kind, context=None):
    def answer(connection):
        try:
            if context:
                connection = context.wrap_socket(connection, server_side=True)
            connection.recv(65536)
            if kind == "endless-head":
                connection.sendall(b"HTTP/1.1 200 OK\r\n")
                chunk = b"X-Filler: " + b"a" * 100 + b"\r\n"
                while True:
                    connection.sendall(chunk * 64)
            chunk = KINDS[kind]
            while True:
                connection.sendall(chunk)
        except (OSError, ssl.SSLError):
            pass
        finally:
            connection.close()

    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=answer, args=(connection,), daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resumetool", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    args.resumetool = os.path.abspath(args.resumetool)
    work = tempfile.mkdtemp(prefix="hostile-heads-")
    key, cert = os.path.join(work, "key.pem"), os.path.join(work, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    print("| server | path | median | spread | error |")
    print("|---|---|---|---|---|")
    for kind in ("endless-100", "endless-103", "endless-head", "endless-blank"):
        for path, tls, extra in (("direct (http)", False, []), ("client (http, --connections 2)", False, ["--connections", "2"]),
                                 ("direct (https)", True, ["--cacert", cert]),
                                 ("client (https, --connections 2)", True, ["--cacert", cert, "--connections", "2"])):
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(16)
            port = listener.getsockname()[1]
            threading.Thread(target=serve, args=(listener, kind, context if tls else None), daemon=True).start()
            url = "%s://127.0.0.1:%d/file.bin" % ("https" if tls else "http", port)
            times, error = [], ""
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory() as folder:
                    start = time.monotonic()
                    done = subprocess.run([args.resumetool, "download", url, "-o", "out.bin", "--retries", "0"] + extra,
                                          cwd=folder, capture_output=True, timeout=300)
                    times.append(time.monotonic() - start)
                    error = done.stderr.decode(errors="replace").strip().splitlines()[-1] if done.stderr else "exit %d" % done.returncode
            listener.close()
            print("| %s | %s | %.2f s | %.2f–%.2f s | %s |" % (kind, path, statistics.median(times), min(times), max(times), error))


if __name__ == "__main__":
    main()
