// A small client for arcpath's POST /v1/path: Node >= 18 (global fetch), no npm dependencies.
// Types for TypeScript users: arcpath-client.d.mts beside this file (the name TypeScript looks for beside an .mjs).
//
//   import { ArcpathClient, ArcpathError } from './arcpath-client.mjs';
//   const client = new ArcpathClient('http://127.0.0.1:8080');
//   const answer = await client.pathQuery({ map: 'arena', start: { x: 3.5, y: 3.5 }, goal: { x: 90.5, y: 88.5 } });
//
// Errors reject with ArcpathError {httpStatus, code, message, field, attempts, mapVersion}: the wire error of an HTTP
// error status (README "Errors"), or code "transport" (no answer, httpStatus 0) or "bad_answer" (not
// arcpath's JSON). A 503 with Retry-After (the server's "overloaded") is retried after the advertised
// delay: at most maxAttempts requests per call, at most maxRetryWaitMs per wait.
// A client keeps no per-call state: one instance may serve concurrent calls.

/** An error of the API or of the transport; `code` is the stable wire code. */
export class ArcpathError extends Error {
  constructor(httpStatus, code, message, field = '', attempts = 1, mapVersion = 0) {
    super(message);
    this.name = 'ArcpathError';
    this.httpStatus = httpStatus;
    this.code = code;
    this.field = field;
    this.attempts = attempts;
    this.mapVersion = mapVersion; // a 422's map_version (the map version that refused it); 0 when none
  }
}

/** Largest answer body read (the server's max_answer_bytes defaults to 32 MiB), as in the C client. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The body of res as text, or null when it passes MAX_ANSWER_BYTES (declared or sent; the rest not read). */
async function readCapped(res) {
  if (Number(res.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await res.body?.cancel();
    return null;
  }
  const chunks = [];
  let got = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      got += chunk.length;
      if (got > MAX_ANSWER_BYTES) {
        await res.body.cancel().catch(() => {});
        return null;
      }
      chunks.push(chunk);
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks)); // (as res.text(): a BOM dropped, bad bytes replaced)
}

export class ArcpathClient {
  /**
   * @param baseUrl the server, e.g. "http://127.0.0.1:8080"
   * @param options timeoutMs per request (10000; 1 … 2^31 - 1, the longest timer Node keeps), maxAttempts per
   *   call (3, 1 … 10), maxRetryWaitMs (10000); a value that is not a finite number takes the default
   *   (maxAttempts NaN retried without end), and so does a timeoutMs <= 0, as in the C client (0 aborted every
   *   request at once, a negative one threw: every call failed as transport)
   */
  constructor(baseUrl, { timeoutMs = 10000, maxAttempts = 3, maxRetryWaitMs = 10000 } = {}) {
    if (!baseUrl) throw new TypeError('baseUrl must not be empty');
    const finite = (v, dflt) => (Number.isFinite(Number(v)) ? Number(v) : dflt);
    this.pathUrl = `${String(baseUrl).replace(/\/+$/, '')}/v1/path`;
    // (above 2^31 - 1 Node's timer fires after 1 ms: every request aborted as it starts)
    const timeout = finite(timeoutMs, 10000);
    this.timeoutMs = timeout > 0 ? Math.min(timeout, 2 ** 31 - 1) : 10000;
    this.maxAttempts = Math.min(Math.max(Math.trunc(finite(maxAttempts, 3)), 1), 10);
    this.maxRetryWaitMs = Math.min(Math.max(finite(maxRetryWaitMs, 10000), 0), 2 ** 31 - 1);
  }

  /** POST one /v1/path body (an object); resolves with the 200 answer (status ok, no_path or timeout). */
  async path(request) {
    const body = JSON.stringify(request);
    for (let attempt = 1; ; attempt++) {
      let res, text;
      try {
        res = await fetch(this.pathUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        text = await readCapped(res);
      } catch (e) {
        throw new ArcpathError(0, 'transport', String(e.cause?.message ?? e.message), '', attempt);
      }
      if (text === null) // (httpStatus 0, as the C client's: the answer was not taken)
        throw new ArcpathError(0, 'bad_answer', "the answer is larger than the client's 64 MiB cap", '', attempt);
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (res.status === 200) {
        if (json === null || typeof json !== 'object' || typeof json.status !== 'string') {
          throw new ArcpathError(200, 'bad_answer', 'the 200 answer is not a JSON object with a status', '', attempt);
        }
        return json;
      }
      const err = json?.error;
      const error = typeof err?.code === 'string'
        ? new ArcpathError(res.status, err.code, err.message ?? '', err.field ?? '', attempt,
          Number.isSafeInteger(err.map_version) ? err.map_version : 0)
        : new ArcpathError(res.status, 'bad_answer', `HTTP ${res.status} without an arcpath error body`, '', attempt);
      // delta-seconds only (digits, what arcpath sends): an HTTP-date or an empty value (Number('') is 0:
      // it was retried at once) is no advice to retry, as in the other clients; digits too many for a number
      // (Infinity) are a long wait, cut to maxRetryWaitMs like any other (they went unretried)
      const retryAfter = (res.headers.get('retry-after') ?? '').trim();
      const wait = /^[0-9]+$/.test(retryAfter) ? Number(retryAfter) : NaN;
      if (res.status !== 503 || Number.isNaN(wait) || attempt >= this.maxAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait * 1000, this.maxRetryWaitMs)));
    }
  }

  /** The main query as named members: {map, start, goal, unit?, search?, ...any other /v1/path member}. */
  pathQuery({ map, start, goal, ...rest }) {
    return this.path({ map, start, goal, ...rest });
  }
}
