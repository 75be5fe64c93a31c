#!/usr/bin/env python3
"""Attacks a running pbemd's HTTP port the way issue 13 (findings 6 and 7) did, with raw
sockets on loopback, and checks that it keeps answering:
  slow:    25 slowloris heads and 25 idle kept-alive connections held open while GET /healthz
           answers 200 (20 times; the worst latency is printed, bounded only generously);
  framing: Content-Length abc / enormous / over the limit with a 10 MB body, Expect:
           100-continue with 1 GB declared, Content-Length with Transfer-Encoding, gzip: each
           answered (400/413/417/501, JSON naming the header) and never "100 Continue";
  flood:   MAX_CONNECTIONS connections held, then 300 more at once: every one answered 503 with
           Retry-After, none closed without an answer.
Usage: http_guard.py PATH_TO_PBEMD   starts pbemd on a free loopback port (temporary data
                                     directory, pbemd.http.max_connections=64), stops it after
       http_guard.py --port PORT MAX_CONNECTIONS   against a pbemd already running
Exit 0 when every check passes."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HOST = "127.0.0.1"
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: pbem\r\n\r\n"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def connect(port):
    s = socket.create_connection((HOST, port), timeout=10)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_answer(s, timeout=10.0):
    """(status, headers, body, raw) of one answer; status 0 when the connection closed (or the
    time ran out) before a complete one."""
    s.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                return 0, {}, b"", data
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(rest) < length:
            chunk = s.recv(65536)
            if not chunk:
                return 0, headers, rest, data
            rest += chunk
        return int(lines[0].split()[1]), headers, rest[:length], data
    except (socket.timeout, ConnectionResetError, ValueError, IndexError):
        return 0, {}, b"", data


def ask(port, request, timeout=10.0):
    s = connect(port)
    try:
        try:
            s.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered and closed before the whole request was sent: read the answer
        return read_answer(s, timeout)
    finally:
        s.close()


def slow(port):
    held = []
    for i in range(25):
        s = connect(port)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: pbem\r\nX-Slow: 1\r\n")
        held.append(s)
    for i in range(25):
        s = connect(port)
        s.sendall(HEALTHZ)
        status, _, _, _ = read_answer(s)
        check(status == 200, "idle client %d: its first /healthz answered 200" % i)
        held.append(s)
    worst = 0.0
    answered = 0
    for i in range(20):
        start = time.monotonic()
        status, _, body, _ = ask(port, HEALTHZ, timeout=10)
        worst = max(worst, time.monotonic() - start)
        answered += status == 200 and body == b'{"database":"up","status":"ok"}'
    print("figure: /healthz with 50 slow connections open: %d/20 answered 200, worst %.1f ms"
          % (answered, worst * 1000))
    check(answered == 20, "/healthz answered 200 20 times while 50 slow connections were open")
    check(worst < 5.0, "/healthz answered within 5 s each (generous bound)")
    return held


def framing(port):
    post = b"POST /v1/games/g/orders HTTP/1.1\r\nHost: pbem\r\n"
    cases = [
        ("Content-Length: abc", post + b"Content-Length: abc\r\n\r\n", 400, "Content-Length"),
        ("Content-Length: -1", post + b"Content-Length: -1\r\n\r\n", 400, "Content-Length"),
        ("enormous Content-Length", post + b"Content-Length: 99999999999999999999999\r\n\r\n",
         413, "Content-Length"),
        ("a 10 MB body", post + b"Content-Length: 10485760\r\n\r\n" + b"x" * 10485760, 413,
         "Content-Length"),
        ("Expect: 100-continue with 1 GB",
         post + b"Expect: 100-continue\r\nContent-Length: 1073741824\r\n\r\n", 413,
         "Content-Length"),
        ("Expect: something else", post + b"Expect: magic\r\nContent-Length: 1\r\n\r\nx", 417,
         "Expect"),
        ("Content-Length and Transfer-Encoding",
         post + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400,
         "Transfer-Encoding"),
        ("Transfer-Encoding: gzip", post + b"Transfer-Encoding: gzip\r\n\r\n", 501,
         "Transfer-Encoding"),
        ("chunked body over the limit", post + b"Transfer-Encoding: chunked\r\n\r\n200000\r\n",
         413, "chunked"),
    ]
    for name, request, expected, named in cases:
        status, headers, body, raw = ask(port, request)
        check(status == expected and named.encode() in body and b'"error"' in body
              and not raw.startswith(b"HTTP/1.1 100"),
              "%s: %d naming %s before the body (got %d %r)"
              % (name, expected, named, status, body[:120]))


def flood(port, max_connections, already_held):
    held = already_held
    while len(held) < max_connections:
        s = connect(port)
        s.sendall(b"GET /healthz HTTP/1.1\r\n")
        held.append(s)
    # The kernel hands connections to accept() in order: the held ones are taken first.
    extra = [connect(port) for _ in range(300)]
    answered = 0
    for s in extra:
        try:
            s.sendall(HEALTHZ)
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, headers, _, _ = read_answer(s)
        answered += status == 503 and "retry-after" in headers
        s.close()
    print("figure: flood of 300 connections beyond %d held: %d answered 503 + Retry-After"
          % (max_connections, answered))
    check(answered == 300, "every connection beyond the limit answered 503 with Retry-After")
    for s in held:
        s.close()


def attack(port, max_connections):
    held = slow(port)
    framing(port)
    flood(port, max_connections, held)
    status, _, _, _ = ask(port, HEALTHZ)
    tries = 0
    while status != 200 and tries < 600:  # the held connections are being closed (60 s)
        time.sleep(0.1)
        status, _, _, _ = ask(port, HEALTHZ)
        tries += 1
    check(status == 200, "/healthz answers 200 again after the flood")


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_pbemd(pbemd, work, max_connections):
    """(process, port) of a pbemd answering on loopback; retries when the port was taken."""
    for _ in range(5):
        port = free_port()
        log = open(os.path.join(work, "pbemd.log"), "w")
        process = subprocess.Popen(
            [pbemd, "-Dpbemd.data_dir=" + os.path.join(work, "data"),
             "-Dpbemd.http.address=" + HOST, "-Dpbemd.http.port=%d" % port,
             "-Dpbemd.http.max_connections=%d" % max_connections],
            stdout=log, stderr=subprocess.STDOUT)
        for _ in range(1200):  # up to 60 s: a loaded machine starts slowly
            if process.poll() is not None:
                break
            with open(os.path.join(work, "pbemd.log")) as f:
                if "event=listening" in f.read():
                    return process, port
            time.sleep(0.05)
        process.kill()
        process.wait()
    sys.exit("FAIL: pbemd did not start: " + open(os.path.join(work, "pbemd.log")).read())


def main():
    if sys.argv[1] == "--port":
        attack(int(sys.argv[2]), int(sys.argv[3]))
    else:
        work = tempfile.mkdtemp(prefix="pbem-http-guard-")
        process, port = start_pbemd(sys.argv[1], work, 64)
        try:
            attack(port, 64)
            check(process.poll() is None, "pbemd is still running")
            process.send_signal(signal.SIGTERM)
            check(process.wait(timeout=30) == 0, "pbemd stopped with status 0 on SIGTERM")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            if failures:
                print("--- pbemd log (last lines)")
                print("".join(open(os.path.join(work, "pbemd.log")).readlines()[-30:]))
            shutil.rmtree(work, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
