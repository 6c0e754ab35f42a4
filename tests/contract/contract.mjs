// contract.mjs — the contract test: README.md's request examples, proto/openapi.yaml's own request
// examples and the error catalogue (tests/contract/cases.json) replayed against real arcpathd processes;
// every answer is checked against proto/openapi.yaml (spec.mjs: documented status, Content-Type, headers,
// body schema) and against what the example or case promises (status, error code, field, headers, values).
//
// Run from the repository root by tests/contract/run.sh. Environment: ARCPATHD (default build/arcpathd);
// ARCPATH_MOVINGAI (default ../shared/data/movingai) for the examples on Moving AI maps, which are skipped
// when the folder is absent unless ARCPATH_REQUIRE_DATA=1 (CI), which makes that a failure. Prints one
// "ok"/"FAIL"/"SKIP" line per check and closes with "N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { answerProblems, readmeExamples } from './readme.mjs';
import { exchange, startServer } from './server.mjs';
import { loadSpec } from './spec.mjs';

const BIN = process.env.ARCPATHD || 'build/arcpathd';
const MAI_DIR = process.env.ARCPATH_MOVINGAI || '../shared/data/movingai';
const REQUIRE_DATA = process.env.ARCPATH_REQUIRE_DATA === '1';
const DEMO_DIR = 'config/maps';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let passed = 0, failed = 0, skipped = 0;
function report(name, problems) {
    if (problems.length === 0) {
        passed++;
        console.log(`ok   ${name}`);
    } else {
        failed++;
        console.log(`FAIL ${name}`);
        for (const p of problems) console.log(`     ${p}`);
    }
}
function skip(name, why) {
    skipped++;
    console.log(`SKIP ${name}: ${why}`);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arcpath-contract-'));
// The demo maps: grids (<id>.map) and circle worlds (<id>.circles.json).
const demoMaps = new Set(fs.readdirSync(DEMO_DIR).filter((f) => f.endsWith('.map') || f.endsWith('.circles.json'))
    .map((f) => f.replace(/\.(map|circles\.json)$/, '')));
const haveMai = fs.existsSync(MAI_DIR) && fs.statSync(MAI_DIR).isDirectory();

// ---- servers -----------------------------------------------------------------------------------------

const cases = JSON.parse(fs.readFileSync('tests/contract/cases.json', 'utf8'));
const serverDefs = cases.servers;
const running = new Map(); // name -> Promise<server>

/** The maps folder of a server definition: config/maps, or a temp folder of symlinks to the named maps. */
function mapsDirOf(name, def) {
    if (def.maps === 'demo') return DEMO_DIR;
    const dir = path.join(tmp, `maps-${name}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const id of def.maps) {
        const src = demoMaps.has(id) ? path.resolve(DEMO_DIR, `${id}.map`) : path.resolve(MAI_DIR, `${id}.map`);
        fs.symlinkSync(src, path.join(dir, `${id}.map`));
    }
    return dir;
}

function server(name) {
    if (!running.has(name)) {
        const def = serverDefs[name];
        if (!def) throw new Error(`no server "${name}" in cases.json`);
        running.set(name, startServer(BIN, mapsDirOf(name, def), def.env ?? {}));
    }
    return running.get(name);
}

/** The server for a request about map id (undefined: none): demo maps on "demo", the others on a
 * Moving AI server made for the maps the examples name. */
const maiMaps = new Set();
function serverForMap(id) {
    return id === undefined || demoMaps.has(id) ? 'demo' : 'movingai';
}
function mapOfText(text) {
    const m = /"map"\s*:\s*"([^"]+)"/.exec(text) ?? /\/v1\/maps\/([A-Za-z0-9_.-]+?)(?=\/cells\b|\.\w+\b|['"\s]|$)/.exec(text);
    return m ? m[1] : undefined;
}

// ---- checks ------------------------------------------------------------------------------------------

/** Does actual contain expected (objects: every expected key; arrays: same length, element-wise)? */
function subset(actual, expected, at, out) {
    if (expected !== null && typeof expected === 'object') {
        if (Array.isArray(expected)) {
            if (!Array.isArray(actual) || actual.length !== expected.length) {
                out.push(`${at}: want an array of ${expected.length}, got ${JSON.stringify(actual)?.slice(0, 200)}`);
                return;
            }
            expected.forEach((e, i) => subset(actual[i], e, `${at}[${i}]`, out));
            return;
        }
        if (actual === null || typeof actual !== 'object') {
            out.push(`${at}: want an object, got ${JSON.stringify(actual)?.slice(0, 200)}`);
            return;
        }
        for (const [k, e] of Object.entries(expected)) {
            if (e === null) {
                if (k in actual) out.push(`${at}.${k}: want absent, got ${JSON.stringify(actual[k])}`);
            } else {
                subset(actual[k], e, `${at}.${k}`, out);
            }
        }
        return;
    }
    if (actual !== expected) out.push(`${at}: want ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Every wire code seen in an answer (the error's, or batch items'), for the catalogue's coverage. */
const seenCodes = new Set();
function collectCodes(res) {
    let j;
    try { j = JSON.parse(res.body); } catch { return; }
    if (j?.error?.code) seenCodes.add(j.error.code);
    for (const it of Array.isArray(j?.results) ? j.results : []) if (it?.error?.code) seenCodes.add(it.error.code);
}

/** The operations ("METHOD /template") and components the exchanges were checked against. */
const covered = new Set();

/** The spec's verdict on an exchange plus what it promises: problems (empty: pass). */
function verify(spec, req, res, expect) {
    const problems = [];
    collectCodes(res);
    if (expect.status !== undefined) {
        if (res.status !== expect.status) problems.push(`status: want ${expect.status}, got ${res.status}: ${res.body.slice(0, 300)}`);
    } else if (res.status < 200 || res.status > 299) {
        problems.push(`status: want 2xx, got ${res.status}: ${res.body.slice(0, 300)}`);
    }
    const verdict = spec.check(req, res);
    covered.add(verdict.operation);
    for (const v of verdict.violations) problems.push(`spec (${verdict.operation}): ${v}`);
    if (req.body !== undefined && typeof req.body === 'string') {
        const op = spec.operation(req.method, req.path);
        if (op?.requestBody && expect.validRequest !== false) {
            let parsed;
            try { parsed = JSON.parse(req.body); } catch { parsed = undefined; }
            if (parsed === undefined) problems.push('request body is not JSON (an example must be a valid request)');
            else problems.push(...spec.checkRequestBody(op, parsed));
        }
    }
    for (const [name, want] of Object.entries(expect.headers ?? {})) {
        const got = res.headers[name.toLowerCase()];
        if (want === null ? got !== undefined : got !== want) problems.push(`header ${name}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
    if (expect.code !== undefined || expect.field !== undefined || expect.message !== undefined || expect.json !== undefined) {
        let j;
        try { j = JSON.parse(res.body); } catch { problems.push(`body is not JSON: ${res.body.slice(0, 200)}`); return problems; }
        if (expect.code !== undefined) subset(j?.error?.code, expect.code, 'error.code', problems);
        if (expect.field !== undefined) {
            if (expect.field === null) { if (j?.error && 'field' in j.error) problems.push(`error.field: want absent, got ${JSON.stringify(j.error.field)}`); }
            else subset(j?.error?.field, expect.field, 'error.field', problems);
        }
        if (expect.message !== undefined && !new RegExp(expect.message).test(j?.error?.message ?? '')) {
            problems.push(`error.message: want /${expect.message}/, got ${JSON.stringify(j?.error?.message)}`);
        }
        if (expect.json !== undefined) subset(j, expect.json, 'body', problems);
    }
    return problems;
}

// ---- README examples -----------------------------------------------------------------------------------

/** Run a README curl command as written (sh), against port. Resolves {req, res}. */
function runCurl(command, port) {
    const dir = fs.mkdtempSync(path.join(tmp, 'curl-'));
    const argsFile = path.join(dir, '.args'), bodyFile = path.join(dir, '.body');
    // A shell function named curl records the arguments as the shell parsed them and adds the test's
    // own options: the body to a file, the status and headers as JSON on stdout.
    const script = `curl() { printf '%s\\0' "$@" > '${argsFile}'; command curl -sS --max-time 120 -o '${bodyFile}' ` +
        `-w '{"code":%{http_code},"headers":%{header_json}}' "$@"; }\n` +
        command.replace(/\b(localhost|127\.0\.0\.1):8080\b/g, `127.0.0.1:${port}`) + '\n';
    const r = spawnSync('sh', ['-c', script], { cwd: dir, encoding: 'utf8', timeout: 150000 });
    if (r.status !== 0) throw new Error(`sh/curl exited ${r.status}: ${r.stderr}`);
    const info = JSON.parse(r.stdout);
    const headers = {};
    for (const [k, v] of Object.entries(info.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    const args = fs.readFileSync(argsFile, 'utf8').split('\0').slice(0, -1);
    let method, body, url;
    for (let i = 0; i < args.length; i++) {
        const a = args[i];
        if (a === '-X' || a === '--request') method = args[++i];
        else if (['-d', '--data', '--data-raw', '--data-binary', '--data-ascii'].includes(a)) body = (body === undefined ? '' : body + '&') + args[++i];
        else if (a === '-I' || a === '--head') method = method ?? 'HEAD';
        else if (/^(-H|--header|-o|--output|-w|--write-out|-u|--user|-A|--user-agent|-e|--referer|-b|--cookie|-m|--max-time)$/.test(a)) i++;
        else if (!a.startsWith('-') && new RegExp(`(^|//)127\\.0\\.0\\.1:${port}(/|$)`).test(a)) url = a;
    }
    if (url === undefined) throw new Error(`no URL on 127.0.0.1:8080 in: ${args.join(' ')}`);
    const reqPath = url.replace(/^(https?:\/\/)?127\.0\.0\.1:\d+/, '') || '/';
    return { req: { method: method ?? (body !== undefined ? 'POST' : 'GET'), path: reqPath, body },
        res: { status: info.code, headers, body: fs.readFileSync(bodyFile, 'utf8') } };
}

async function runExample(spec, ex) {
    const text = ex.kind === 'curl' ? ex.command : ex.body;
    const srvName = serverForMap(mapOfText(text));
    if (srvName === 'movingai' && !haveMai) {
        if (REQUIRE_DATA) report(ex.name, [`ARCPATH_REQUIRE_DATA=1 but the Moving AI folder ${MAI_DIR} is missing`]);
        else skip(ex.name, 'Moving AI data not found');
        return;
    }
    try {
        const srv = await server(srvName);
        let req, res;
        if (ex.kind === 'curl') {
            ({ req, res } = runCurl(ex.command, srv.port));
        } else {
            req = { method: ex.method, path: ex.path, body: ex.body };
            res = await exchange({ port: srv.port, method: ex.method, path: ex.path, headers: { 'Content-Type': 'application/json' }, body: ex.body });
        }
        report(ex.name, verify(spec, req, res, { status: ex.expect }));
        // A command that writes into docs/ made a file the README shows: it must be what the server draws now.
        const doc = ex.kind === 'curl' ? /\s-o\s+(docs\/\S+)/.exec(ex.command) : null;
        if (doc) {
            const kept = fs.existsSync(doc[1]) ? fs.readFileSync(doc[1], 'utf8') : null;
            report(`${ex.name}: ${doc[1]} is what the command makes now`,
                kept === null ? [`${doc[1]} is missing`]
                    : kept === res.body ? [] : [`${doc[1]} differs from the answer: run the command (make run) again`]);
        }
        if (ex.answer) {
            let problems;
            try {
                problems = answerProblems(ex.answer.text, JSON.parse(res.body), ex.answer.line);
            } catch (e) {
                problems = [`the answer is not JSON: ${e.message}`];
            }
            if (ex.answer.status !== undefined && res.status !== ex.answer.status)
                problems.unshift(`README.md:${ex.answer.line} shows status ${ex.answer.status}, the server answers ${res.status}`);
            report(`${ex.name}: the answer shown at README.md:${ex.answer.line} is the server's`, problems);
        }
    } catch (e) {
        report(ex.name, [String(e.stack ?? e)]);
    }
}

/** Every request example in the spec (requestBody example/examples) runs too: the spec's own promises. */
function specExamples(spec) {
    const out = [];
    for (const { method, path: p, operationId, operation } of spec.operations()) {
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
            if (type !== 'application/json') continue;
            const list = media.examples ? Object.entries(media.examples).map(([k, e]) => [k, e.value]) : media.example !== undefined ? [['example', media.example]] : [];
            for (const [k, value] of list) {
                out.push({ name: `openapi.yaml ${operationId} request example ${k}`, kind: 'json', method: method.toUpperCase(), path: p, body: JSON.stringify(value) });
            }
        }
    }
    return out;
}

// ---- the error catalogue (cases.json) ------------------------------------------------------------------

function caseBody(c) {
    if (c.body_fill !== undefined) return `{"map":"${'x'.repeat(c.body_fill)}"}`;
    if (c.body === undefined) return undefined;
    if (typeof c.body === 'string') return c.body;
    if (c.repeat_queries !== undefined) return JSON.stringify({ ...c.body, queries: Array(c.repeat_queries).fill(c.body.queries[0]) });
    return JSON.stringify(c.body);
}

async function send(port, c) {
    const body = caseBody(c);
    const req = { method: c.method, path: c.path, body };
    let headers = c.headers;
    if (c.header_fill !== undefined) headers = { ...headers, 'X-Pad': 'x'.repeat(c.header_fill) };
    if (c.if_none_match_from !== undefined) {
        const first = await exchange({ port, method: 'GET', path: c.if_none_match_from });
        headers = { ...headers, 'If-None-Match': first.headers.etag ?? '' };
    }
    const res = await exchange({ port, method: c.method, path: c.path, headers, body, setHost: c.set_host !== false, chunked: c.chunked === true });
    return { req, res };
}

/** The value of a sample `name{labels} value` in /metrics text, or undefined. */
function metric(text, sample) {
    for (const line of text.split('\n')) {
        if (line.startsWith(sample + ' ')) return Number(line.slice(sample.length + 1));
    }
    return undefined;
}

async function runCase(spec, c) {
    const name = `case ${c.name}`;
    const maps = serverDefs[c.server]?.maps;
    if (Array.isArray(maps) && maps.some((id) => !demoMaps.has(id)) && !haveMai) {
        if (REQUIRE_DATA) report(name, [`ARCPATH_REQUIRE_DATA=1 but the Moving AI folder ${MAI_DIR} is missing`]);
        else skip(name, 'Moving AI data not found');
        return;
    }
    try {
        const srv = await server(c.server);
        const problems = [];
        let background;
        if (c.while) {
            // A request that keeps the server busy: sent first, then /metrics is polled until the sample
            // says it is in place (at most 20 s), then the case's own request goes out.
            background = send(srv.port, c.while);
            let seen = false;
            for (let i = 0; i < 400 && !seen; i++) {
                const m = await exchange({ port: srv.port, method: 'GET', path: '/metrics' });
                seen = metric(m.body, c.while.until_metric) === c.while.until_value;
                if (!seen) await sleep(50);
            }
            if (!seen) problems.push(`${c.while.until_metric} never reached ${c.while.until_value} while the background request ran`);
        }
        const { req, res } = await send(srv.port, c);
        problems.push(...verify(spec, req, res, { ...c.expect, validRequest: false }));
        if (background) {
            const b = await background;
            for (const p of verify(spec, b.req, b.res, { ...c.while.expect, validRequest: false })) problems.push(`background request: ${p}`);
        }
        report(name, problems);
    } catch (e) {
        report(name, [String(e.stack ?? e)]);
    }
}

// ---- main ----------------------------------------------------------------------------------------------

async function main() {
    let spec;
    try {
        spec = await loadSpec('proto/openapi.yaml');
        report('proto/openapi.yaml loads, dereferences and validates (openapi-backend, strict)', []);
    } catch (e) {
        report('proto/openapi.yaml loads, dereferences and validates (openapi-backend, strict)', [String(e.message ?? e)]);
        return;
    }

    const { examples, problems } = readmeExamples(fs.readFileSync('README.md', 'utf8'));
    report(`README.md: every json block is marked as an example or an answer (${examples.length} examples found)`, problems);
    const all = [...examples, ...specExamples(spec)];
    for (const ex of all) {
        const id = mapOfText(ex.kind === 'curl' ? ex.command : ex.body);
        if (id !== undefined && !demoMaps.has(id)) maiMaps.add(id);
    }
    for (const c of cases.cases) {
        if (Array.isArray(serverDefs[c.server]?.maps)) for (const id of serverDefs[c.server].maps) if (!demoMaps.has(id)) maiMaps.add(id);
    }
    serverDefs.movingai = { maps: [...maiMaps].filter((id) => fs.existsSync(path.join(MAI_DIR, `${id}.map`))) };

    for (const ex of all) await runExample(spec, ex);
    for (const c of cases.cases) await runCase(spec, c);

    // Every metric family /metrics exposes is in the spec's table of metrics (GET /metrics description).
    try {
        const srv = await server('demo');
        const m = await exchange({ port: srv.port, method: 'GET', path: '/metrics' });
        const table = spec.operation('GET', '/metrics')?.description ?? '';
        const families = [...m.body.matchAll(/^# TYPE (\S+) /gm)].map((x) => x[1]);
        const unlisted = families.filter((f) => !table.includes('`' + f + '`'));
        report(`every metric family of /metrics (${families.length}) is listed in the spec's GET /metrics table`,
            [...(families.length === 0 ? ['no # TYPE line in /metrics'] : []), ...unlisted.map((f) => `${f} is not listed`)]);
        // The spec's example output: its HELP and TYPE lines are the server's, word for word (they had drifted:
        // a helper).
        const example = spec.operation('GET', '/metrics')?.responses?.['200']?.content?.['text/plain; version=0.0.4; charset=utf-8']?.example ?? '';
        const heads = example.split('\n').filter((l) => l.startsWith('# '));
        const lines = new Set(m.body.split('\n'));
        report(`the spec's /metrics example's ${heads.length} HELP and TYPE lines are the server's`,
            [...(heads.length === 0 ? ['no # line in the example'] : []),
                ...heads.filter((l) => !lines.has(l)).map((l) => `not in /metrics: ${l}`)]);
    } catch (e) {
        report("every metric family of /metrics is listed in the spec's GET /metrics table", [String(e.stack ?? e)]);
    }

    // Every code of the spec's ErrorCode enum was answered by some case, or is listed with the reason it
    // cannot be provoked from outside.
    const codes = spec.doc.components.schemas.ErrorCode.enum;
    const unprovoked = cases.not_reproducible ?? {};
    const missing = codes.filter((k) => !seenCodes.has(k) && !(k in unprovoked));
    const stale = Object.keys(unprovoked).filter((k) => !codes.includes(k));
    report(`the error catalogue: every ErrorCode (${codes.length}) answered by a case or listed as not reproducible`,
        [...missing.map((k) => `no case answered ${k}`), ...stale.map((k) => `not_reproducible names ${k}, which is no ErrorCode`)]);

    // Every operation of the spec was called by a README example, a spec example or a case, so a new
    // endpoint cannot go unchecked: give it a README example (or a case).
    const uncalled = spec.operations().map(({ method, path: p }) => `${method.toUpperCase()} ${p}`).filter((k) => !covered.has(k));
    report(`every operation of proto/openapi.yaml is called (${spec.operations().length})`, uncalled.map((k) => `no example or case calls ${k}`));

    // A clean SIGTERM exit of every server started (sanitizer reports make it fail).
    for (const [name, p] of running) {
        let srv;
        try { srv = await p; } catch { continue; }
        const code = await srv.stop();
        report(`arcpathd (${name}) exits 0 after SIGTERM`, code === 0 ? [] : [`exit ${code}:\n${srv.stderr()}`]);
    }
}

try {
    await main();
} catch (e) {
    report('contract test', [String(e.stack ?? e)]);
    for (const [, p] of running) p.then((s) => s.proc.kill('SIGKILL'), () => {});
} finally {
    fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed === 0 ? 0 : 1;
