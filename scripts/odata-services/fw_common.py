"""Pieces both test services share: a threading WSGI server bound to 127.0.0.1, basic auth, and
the request log (GET /_log) the tests read. Standard library only."""

import base64
import json
import os
import socketserver
import sys
import threading
import time
from wsgiref.simple_server import ServerHandler, WSGIRequestHandler, WSGIServer, make_server

CHANGING = {"POST", "PUT", "MERGE", "PATCH", "DELETE"}


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


class _Body:
    """A request's body as the app sees it: at most Content-Length bytes of the connection, so
    that what the app leaves unread can be skipped before the next request on the connection."""

    def __init__(self, rfile, length):
        self.rfile, self.left = rfile, length

    def read(self, size=-1):
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.rfile.read(size) if size > 0 else b""
        self.left -= len(data)
        return data

    def readline(self, size=-1):
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.rfile.readline(size) if size > 0 else b""
        self.left -= len(data)
        return data

    def readlines(self, hint=-1):
        return list(iter(self.readline, b""))

    def __iter__(self):
        return iter(self.readline, b"")

    def drain(self):
        while self.left > 0 and self.read(65536):
            pass


class _KeepAliveServerHandler(ServerHandler):
    """wsgiref answers HTTP/1.0 and closes each connection; SAP Gateway and every production
    server keep it open (HTTP/1.1), which is what a client's connection pool relies on. Answers
    HTTP/1.1 and keeps the connection when the answer's length is known."""

    http_version = "1.1"
    keep = False

    def cleanup_headers(self):
        super().cleanup_headers()
        self.keep = "Content-Length" in self.headers and not self.request_handler.close_connection
        if not self.keep:
            self.headers["Connection"] = "close"


class QuietHandler(WSGIRequestHandler):
    """Serves one request after another on a connection (HTTP/1.1 keep-alive) until the client
    closes it, asks to close it, sends a body of unknown length, or is idle for two minutes."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    wbufsize = 65536  # an answer leaves in one write, flushed after each request
    timeout = 120

    def log_message(self, *args):  # the request log below is what tests read
        pass

    def handle_expect_100(self):
        answered = super().handle_expect_100()
        self.wfile.flush()
        return answered

    def handle(self):
        try:
            while self.handle_one():
                pass
        except (TimeoutError, ConnectionError):
            pass

    def handle_one(self):
        self.raw_requestline = self.rfile.readline(65537)
        if not self.raw_requestline:
            return False
        if len(self.raw_requestline) > 65536:
            self.requestline, self.request_version, self.command = "", "", ""
            self.send_error(414)
            return False
        if not self.parse_request():  # sets close_connection from the version and Connection
            return False
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
        try:
            length = max(0, int(self.headers.get("Content-Length") or 0))
        except ValueError:
            self.send_error(400, "Bad Content-Length")
            return False
        body = _Body(self.rfile, length)
        handler = _KeepAliveServerHandler(body, self.wfile, self.get_stderr(), self.get_environ(),
                                          multithread=False)
        handler.request_handler = self
        handler.run(self.server.get_app())
        self.wfile.flush()
        if not handler.keep or self.close_connection:
            return False
        body.drain()
        return True


def serve(make_app, port, name):
    """Binds 127.0.0.1:port (0: a free one), builds the app for the bound port, serves it."""
    httpd = make_server("127.0.0.1", port, None, server_class=ThreadingWSGIServer,
                        handler_class=QuietHandler)
    app = make_app(httpd.server_port)
    httpd.set_app(app)
    sys.stderr.write("%s listening on http://127.0.0.1:%d%s\n" % (name, httpd.server_port, getattr(app, "root", "/")))
    sys.stderr.flush()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


class RequestLog:
    """Every changing request (method, path, query, Repeatability headers, status), in order.
    GET /_log answers them as JSON; DELETE /_log empties the list; --log FILE appends JSON lines."""

    def __init__(self, path=None):
        self.entries = []
        self.lock = threading.Lock()
        self.path = path

    def add(self, environ, status):
        entry = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            "query": environ.get("QUERY_STRING", ""),
            "repeatabilityRequestId": environ.get("HTTP_REPEATABILITY_REQUEST_ID"),
            "repeatabilityFirstSent": environ.get("HTTP_REPEATABILITY_FIRST_SENT"),
            "ifMatch": environ.get("HTTP_IF_MATCH"),
            "status": int(status.split()[0]),
        }
        with self.lock:
            self.entries.append(entry)
            if self.path:
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(entry) + "\n")

    def app(self, environ, start_response):
        method = environ["REQUEST_METHOD"]
        if method == "DELETE":
            with self.lock:
                self.entries.clear()
            start_response("204 No Content", [])
            return [b""]
        with self.lock:
            body = json.dumps({"requests": list(self.entries)}, indent=1).encode()
        start_response("200 OK", [("Content-Type", "application/json"),
                                  ("Content-Length", str(len(body)))])
        return [body]


def credentials(args):
    user = args.user if args.user is not None else os.environ.get("ODATA_USER")
    password = args.password if args.password is not None else os.environ.get("ODATA_PASSWORD")
    if user is None:
        return None
    return (user, password or "")


def auth_ok(environ, creds):
    if creds is None:
        return True
    header = environ.get("HTTP_AUTHORIZATION", "")
    if not header.startswith("Basic "):
        return False
    try:
        given = base64.b64decode(header[6:]).decode("utf-8")
    except Exception:
        return False
    return given == "%s:%s" % creds


def read_body(environ):
    try:
        n = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        n = 0
    return environ["wsgi.input"].read(n) if n > 0 else b""


def add_common_args(parser, default_root):
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (printed on stderr)")
    parser.add_argument("--metadata", required=True, help="a corpus metadata file, used as it is")
    parser.add_argument("--seed", required=True, help="a JSON seed file: {entity set: [rows]}")
    parser.add_argument("--root", default=default_root, help="service root path (default %(default)s)")
    parser.add_argument("--user", default=None, help="require basic auth (or env ODATA_USER)")
    parser.add_argument("--password", default=None, help="(or env ODATA_PASSWORD)")
    parser.add_argument("--log", default=None, help="also append the request log to this file (JSON lines)")
