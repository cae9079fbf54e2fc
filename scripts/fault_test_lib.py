"""Helpers of scripts/fault-test: a browser-like HTTP client with a cookie jar, the create view's
form, request bodies, server instances, a throwaway PostgreSQL cluster and reading the `objects`
table. Standard library only; loopback only."""

import http.client
import json
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import tempfile
import threading
import time
import uuid
import zlib
from html.parser import HTMLParser

from server_port import NoPort, wait_for_port

HOST = "127.0.0.1"
# A request's time limit: what a loaded two-core machine may need for a create with a file, with
# a dozen others at once; a request that takes longer is taken for a hang.
TIMEOUT = 30.0
FORM_ID = "new-issue"
OBJECT_PATH = re.compile(r"/forms/new-issue/([0-9a-fA-F-]{36})$")
API_PATH = re.compile(r"/api/forms/new-issue/objects/([0-9a-fA-F-]{36})$")
BODY_ID = re.compile(rb'"id"\s*:\s*"([0-9a-fA-F-]{36})"')
FILE_LINK = re.compile(r'href="(/forms/new-issue/[0-9a-fA-F-]{36}/files/[^"?#]+)"')


def now():
    return time.monotonic()


def free_port():
    """A port nothing listens on now, for PostgreSQL, which cannot be told to take any free port
    and say which (`fieldwork serve` is started with port 0 and says which it got)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# MARK: HTTP


class Answer:
    """One request and how it ended: a status, or an error (refused, reset, timeout)."""

    __slots__ = ("role", "instance", "method", "path", "status", "headers", "body", "error", "start", "end")

    def __init__(self, role, instance, method, path):
        self.role, self.instance, self.method, self.path = role, instance, method, path
        self.status, self.headers, self.body, self.error = None, {}, b"", None
        self.start = self.end = now()

    @property
    def elapsed(self):
        return self.end - self.start

    @property
    def location(self):
        return self.headers.get("location", [""])[0]

    def outcome(self):
        return str(self.status) if self.status is not None else self.error

    def object_id(self):
        """The object a 303 (browser) or 201 (API) names, lowercase, or None: its Location,
        else (an API answer) its body's "id"."""
        loc = self.location.split("?")[0]
        m = OBJECT_PATH.search(loc) or API_PATH.search(loc)
        if m:
            return m.group(1).lower()
        if self.status in (200, 201) and self.body:
            m = BODY_ID.search(self.body)
            return m.group(1).decode().lower() if m else None
        return None


class Browser:
    """A simulated browser: one cookie jar for every instance (cookies are per host, not per
    port, as in a real browser), requests with a timeout, no redirects followed."""

    def __init__(self, name):
        self.name = name
        self.cookies = {}
        self.lock = threading.Lock()

    def cookie_header(self):
        with self.lock:
            return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def take_cookies(self, headers):
        with self.lock:
            for line in headers.get("set-cookie", []):
                pair = line.split(";", 1)[0]
                if "=" not in pair:
                    continue
                k, v = pair.split("=", 1)
                attrs = line.lower()
                if v == "" or "max-age=0" in attrs:
                    self.cookies.pop(k.strip(), None)
                else:
                    self.cookies[k.strip()] = v.strip()

    def send(self, instance, method, path, body=None, headers=None, role="", timeout=TIMEOUT):
        a = Answer(role, instance.name, method, path)
        hdrs = dict(headers or {})
        cookie = self.cookie_header()
        if cookie:
            hdrs["Cookie"] = cookie
        conn = http.client.HTTPConnection(HOST, instance.port, timeout=timeout)
        a.start = now()
        try:
            conn.request(method, path, body=body, headers=hdrs)
            resp = conn.getresponse()
            a.body = resp.read()
            a.status = resp.status
            for k, v in resp.getheaders():
                a.headers.setdefault(k.lower(), []).append(v)
            self.take_cookies(a.headers)
        except socket.timeout:
            a.error = "timeout"
        except ConnectionRefusedError:
            a.error = "refused"
        except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
            a.error = "reset"
        except (OSError, http.client.HTTPException) as e:
            a.error = type(e).__name__
        finally:
            a.end = now()
            conn.close()
        return a


# MARK: The create view


class CreateView(HTMLParser):
    """The create form of a page: every hidden input (whatever the server adds: `_csrf`,
    `_prefill`, a one-time token...), the options of each select and the radio values."""

    def __init__(self, html, action):
        super().__init__(convert_charrefs=True)
        self.action, self.found, self.inside = action, False, False
        self.enctype, self.hidden, self.selects, self.radios = "", [], {}, {}
        self._select = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.inside = a.get("action") == self.action
            if self.inside:
                self.found, self.enctype = True, a.get("enctype", "")
            return
        if not self.inside:
            return
        if tag == "input" and a.get("type", "").lower() == "hidden" and "name" in a:
            self.hidden.append((a["name"], a.get("value", "")))
        elif tag == "input" and a.get("type", "").lower() == "radio" and "name" in a:
            self.radios.setdefault(a["name"], []).append(a.get("value", "on"))
        elif tag == "select":
            self._select = a.get("name")
            self.selects.setdefault(self._select, [])
        elif tag == "option" and self._select and a.get("value"):
            self.selects[self._select].append(a["value"])

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None


def png(marker):
    """A 1x1 PNG that carries the marker in a tEXt chunk, so every upload's bytes are its own."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
        + chunk(b"tEXt", b"Comment\x00" + marker.encode())
        + chunk(b"IDAT", zlib.compress(b"\x00\x20\x80\xc0"))
        + chunk(b"IEND", b"")
    )


def urlencoded(pairs):
    from urllib.parse import urlencode

    return "application/x-www-form-urlencoded", urlencode(pairs).encode()


def multipart(pairs, files):
    boundary = "----fieldworkfault" + uuid.uuid4().hex
    out = []
    for name, value in pairs:
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
        out.append(value.encode() + b"\r\n")
    for name, filename, ctype, data in files:
        out.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: {ctype}\r\n\r\n".encode()
        )
        out.append(data + b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(out)


# MARK: Processes


class Instance:
    """One `fieldwork serve` process on a data folder, restartable; each start on a port of the
    kernel's choosing (port 0), read from its log by `wait_ready`. Requests sent meanwhile go to
    the previous start's port, where nothing listens any more, as they would to a killed instance."""

    def __init__(self, name, binary, resources, data, env, log_path):
        self.name, self.binary, self.resources, self.data = name, binary, resources, data
        self.env, self.log_path = env, log_path
        self.port = None
        self.proc = None
        self.starts = 0
        self.log_offset = 0

    def start(self):
        os.makedirs(self.data, exist_ok=True)
        env = dict(os.environ)
        for k in list(env):
            if k.startswith("FIELDWORK_"):
                del env[k]
        env.update(self.env)
        env.update(FIELDWORK_RESOURCES=self.resources, FIELDWORK_DATA=self.data)
        log = open(self.log_path, "ab")
        log.write(f"\n---- start {self.starts + 1} of {self.name}\n".encode())
        log.flush()
        self.log_offset = log.tell()
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--hostname", HOST, "--port", "0"],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()
        self.starts += 1
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def wait_ready(self, timeout=120.0):
        """True once this start said its port (then `self.port`) and GET / answers 200 there; False
        when the process exits or time runs out."""
        deadline = now() + timeout
        try:
            self.port = wait_for_port(self.log_path, self.proc, timeout, self.log_offset)
        except NoPort:
            return False
        probe = Browser("probe")
        while now() < deadline:
            if not self.alive():
                return False
            if probe.send(self, "GET", "/", timeout=10.0).status == 200:
                return True
            time.sleep(0.1)
        return False

    def kill(self):
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()

    def first_error(self):
        """The first error line of the last start's log, shortened."""
        try:
            with open(self.log_path, "rb") as f:
                text = f.read().decode("utf-8", "replace").split("\n---- start ")[-1].splitlines()
        except OSError:
            return ""
        marks = (" error ", " critical ", "Error", "Fatal error", "Assertion failed", "Program crashed")
        return next((t for t in text if any(m in t for m in marks)), "")[:400]

    def log_tail(self, lines=15):
        """The first error line of the last start, then the log's last lines."""
        first = self.first_error()
        return ("    first error: " + first + "\n" if first else "") + self._tail(lines)

    def _tail(self, lines):
        try:
            with open(self.log_path, "rb") as f:
                text = f.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return ""
        return "\n".join("    | " + line for line in text[-lines:])


# MARK: Sockets, as Linux shows them


def _tcp_rows():
    """The IPv4 TCP sockets of /proc/net/tcp: (local, remote, state, unread bytes, inode)."""
    rows = []
    with open("/proc/net/tcp") as f:
        next(f)
        for line in f:
            parts = line.split()
            rows.append((parts[1], parts[2], parts[3], int(parts[4].split(":")[1], 16), parts[9]))
    return rows


def _socket_inodes(pid):
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def _loopback(port):
    return f"0100007F:{port:04X}"  # 127.0.0.1 as /proc/net/tcp writes it


def _sockets(pid):
    """(IPv4 TCP sockets, the inodes of the sockets process `pid` holds); None when this system
    cannot tell (no /proc); no inodes when the process is gone."""
    try:
        rows = _tcp_rows()
    except (OSError, IndexError, ValueError, StopIteration):
        return None
    try:
        return rows, _socket_inodes(pid)
    except FileNotFoundError:
        return rows, set()
    except OSError:
        return None


def server_has_read(pid, server_port, client_port):
    """Whether process `pid` has accepted the connection from local port `client_port` to
    `server_port` and read all that was sent on it so far: True, False, or None when this system
    cannot tell (no /proc)."""
    found = _sockets(pid)
    if found is None:
        return None
    rows, inodes = found
    local, remote = _loopback(server_port), _loopback(client_port)
    # A connection still in the listen queue has inode 0 (no process holds it yet).
    return any(row[0] == local and row[1] == remote and row[3] == 0 and row[4] in inodes for row in rows)


def still_listening(pid, port):
    """Whether process `pid` still listens on `port`: True, False, or None when this system cannot
    tell (no /proc)."""
    found = _sockets(pid)
    if found is None:
        return None
    rows, inodes = found
    local = _loopback(port)
    return any(row[0] == local and row[2] == "0A" and row[4] in inodes for row in rows)


def postgres_bin():
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(os.path.realpath(found))
    cands = sorted(
        (d for d in (f"/usr/lib/postgresql/{v}/bin" for v in os.listdir("/usr/lib/postgresql"))
         if os.path.exists(os.path.join(d, "initdb"))),
        key=lambda d: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", d)],
    ) if os.path.isdir("/usr/lib/postgresql") else []
    return cands[-1] if cands else None


class Postgres:
    """A throwaway PostgreSQL cluster as scripts/with-postgres makes one (trust auth, loopback,
    a free port, as the `postgres` user when run as root), which this script can also stop and
    start again mid-run (on the same port: the instances' URLs name it)."""

    def __init__(self, root):
        self.bin = postgres_bin()
        if not self.bin:
            raise RuntimeError("no initdb/pg_ctl found (apt-get install postgresql)")
        self.dir = tempfile.mkdtemp(prefix="fieldwork-fault-pg-", dir=root)
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "server.log")
        self.port = free_port()
        self.running = False
        self.psql = os.path.join(self.bin, "psql") if os.path.exists(os.path.join(self.bin, "psql")) else "psql"
        if os.getuid() == 0:
            shutil.chown(self.dir, "postgres")
            os.chmod(root, 0o755)

    def _as_owner(self, cmd, timeout=400):
        if os.getuid() == 0:
            argv = ["su", "postgres", "-s", "/bin/sh", "-c", cmd]
        else:
            argv = ["sh", "-c", cmd]
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)

    def _pg_ctl(self, *args):
        q = shlex.quote
        opts = f"-p {self.port} -k {q(self.dir)} -c listen_addresses={HOST}"
        # -t: pg_ctl waits up to 60 s by default, which a loaded machine can need and more.
        return self._as_owner(
            f"{q(self.bin + '/pg_ctl')} -D {q(self.data)} -l {q(self.log)} -w -t 300 -o {q(opts)} " + " ".join(args))

    def init(self):
        q = shlex.quote
        r = self._as_owner(f"{q(self.bin + '/initdb')} -D {q(self.data)} -A trust -U postgres")
        if r.returncode != 0:
            raise RuntimeError("initdb failed:\n" + r.stdout + r.stderr)
        # A port found free can be taken before PostgreSQL binds it: then another is tried.
        for attempt in range(5):
            offset = self.log_size()
            try:
                self.start()
                return
            except RuntimeError:
                try:
                    with open(self.log, "rb") as f:
                        f.seek(offset)
                        taken = re.search(rb"could not bind|already in use", f.read())
                except OSError:
                    taken = None
                if attempt == 4 or not taken:
                    raise
                self.port = free_port()

    def start(self):
        r = self._pg_ctl("start")
        if r.returncode != 0:
            raise RuntimeError("pg_ctl start failed:\n" + r.stdout + r.stderr + self.log_tail())
        self.running = True

    def stop(self, mode="fast"):
        r = self._pg_ctl("-m", mode, "stop")
        self.running = r.returncode != 0 and self.running
        return r.returncode == 0

    def log_tail(self, lines=10):
        try:
            with open(self.log, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def log_size(self):
        try:
            return os.path.getsize(self.log)
        except OSError:
            return 0

    def errors_since(self, offset):
        """The ERROR lines (with their STATEMENT) PostgreSQL logged after `offset`."""
        try:
            with open(self.log, "rb") as f:
                f.seek(offset)
                lines = f.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return []
        return [line.split(" ", 3)[-1][:300] for line in lines if "ERROR:" in line or "STATEMENT:" in line]

    def url(self, db):
        return f"postgres://postgres@{HOST}:{self.port}/{db}"

    def sql(self, db, query):
        r = subprocess.run(
            [self.psql, "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", query, self.url(db)],
            capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"psql failed: {r.stderr.strip()}")
        return [line.split("\t") for line in r.stdout.splitlines() if line]

    def create_database(self, db):
        self.sql("postgres", f'CREATE DATABASE "{db}"')

    def destroy(self, remove=True):
        if self.running or os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self._pg_ctl("-m", "immediate", "stop")
        self.running = False
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)


# MARK: The store, read directly


def stored_objects_postgres(pg, db, prefix):
    """{title: [object id, ...]} for the objects whose title starts with the run's prefix."""
    rows = pg.sql(db, f"SELECT id::text, key_text FROM objects WHERE form_id = '{FORM_ID}' "
                      f"AND key_text LIKE '{prefix}%'")
    out = {}
    for oid, title in rows:
        out.setdefault(title, []).append(oid.lower())
    return out


def stored_objects_sqlite(path, prefix):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        rows = con.execute(
            "SELECT lower(CAST(id AS TEXT)), key_text FROM objects WHERE form_id = ? AND key_text LIKE ?",
            (FORM_ID, prefix + "%")).fetchall()
    finally:
        con.close()
    out = {}
    for oid, title in rows:
        out.setdefault(title, []).append(oid)
    return out


def json_body(pairs):
    return json.dumps(pairs).encode()
