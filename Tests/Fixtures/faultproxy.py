#!/usr/bin/env python3
"""A TCP proxy in front of the test S3 server that misbehaves on request, for fault tests.

    faultproxy.py LISTEN_PORT UPSTREAM_PORT [--rate BYTES_PER_SECOND] [--fail N --status CODE]
                  [--drop-after BYTES]

--rate          slows what clients send to the server (so a test can act mid-upload)
--fail/--status answers the first N requests itself with CODE and an S3 error body
--drop-after    cuts the connection that takes what clients sent to the server past BYTES (once)
Prints "ready" on stdout once it listens.
"""
import argparse
import socket
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("listen", type=int)
parser.add_argument("upstream", type=int)
parser.add_argument("--rate", type=float, default=0)
parser.add_argument("--fail", type=int, default=0)
parser.add_argument("--status", type=int, default=503)
parser.add_argument("--drop-after", type=int, default=0)
options = parser.parse_args()
lock = threading.Lock()
state = {"failures_left": options.fail, "sent": 0, "dropped": False}


def answer_with_failure(client, first):
    data = first
    while b"\r\n\r\n" not in data:
        more = client.recv(65536)
        if not more:
            return
        data += more
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        more = client.recv(65536)
        if not more:
            return
        body += more
    xml = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code>'
           b"<Message>Please reduce your request rate.</Message></Error>")
    client.sendall(b"HTTP/1.1 %d Service Unavailable\r\nContent-Type: application/xml\r\nContent-Length: %d\r\n"
                   b"Connection: close\r\n\r\n" % (options.status, len(xml)) + xml)


def pump(source, target, upstream_bound, first=b""):
    """Copies source to target (beginning with `first`, already read); towards the server it
    counts every byte, the first read's too, for --drop-after and --rate."""
    sent = 0
    started = time.monotonic()
    try:
        while True:
            data = first or source.recv(65536)
            first = b""
            if not data:
                break
            target.sendall(data)
            sent += len(data)
            if upstream_bound and options.drop_after:
                with lock:
                    state["sent"] += len(data)
                    cut = not state["dropped"] and state["sent"] >= options.drop_after
                    state["dropped"] = state["dropped"] or cut
                if cut:
                    break
            if upstream_bound and options.rate > 0:
                ahead = sent / options.rate - (time.monotonic() - started)
                if ahead > 0:
                    time.sleep(ahead)
    except OSError:
        pass
    for end in (source, target):
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(client):
    first = client.recv(65536)
    with lock:
        failing = state["failures_left"] > 0
        if failing:
            state["failures_left"] -= 1
    if failing:
        answer_with_failure(client, first)
        client.close()
        return
    upstream = socket.create_connection(("127.0.0.1", options.upstream))
    threading.Thread(target=pump, args=(upstream, client, False), daemon=True).start()
    pump(client, upstream, True, first)


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", options.listen))
listener.listen(64)
print("ready", flush=True)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
