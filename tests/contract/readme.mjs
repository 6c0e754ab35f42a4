// readme.mjs — the request examples of README.md, as the test runs them.
//
// Two kinds, found by reading the Markdown's fenced code blocks:
//   - every command line starting with `curl ` in any code block (continued over the following lines while
//     a single quote is open or the line ends with a backslash). It runs as written through sh, with
//     `localhost:8080` / `127.0.0.1:8080` pointed at the test's server. It must answer 2xx unless a shell
//     comment on its lines, or the block's marker, says `expect=NNN`.
//   - every ```json block must carry a marker comment on the line before it:
//       <!-- example: POST /v1/path [expect=NNN] -->   a request body: sent to that route (default 2xx)
//       <!-- answer: POST /v1/path 200 -->             the answer to the example just before it (same route)
//     An unmarked JSON block is an error, so a new example cannot slip past the test. An answer block must
//     follow an example of its route; the test then compares every value it shows with the server's answer
//     to that example (answerProblems): numbers to the decimals shown, strings and booleans exactly, the
//     status code when the marker names one. It may elide with `...`: a whole array (`[...]`), the rest of
//     an array or object (`, ...]`, `, ...}`), a string (`"..."`); timings (keys ending in _us or _ms) are
//     not compared.

const MARKER = /^<!--\s*(example|answer)\s*:\s*(.*?)\s*-->\s*$/;

function parseMarker(line) {
    const m = MARKER.exec(line.trim());
    if (!m) return null;
    const words = m[2].split(/\s+/).filter(Boolean);
    const out = { kind: m[1] };
    for (const w of words) {
        const kv = /^(\w+)=(.*)$/.exec(w);
        if (kv) out[kv[1]] = kv[2];
        else if (/^[A-Z]+$/.test(w)) out.method = w;
        else if (w.startsWith('/')) out.path = w;
        else if (/^\d{3}$/.test(w)) out.status = Number(w);
    }
    if (out.expect !== undefined) out.expect = Number(out.expect);
    return out;
}

/** The fenced code blocks: {lang, line (1-based, of the first content line), lines, marker}. */
function blocks(text) {
    const lines = text.split('\n');
    const out = [];
    for (let i = 0; i < lines.length; i++) {
        const open = /^(\s*)```\s*([\w+-]*)\s*$/.exec(lines[i]);
        if (!open) continue;
        let j = i + 1;
        while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) j++;
        let k = i - 1;
        while (k >= 0 && lines[k].trim() === '') k--;
        out.push({ lang: open[2].toLowerCase(), line: i + 2, lines: lines.slice(i + 1, j), marker: k >= 0 ? parseMarker(lines[k]) : null });
        i = j;
    }
    return out;
}

const quotesOpen = (s) => (s.replace(/\\'/g, '').match(/'/g) ?? []).length % 2 === 1;

/**
 * The examples of README text: a list of
 *   {name, kind: 'curl', command, expect}            a curl command line (shell text)
 *   {name, kind: 'json', method, path, body, expect}  a request body from a marked JSON block
 * and a list of problems (unmarked JSON blocks, markers without a route).
 */
export function readmeExamples(text) {
    const examples = [];
    const problems = [];
    let lastJson = null; // the example of the json block just before, for an answer block
    for (const b of blocks(text)) {
        if (b.lang === 'json') {
            const prev = lastJson;
            lastJson = null;
            if (!b.marker) {
                problems.push(`README.md:${b.line}: a json block without an <!-- example: METHOD /path --> or <!-- answer: ... --> marker`);
            } else if (b.marker.kind === 'example') {
                if (!b.marker.method || !b.marker.path) problems.push(`README.md:${b.line}: the example marker names no METHOD /path`);
                else {
                    lastJson = { name: `README.md:${b.line} ${b.marker.method} ${b.marker.path}`, kind: 'json', method: b.marker.method, path: b.marker.path, body: b.lines.join('\n'), expect: b.marker.expect };
                    examples.push(lastJson);
                }
            } else if (prev === null || prev.method !== b.marker.method || prev.path !== b.marker.path) {
                problems.push(`README.md:${b.line}: an answer block must follow the example of its route (${b.marker.method} ${b.marker.path})`);
            } else {
                prev.answer = { line: b.line, text: b.lines.join('\n'), status: b.marker.status };
            }
            continue;
        }
        for (let i = 0; i < b.lines.length; i++) {
            if (!/^\s*curl\s/.test(b.lines[i])) continue;
            const start = i;
            let cmd = b.lines[i];
            while ((quotesOpen(cmd) || /\\\s*$/.test(b.lines[i])) && i + 1 < b.lines.length) cmd += '\n' + b.lines[++i];
            const exp = /\bexpect=(\d{3})\b/.exec(cmd);
            examples.push({
                name: `README.md:${b.line + start} ${cmd.split('\n')[0].trim().slice(0, 70)}`,
                kind: 'curl', command: cmd.trim(),
                expect: exp ? Number(exp[1]) : b.marker?.expect,
            });
        }
    }
    return { examples, problems };
}

/** The leaves of a JSON value in document order: [{path, value}], path as `a.b[2].c`. */
function leaves(v, path = '', out = []) {
    if (Array.isArray(v)) v.forEach((x, i) => leaves(x, `${path}[${i}]`, out));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, path ? `${path}.${k}` : k, out);
    else out.push({ path, value: v });
    return out;
}

/** The value at a leaf path of JSON value v, or undefined. */
function at(v, path) {
    for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
        if (v === null || typeof v !== 'object') return undefined;
        v = part.startsWith('[') ? v[Number(part.slice(1, -1))] : v[part];
    }
    return v;
}

/**
 * What an answer block (README text, with `...` elisions) shows that the server's answer (parsed JSON)
 * does not hold: a list of messages, empty when every shown value matches. line: the block's first line.
 */
export function answerProblems(text, answer, line) {
    const json = text.replace(/\[\s*\.\.\.\s*\]/g, '[]').replace(/,\s*\.\.\.(?=\s*[\]}])/g, '');
    let shown;
    try {
        shown = JSON.parse(json);
    } catch (e) {
        return [`README.md:${line}: the answer block is not JSON once its elisions are taken out: ${e.message}`];
    }
    // the decimals each number is shown with, in document order (strings blanked first: "den520d")
    const tokens = json.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g) ?? [];
    const out = [];
    let ti = 0;
    for (const { path, value } of leaves(shown)) {
        if (typeof value !== 'number') {
            const real = at(answer, path);
            if (value !== '...' && real !== value) out.push(`${path}: README.md:${line} shows ${JSON.stringify(value)}, the server answers ${JSON.stringify(real)}`);
            continue;
        }
        const token = tokens[ti++] ?? '';
        if (/_(us|ms)$/.test(path)) continue;
        const real = at(answer, path);
        const decimals = (/\.(\d+)/.exec(token)?.[1] ?? '').length;
        if (typeof real !== 'number' || Math.abs(real - value) > 0.5 * 10 ** -decimals + 1e-12)
            out.push(`${path}: README.md:${line} shows ${token}, the server answers ${JSON.stringify(real)}`);
    }
    return out;
}
