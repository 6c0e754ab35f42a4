"""A small client for arcpath's POST /v1/path, standard library only (urllib.request, json).

    from arcpath_client import ArcpathClient, ArcpathError
    client = ArcpathClient("http://127.0.0.1:8080")
    answer = client.path_query("arena", start=(3.5, 3.5), goal=(90.5, 88.5))
    print(answer["status"], answer["length"], len(answer["segments"]))

Errors are raised as typed exceptions carrying the wire error (README "Errors"):
ApiError (an HTTP error status: http_status, code, message, field), TransportError (no answer) and
BadAnswerError (an answer that is not arcpath's JSON), all subclasses of ArcpathError.
A 503 with Retry-After (the server's "overloaded") is retried after the advertised delay: at most
max_attempts requests per call and at most max_retry_wait seconds per wait.

A client holds no connection and no mutable state after construction: one instance may be shared by
threads.
"""
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request

__all__ = ["ArcpathClient", "ArcpathError", "ApiError", "TransportError", "BadAnswerError"]


class ArcpathError(Exception):
    """Base of the client's errors: http_status (0 when no answer arrived), code, message, field, attempts,
    map_version (a 422's: the map version that refused the start or goal; 0 when the error names none)."""

    def __init__(self, http_status, code, message, field="", attempts=1, map_version=0):
        super().__init__(f"{http_status} {code}: {message}" + (f" (field: {field})" if field else ""))
        self.http_status = http_status
        self.code = code
        self.message = message
        self.field = field
        self.attempts = attempts
        self.map_version = map_version


class ApiError(ArcpathError):
    """The server answered an HTTP error status with {"error": {"code", "message", "field", "map_version"}}."""


class TransportError(ArcpathError):
    """No answer: connection refused, timeout, DNS (code "transport")."""


class BadAnswerError(ArcpathError):
    """An answer that is not arcpath's JSON (code "bad_answer")."""


# Largest answer body read (the server's max_answer_bytes defaults to 32 MiB), as in the C client.
MAX_ANSWER_BYTES = 64 << 20


class _TooLarge(Exception):
    """An answer body past MAX_ANSWER_BYTES (a bad_answer: not arcpath's)."""


def _read_until(resp, deadline):
    """The body of resp, read before the time.monotonic() deadline (socket.timeout past it): the socket's
    own timeout bounds each read only, so a trickle of bytes would otherwise go on for ever. A body past
    MAX_ANSWER_BYTES (declared or sent) raises _TooLarge, so a stray server cannot fill the memory."""
    if (getattr(resp, "length", None) or 0) > MAX_ANSWER_BYTES:
        raise _TooLarge()
    chunks = []
    got = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        sock = getattr(getattr(getattr(resp, "fp", None), "raw", None), "_sock", None)
        if sock is not None:  # CPython's HTTPResponse: each read waits at most what is left
            sock.settimeout(left)
        chunk = resp.read1(65536)
        if not chunk:
            body = b"".join(chunks)
            if getattr(resp, "length", None):  # the connection ended before Content-Length bytes came
                raise http.client.IncompleteRead(body, resp.length)
            return body
        got += len(chunk)
        if got > MAX_ANSWER_BYTES:
            raise _TooLarge()
        chunks.append(chunk)


def _deadline_opener(deadline):
    """An opener whose connections are shut down at the time.monotonic() deadline, so the status line and the
    headers are bounded too (the socket's timeout bounds each read only: a server trickling its header lines
    a byte at a time held a 2 s request for 27 s, a helper's finding). Returns (opener, cancel)."""
    socks = []

    class Conn(http.client.HTTPConnection):
        def connect(self):
            super().connect()
            socks.append(self.sock)

    class SecureConn(http.client.HTTPSConnection):
        def connect(self):
            super().connect()
            socks.append(self.sock)

    class Handler(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(Conn, req)

    class SecureHandler(urllib.request.HTTPSHandler):
        def https_open(self, req):
            return self.do_open(SecureConn, req)

    def cut():
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(max(deadline - time.monotonic(), 0.0), cut)
    timer.daemon = True
    timer.start()
    return urllib.request.build_opener(Handler, SecureHandler), timer.cancel


class ArcpathClient:
    """Client for the server at base_url ("http://127.0.0.1:8080").

    timeout: seconds per request, the whole of it (connect, headers and body: a server that sends its
    answer a byte at a time is cut off too); max_attempts: requests per call (1 + the 503 retries, 1 … 10);
    max_retry_wait: the longest sleep, seconds, before a retry (the server asks for 1).
    """

    def __init__(self, base_url, timeout=10.0, max_attempts=3, max_retry_wait=10.0):
        if not base_url:
            raise ValueError("base_url must not be empty")
        self.path_url = base_url.rstrip("/") + "/v1/path"
        self.timeout = timeout
        self.max_attempts = min(max(int(max_attempts), 1), 10)
        self.max_retry_wait = max(float(max_retry_wait), 0.0)

    def path(self, request):
        """POST one /v1/path body (a dict) and return the 200 answer as a dict.

        The answer's "status" is "ok", "no_path" or "timeout" (README "POST /v1/path"); raises ApiError,
        TransportError or BadAnswerError otherwise.
        """
        body = json.dumps(request).encode("utf-8")
        for attempt in range(1, self.max_attempts + 1):
            req = urllib.request.Request(self.path_url, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
            deadline = time.monotonic() + self.timeout
            opener, cancel = _deadline_opener(deadline)
            try:
                try:
                    with opener.open(req, timeout=self.timeout) as resp:
                        raw = _read_until(resp, deadline)
                        return self._parse_answer(resp.status, raw, attempt)
                except urllib.error.HTTPError as e:
                    # the error body is read under the same deadline; a failure there is a transport error
                    error = self._parse_error(e.code, _read_until(e.fp, deadline) if e.fp else b"", attempt)
                    wait = self._retry_after(e)
                    if e.code != 503 or wait is None or attempt == self.max_attempts:
                        raise error from None
            except _TooLarge:  # (http_status 0, as the C client's: the answer was not taken)
                raise BadAnswerError(0, "bad_answer", "the answer is larger than the client's 64 MiB cap", "",
                                     attempt) from None
            except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
                # refused, timed out, cut off (IncompleteRead) or not HTTP at all (BadStatusLine)
                reason = getattr(e, "reason", None) or e
                if time.monotonic() >= deadline:  # (cut by the deadline's shutdown: say so)
                    reason = "timed out"
                raise TransportError(0, "transport", str(reason) or type(e).__name__, "", attempt) from None
            finally:
                cancel()
            time.sleep(min(wait, self.max_retry_wait))
        raise AssertionError("unreachable")

    def path_query(self, map, start, goal, unit=None, search=None, **extra):
        """The main query as arguments: map id, start and goal as (x, y) or (x, y, heading) in tiles and
        radians, unit as {"radius", "turning_radius", ...}, search as {"algorithm", ...}; any other
        /v1/path member (deadline_ms, samples) by keyword. Returns and raises as path()."""
        request = {"map": map, "start": _pose(start), "goal": _pose(goal)}
        if unit is not None:
            request["unit"] = unit
        if search is not None:
            request["search"] = search
        request.update(extra)
        return self.path(request)

    @staticmethod
    def _parse_answer(status, raw, attempt):
        try:
            answer = json.loads(raw)
        except (ValueError, RecursionError):  # (arrays nested a thousand deep: 2 KB raised RecursionError)
            answer = None
        if not isinstance(answer, dict) or not isinstance(answer.get("status"), str):
            raise BadAnswerError(status, "bad_answer", "the 200 answer is not a JSON object with a status",
                                 "", attempt)
        return answer

    @staticmethod
    def _parse_error(status, raw, attempt):
        try:
            err = json.loads(raw).get("error")
            version = err.get("map_version", 0)
            return ApiError(status, err["code"], err.get("message", ""), err.get("field", ""), attempt,
                            version if isinstance(version, int) and not isinstance(version, bool) else 0)
        except (ValueError, AttributeError, KeyError, TypeError, RecursionError):
            return BadAnswerError(status, "bad_answer", f"HTTP {status} without an arcpath error body", "",
                                  attempt)

    @staticmethod
    def _retry_after(http_error):
        """Seconds from Retry-After (delta-seconds form: digits), or None when absent or not that (a "nan"
        slept for NaN seconds and raised an untyped ValueError; a helper)."""
        value = http_error.headers.get("Retry-After") if http_error.headers else None
        value = value.strip() if value is not None else ""
        return float(value) if value.isdigit() and value.isascii() else None


def _pose(p):
    if isinstance(p, dict):
        return p
    pose = {"x": p[0], "y": p[1]}
    if len(p) > 2:
        pose["heading"] = p[2]
    return pose
