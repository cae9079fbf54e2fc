#!/usr/bin/env python3
"""The port a server started with `--port 0` bound, read from its log.

A port found free by binding a socket and closing it can be taken by another process before the
server binds it; `--port 0` lets the kernel choose one as the server binds, so nothing can take
it. The servers say which they got: `fieldwork serve` (Hummingbird, at log level info, in every
log format) `Server started and listening on 127.0.0.1:PORT`, the test services of
scripts/odata-services `NAME listening on http://127.0.0.1:PORT/ROOT`.

    python3 scripts/server_port.py LOG [PID] [--timeout SECONDS] [--offset BYTES]

prints the port once LOG (read from byte BYTES on) shows it. Exits 1, with the log's last lines on
standard error, when the process PID ends first or SECONDS pass (default 120: a loaded machine
starts a server slowly; a server that started returns at once). Importable: `wait_for_port`.
Standard library only.
"""

import argparse
import os
import re
import sys
import time

# The host part stops at a slash, a quote or a space (JSON and logfmt lines quote the message);
# its last `:digits` is the port.
LISTENING = re.compile(rb"listening on (?:https?://)?[^\s\"'/]+:(\d+)")


class NoPort(Exception):
    pass


def _running(process) -> bool:
    """Whether `process` (a subprocess.Popen, a pid, or None: not watched) is still running."""
    if process is None:
        return True
    if hasattr(process, "poll"):
        return process.poll() is None
    try:
        with open(f"/proc/{int(process)}/stat", "rb") as f:
            # The state follows the command name in parentheses; Z: exited, not yet reaped.
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        try:
            os.kill(int(process), 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True


def tail(log, lines=20) -> str:
    try:
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    return "\n".join("    | " + line for line in text[-lines:])


def _logged_port(log, offset):
    try:
        with open(log, "rb") as f:
            f.seek(offset)
            found = LISTENING.search(f.read())
    except FileNotFoundError:
        return None
    return int(found.group(1)) if found else None


def wait_for_port(log, process=None, timeout=120.0, offset=0) -> int:
    """The port the server logging to `log` (from byte `offset` on) listens on, once it says so.
    Raises NoPort when `process` ends first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        port = _logged_port(log, offset)
        if port is not None:
            return port
        if not _running(process):
            # It may have written the line just before it ended: look once more.
            port = _logged_port(log, offset)
            if port is not None:
                return port
            raise NoPort(f"the server ended before it said which port it listens on (log {log}):\n{tail(log)}")
        if time.monotonic() >= deadline:
            raise NoPort(f"no 'listening on' line in {log} within {timeout:g} s "
                         f"(LOG_LEVEL above info hides it):\n{tail(log)}")
        time.sleep(0.05)


def main() -> int:
    parser = argparse.ArgumentParser(description="The port a server started with --port 0 listens on, from its log.")
    parser.add_argument("log")
    parser.add_argument("pid", nargs="?", type=int, help="the server's process id: stop waiting when it ends")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--offset", type=int, default=0, help="read the log from this byte on")
    args = parser.parse_args()
    try:
        print(wait_for_port(args.log, args.pid, args.timeout, args.offset))
    except NoPort as error:
        print(f"server_port: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
