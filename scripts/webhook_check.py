#!/usr/bin/env python3
"""The live half of scripts/webhook-check: see there. Needs `standardwebhooks` importable."""

import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_port import NoPort, wait_for_port  # noqa: E402

TOKEN = "webhook-check-token"
# The first retry comes after a random wait of at most FIRST_RETRY seconds (WebhookSchedule's
# `first`), and the delivery worker looks for due deliveries every POLL seconds
# (WebhookDeliveryService's `pollInterval`): the retry must follow the refusal within their sum
# and SLACK, what a loaded machine may add to the attempt's bookkeeping and sending.
FIRST_RETRY, POLL, SLACK = 10, 2, 8
RETRY_WITHIN = FIRST_RETRY + POLL + SLACK
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
        # The first delivery is refused: the retry must follow within RETRY_WITHIN.
        self.send_response(500 if first else 204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def call(base, method, path, body=None, kind="application/json", token=TOKEN):
    headers = {"Content-Type": kind} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
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
    env = dict(os.environ, FIELDWORK_DATA=data, FIELDWORK_ADMIN_TOKEN=TOKEN, FIELDWORK_ADMIN_PASSWORD="webhook-check")
    with open(log, "w") as out:
        server = subprocess.Popen([binary, "serve", "--hostname", "127.0.0.1", "--port", "0"],
                                  stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        try:
            port = wait_for_port(log, server)
        except NoPort as error:
            fail(str(error))
        base = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        while True:
            try:
                urllib.request.urlopen(base + "/health", timeout=10)
                break
            except Exception:
                if time.monotonic() - started > 120 or server.poll() is not None:
                    fail("the server did not answer /health within 120 s", log)
                time.sleep(0.1)
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
        # The first delivery is due at once (the worker is woken, or polls within POLL); then the
        # retry within RETRY_WITHIN. Waited for with room to spare: the check of the retry's
        # delay is the one below.
        wait = 2 * (POLL + SLACK) + RETRY_WITHIN
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and len(received) < 2:
            time.sleep(0.1)
        if len(received) < 2:
            fail(f"{len(received)} deliveries arrived in {wait} s, 2 expected", log)
        (first_at, first, first_body), (second_at, second, second_body) = received[:2]
        if second_at - first_at > RETRY_WITHIN:
            fail(f"the retry came {second_at - first_at:.1f} s after the refusal, more than the first retry's "
                 f"{FIRST_RETRY} s, the worker's {POLL} s poll and {SLACK} s to spare")
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
        # The receiver has answered 204; the server records the attempt after reading that answer,
        # so the list is asked until it says delivered (or the time is up).
        deadline = time.monotonic() + 30
        while True:
            status, text = call(base, "GET", "/api/forms/hook-check/webhooks")
            if status != 200:
                fail(f"the list answered {status}: {text}")
            listing = json.loads(text)
            delivery = listing["webhooks"][0]["deliveries"][0]
            if delivery["status"] == "delivered" or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        if delivery["status"] != "delivered" or delivery["attempts"] != 2:
            fail(f"the list says {delivery}")
        for place, content in [("the list API", text), ("the server log", open(log).read())]:
            if secret in content or secret[len("whsec_"):] in content:
                fail(f"the secret is in {place}")
        print(f"webhook-check: delivered after one refusal (retry {second_at - first_at:.1f} s later), "
              "signature verified by standardwebhooks and hmac; the secret in neither log nor list")
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        receiver.shutdown()


if __name__ == "__main__":
    main()
