#!/usr/bin/env python3
"""Slow clients against a real server: trickled heads and bodies are cut off by the request
deadlines, and other requests are answered meanwhile.

    python3 scripts/slow_clients.py BIN        # BIN: the fieldwork binary

Starts BIN on a loopback port of the kernel's choosing (`--port 0`, read from its log) with
FIELDWORK_HEAD_TIMEOUT=5, FIELDWORK_BODY_TIMEOUT=12 and FIELDWORK_BODY_MIN_RATE=1024, then at
once: 40 connections that trickle a request head a byte every half second, 10 that send a head
and trickle its body, 10 that open and send nothing, one upload sent at 2 KB/s for longer than the
body timeout (it earns time and must be answered), and a normal GET every 0.2 s on fresh
connections (each must answer 200). Each trickling connection must be closed by the server no
sooner than its deadline and within SLACK (6 s) after it; at least 3 normal GETs must be answered
meanwhile.

The bounds are for a loaded machine (another process keeping both cores busy), yet still tell the
two deadlines apart: the body deadline is more than HEAD + SLACK, so a trickled head held until
the body deadline is late, and a trickled body cut at the head deadline is early. A deadline not
enforced at all leaves connections open until the 25 s limit. Bounded: about 20 s (at most about
45). Standard library only.
"""

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_port import NoPort, wait_for_port  # noqa: E402

HEAD, BODY, RATE = 5.0, 12.0, 1024
# How long after its deadline a connection may still be open: the server's timer and this
# script's threads both wait for a busy machine. Less than BODY - HEAD, so the deadlines stay
# told apart (see above).
SLACK = 6.0
# How long a trickling connection is watched: past the body deadline and its slack.
LIMIT = BODY + SLACK + 7
# A normal request answered meanwhile: how long one may take on a loaded machine, and how many
# (at least) must be answered while the slow clients are connected.
GET_TIMEOUT = 10
MIN_SERVED = 3
# The steady upload: pieces of 2 KB a second apart (2 KB/s, twice the 1 KB/s floor), for longer
# than the body deadline.
PIECE, PIECES = 2048, int(BODY) + 4


def trickle(port: int, first: bytes, drip: bytes, interval: float, limit: float) -> float | None:
    """Sends `first`, then `drip` a byte at a time; the seconds until the server closed, or None
    when it was still open after `limit` seconds."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if first:
            s.sendall(first)
        i = 0
        while time.monotonic() - start < limit:
            try:
                s.settimeout(interval)
                if s.recv(4096) == b"":
                    return time.monotonic() - start
            except socket.timeout:
                pass
            except (ConnectionResetError, BrokenPipeError):
                return time.monotonic() - start
            try:
                if drip:
                    s.send(drip[i % len(drip) : i % len(drip) + 1])
                    i += 1
            except (ConnectionResetError, BrokenPipeError):
                return time.monotonic() - start
    return None


def steady_upload(port: int) -> str:
    """PIECES pieces of 2 KB a second apart (2 KB/s, over the 1 KB/s floor), taking longer than
    the body timeout; the status line the server answers with. Each piece earns two seconds, so
    the upload stays ahead of its deadline by BODY seconds even when a sleep runs late."""
    body = b"a=" + b"x" * (PIECE * PIECES - 2)
    head = (
        f"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(head)
        for i in range(0, len(body), PIECE):
            time.sleep(1.0)
            s.sendall(body[i : i + PIECE])
        answer = s.recv(4096)
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


def main() -> int:
    binary = sys.argv[1]
    data = tempfile.mkdtemp()
    env = dict(os.environ, FIELDWORK_DATA=data, FIELDWORK_ADMIN_PASSWORD="slow-clients-password",
               FIELDWORK_HEAD_TIMEOUT=str(HEAD), FIELDWORK_BODY_TIMEOUT=str(BODY), FIELDWORK_BODY_MIN_RATE=str(RATE))
    log = open(os.path.join(data, "server.log"), "w")
    server = subprocess.Popen([binary, "serve", "--hostname", "127.0.0.1", "--port", "0"],
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    failures: list[str] = []
    try:
        try:
            port = wait_for_port(log.name, server)
        except NoPort as error:
            return fail([str(error)])
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url, timeout=GET_TIMEOUT).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print(open(log.name).read())
                    return fail(["the server did not answer GET / within 120 s"])
                time.sleep(0.2)

        results: dict[str, list[float | None]] = {"head": [], "body": [], "idle": []}
        steady: list[str] = []
        lock = threading.Lock()

        def run(kind: str, first: bytes, drip: bytes) -> None:
            closed = trickle(port, first, drip, 0.5, LIMIT)
            with lock:
                results[kind].append(closed)

        head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        body_head = (b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                     b"Content-Length: 100000\r\n\r\n")
        threads = [threading.Thread(target=run, args=("head", b"", head + b"X-Slow: " + b"a" * 200)) for _ in range(40)]
        threads += [threading.Thread(target=run, args=("body", body_head, b"name=" + b"a" * 500)) for _ in range(10)]
        threads += [threading.Thread(target=run, args=("idle", b"", b"")) for _ in range(10)]
        threads.append(threading.Thread(target=lambda: steady.append(steady_upload(port))))
        for t in threads:
            t.start()

        served, slowest = 0, 0.0
        deadline = time.monotonic() + BODY + SLACK + 1
        while time.monotonic() < deadline:
            start = time.monotonic()
            try:
                status = urllib.request.urlopen(url, timeout=GET_TIMEOUT).status
            except OSError as error:
                failures.append(f"a normal GET / failed while slow clients were connected: {error}")
                break
            slowest = max(slowest, time.monotonic() - start)
            if status != 200:
                failures.append(f"a normal GET / answered {status}")
            served += 1
            time.sleep(0.2)
        for t in threads:
            t.join()

        for kind, allowed in (("head", HEAD), ("idle", HEAD), ("body", BODY)):
            times = results[kind]
            still_open = sum(1 for t in times if t is None)
            if still_open:
                failures.append(f"{still_open} of {len(times)} {kind} connections were still open after {LIMIT:g} s")
            closed = [t for t in times if t is not None]
            early = [t for t in closed if t < allowed - 0.1]
            late = [t for t in closed if t > allowed + SLACK]
            if early:
                failures.append(f"{kind}: {len(early)} closed before the {allowed} s deadline ({min(early):.2f} s)")
            if late:
                failures.append(f"{kind}: {len(late)} closed later than {allowed} + {SLACK} s ({max(late):.2f} s)")
            if closed:
                print(f"{kind}: {len(closed)} connections closed after {min(closed):.2f}-{max(closed):.2f} s "
                      f"(deadline {allowed} s)")
        print(f"normal requests meanwhile: {served} answered, slowest {slowest * 1000:.0f} ms")
        if served < MIN_SERVED:
            failures.append(f"only {served} normal requests were answered meanwhile")
        print(f"a {PIECE * PIECES // 1024} KB upload at 2 KB/s over {BODY} s: {steady[0] if steady else 'no answer'}")
        if not steady or not steady[0].startswith("HTTP/1.1 "):
            failures.append("an upload above the minimum rate was cut off instead of answered")
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return fail(failures)


def fail(failures: list[str]) -> int:
    for f in failures:
        print(f"slow-clients: {f}", file=sys.stderr)
    if not failures:
        print("slow-clients: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
