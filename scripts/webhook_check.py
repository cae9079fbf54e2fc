#!/usr/bin/env python3
"""The live half of scripts/webhook-check: see there. Needs `standardwebhooks` importable."""

import base64
import hashlib
import hmac
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook

TOKEN = "webhook-check-token"
SPEC = """<?xml version="1.0" encoding="UTF-8"?>
<form xmlns="urn:fieldwork:form:1" id="hook-check" title="Hook check" object="Check">
  <key><text name="title" placeholder="Title" required="true"/></key>
  <properties><number name="count" label="Count"/></properties>
</form>
"""

received = []
lock = threading.Lock()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            received.append((time.monotonic(), {k.lower(): v for k, v in self.headers.items()}, body))
            first = len(received) == 1
        # The first delivery is refused: the retry must follow within 10 s.
        self.send_response(500 if first else 204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, kind="application/json", token=TOKEN):
    headers = {"Content-Type": kind} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def fail(message, log=None):
    print(f"webhook-check: FAILED: {message}")
    if log:
        print(open(log).read()[-4000:])
    sys.exit(1)


def main():
    binary = sys.argv[1]
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook_url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks"
    data = tempfile.mkdtemp(prefix="fieldwork-webhooks-")
    log = os.path.join(data, "server.log")
    port = free_port()
    env = dict(os.environ, FIELDWORK_DATA=data, FIELDWORK_ADMIN_TOKEN=TOKEN, FIELDWORK_ADMIN_PASSWORD="webhook-check")
    with open(log, "w") as out:
        server = subprocess.Popen([binary, "serve", "--hostname", "127.0.0.1", "--port", str(port)],
                                  stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/health", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        else:
            fail("the server did not start", log)
        status, text = call(base, "POST", "/api/forms", SPEC, kind="application/xml")
        if status != 201:
            fail(f"import answered {status}: {text}")
        status, text = call(base, "POST", "/api/forms/hook-check/webhooks",
                            json.dumps({"url": hook_url, "events": ["created", "updated", "deleted"]}))
        if status != 201:
            fail(f"registration answered {status}: {text}")
        secret = json.loads(text)["secret"]
        status, text = call(base, "POST", "/api/forms/hook-check/objects",
                            json.dumps({"title": "Checked ünïcode <&>", "count": 3}))
        if status != 201:
            fail(f"create answered {status}: {text}")
        created = json.loads(text)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and len(received) < 2:
            time.sleep(0.1)
        if len(received) < 2:
            fail(f"{len(received)} deliveries arrived in 15 s, 2 expected", log)
        (first_at, first, first_body), (second_at, second, second_body) = received[:2]
        if second_at - first_at > 10.5:
            fail(f"the retry came {second_at - first_at:.1f} s after the refusal")
        if first["webhook-id"] != second["webhook-id"] or not first["webhook-id"].startswith("msg_"):
            fail("the retry has another webhook-id")
        key = base64.b64decode(secret[len("whsec_"):])
        for headers, body in [(first, first_body), (second, second_body)]:
            # The specification's library…
            payload = Webhook(secret).verify(body, headers)
            # …and the specification's words, with Python's hmac.
            signed = f'{headers["webhook-id"]}.{headers["webhook-timestamp"]}.'.encode() + body
            expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
            if not hmac.compare_digest(expected, headers["webhook-signature"]):
                fail("hmac disagrees with the signature")
            if payload["type"] != "object.created" or payload["data"]["id"] != created["id"]:
                fail(f"unexpected payload {payload}")
            if payload["data"]["values"] != created["values"]:
                fail("the payload's object is not the API's object")
        # A tampered body does not verify.
        try:
            Webhook(secret).verify(second_body.replace(b"Checked", b"Forged!"), second)
            fail("a tampered body verified")
        except Exception as error:
            if "tampered" in str(error):
                raise
        status, text = call(base, "GET", "/api/forms/hook-check/webhooks")
        listing = json.loads(text)
        delivery = listing["webhooks"][0]["deliveries"][0]
        if delivery["status"] != "delivered" or delivery["attempts"] != 2:
            fail(f"the list says {delivery}")
        for place, content in [("the list API", text), ("the server log", open(log).read())]:
            if secret in content or secret[len("whsec_"):] in content:
                fail(f"the secret is in {place}")
        print(f"webhook-check: delivered after one refusal (retry {second_at - first_at:.1f} s later), "
              "signature verified by standardwebhooks and hmac; the secret in neither log nor list")
    finally:
        server.terminate()
        server.wait(timeout=10)
        receiver.shutdown()


if __name__ == "__main__":
    main()
