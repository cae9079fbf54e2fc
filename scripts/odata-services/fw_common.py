"""Pieces both test services share: a threading WSGI server bound to 127.0.0.1, basic auth, and
the request log (GET /_log) the tests read. Standard library only."""

import base64
import json
import os
import socketserver
import sys
import threading
import time
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

CHANGING = {"POST", "PUT", "MERGE", "PATCH", "DELETE"}


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):  # the request log below is what tests read
        pass


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
