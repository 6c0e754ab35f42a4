"""A stand-in arcpath for the clients' 503 retry check (tests/clients/run.sh), on the standard library's
http.server, 127.0.0.1 only. Prints its port on the first line of stdout, then serves until killed:

- POST /v1/path with map "always_busy": always 503 overloaded with Retry-After: 0;
- POST /v1/path with map "busy_dated" or "busy_blank": always 503 overloaded with a Retry-After that is not
  delta-seconds (an HTTP-date in the past; an empty value), which the clients do not retry;
- POST /v1/path with map "busy_long": always 503 overloaded with a Retry-After of 401 digits (too many for a
  double: a wait that a client cuts to its longest);
- any other POST /v1/path: 503 overloaded (Retry-After: 0) and 200 with ANSWER in turn, starting with 503,
  so a client that retries once gets the answer;
- POST /v1/path with map "drip": a 200 whose body comes a byte every 0.3 s (20 bytes, then it stops);
- POST /v1/path with map "truncated": a 200 whose connection closes 14 bytes into its 100-byte body;
- POST /v1/path with map "slowhead": a 200 whose header lines come a byte every 0.3 s (for 6 s, then stops);
- POST /v1/path with map "badly_typed": a 200 whose JSON has members of the wrong type ("clear": "yes",
  "segments" an object);
- POST /v1/path with map "deep" / "deep_error": a 200 / a 500 whose JSON nests arrays 1,000 deep (2 KB);
- POST /v1/path with map "huge" / "huge_undeclared": a 200 of 64 MiB + 1 bytes, its Content-Length saying so /
  none (the body ends at the close), sent until the client stops reading;
- GET /count: the number of POSTs so far, as text.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = {"status": "ok", "map": "arena", "grid_cost": 2.0, "length": 2.0, "clear": True,
          "waypoints": [[3.5, 3.5], [5.5, 3.5]],
          "segments": [{"type": "line", "start": [3.5, 3.5], "end": [5.5, 3.5], "heading": 0.0, "length": 2.0}],
          "stats": {"expanded": 3, "lane": "fast", "queue_us": 0, "search_us": 1}}
OVERLOADED = {"error": {"code": "overloaded", "message": "the server is overloaded; retry later"}}


class Handler(BaseHTTPRequestHandler):
    posts = 0   # every POST
    others = 0  # POSTs of a map other than always_busy: odd ones get the 503

    def send(self, status, body, retry_after=None):
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        # said out loud: the stub answers HTTP/1.0 and closes; Mono's HttpClient otherwise sometimes tries
        # the closed connection again ("invalid or unrecognized response")
        self.send_header("Connection", "close")
        if retry_after is not None:
            self.send_header("Retry-After", retry_after)
        self.end_headers()
        self.wfile.write(data)

    def cut_short(self, drip):
        data = json.dumps(ANSWER).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data) if drip else 100))
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            if drip:
                for b in data[:20]:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(0.3)
            else:
                self.wfile.write(data[:14])
        except OSError:  # the client gave up: what the check wants
            pass

    def do_GET(self):
        if self.path == "/count":
            self.send(200, str(Handler.posts))
        else:
            self.send(404, {"error": {"code": "not_found", "message": "no such route"}})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Handler.posts += 1
        if self.path != "/v1/path":
            self.send(404, {"error": {"code": "not_found", "message": "no such route"}})
            return
        try:
            map_id = json.loads(body).get("map")
        except ValueError:
            map_id = None
        if map_id in ("drip", "truncated"):
            self.cut_short(map_id == "drip")
            return
        if map_id == "slowhead":
            try:
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                for b in b"X-Pad: " + b"a" * 13:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(0.3)
            except OSError:  # the client gave up: what the check wants
                pass
            self.close_connection = True
            return
        if map_id in ("huge", "huge_undeclared"):
            size = (64 << 20) + 1
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if map_id == "huge":
                self.send_header("Content-Length", str(size))
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b" " * 65536
            try:
                while size > 0:
                    self.wfile.write(chunk[:size])
                    size -= len(chunk)
            except OSError:  # the client stopped reading: what the check wants
                pass
            self.close_connection = True
            return
        if map_id == "badly_typed":
            self.send(200, dict(ANSWER, clear="yes", segments={"0": ANSWER["segments"][0]}))
            return
        if map_id in ("deep", "deep_error"):  # 2 KB of arrays nested 1,000 deep: Python raised RecursionError
            nested = "[" * 1000 + "]" * 1000
            if map_id == "deep":
                self.send(200, '{"status":"ok","x":' + nested + "}")
            else:
                self.send(500, '{"error":' + nested + "}")
            return
        if map_id in ("busy_dated", "busy_blank"):
            self.send(503, OVERLOADED, retry_after="Wed, 21 Oct 2015 07:28:00 GMT" if map_id == "busy_dated" else "")
            return
        if map_id == "busy_long":
            self.send(503, OVERLOADED, retry_after="1" + "0" * 400)
            return
        if map_id != "always_busy":
            Handler.others += 1
        if map_id == "always_busy" or Handler.others % 2 == 1:
            self.send(503, OVERLOADED, retry_after="0")
        else:
            self.send(200, ANSWER)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
