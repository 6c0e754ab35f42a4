#!/usr/bin/env python3
"""A slowloris from many addresses beside a probing client (BENCHMARKS.md "A slowloris from many addresses").

usage: slowloris.py PORT ADDRESSES PER_ADDRESS PROBES

Opens ADDRESSES x PER_ADDRESS connections to 127.0.0.1:PORT, from 127.0.2.1, 127.0.2.2, ... (loopback
addresses, so each counts under its own max_connections_per_ip), each sending the start of a request that
never ends; then a client on 127.0.0.99 sends PROBES requests for /healthz one after another (20 ms apart, each
on a new connection, 15 s timeout) and the latency percentiles are printed (a probe not answered 200 counts as
infinite). Every socket is closed at the end; nothing runs longer than PROBES x 15 s. Loopback only.
"""
import resource
import socket
import sys
import time


def main():
    port, naddr, per, nprobe = (int(a) for a in sys.argv[1:5])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = naddr * per + 64
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    held = []
    for a in range(naddr):
        for _ in range(per):
            s = socket.socket()
            s.bind((f"127.0.{2 + a // 250}.{1 + a % 250}", 0))
            s.setblocking(False)
            try:
                s.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            held.append(s)
    time.sleep(1.0)  # handshakes done (accepted or in the backlog)
    for s in held:
        try:
            s.send(b"GET /healthz HTTP/1.1\r\nHo")
        except OSError:
            pass
    time.sleep(0.5)
    lat = []
    for _ in range(nprobe):
        t = time.time()
        try:
            c = socket.socket()
            c.bind(("127.0.0.99", 0))
            c.settimeout(15)
            c.connect(("127.0.0.1", port))
            c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            ok = c.recv(100).startswith(b"HTTP/1.1 200")
            c.close()
            lat.append((time.time() - t) * 1000 if ok else float("inf"))
        except OSError:
            lat.append(float("inf"))
        time.sleep(0.02)
    for s in held:
        s.close()
    first = lat[0]
    lat.sort()
    pick = lambda q: lat[min(len(lat) - 1, int(len(lat) * q))]
    unanswered = sum(1 for x in lat if x == float("inf"))
    print(f"held {len(held)} from {naddr} addresses; {len(lat)} probes: first {first:.2f}, p50 {pick(0.5):.2f}, "
          f"p90 {pick(0.9):.2f}, p99 {pick(0.99):.2f}, max {lat[-1]:.2f} ms; unanswered {unanswered}")

if __name__ == "__main__":
    main()
