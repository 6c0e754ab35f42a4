// readme.mjs — the request examples of README.md, as the test runs them.
//
// Two kinds, found by reading the Markdown's fenced code blocks:
//   - every command line starting with `curl ` in any code block (continued over the following lines while
//     a single quote is open or the line ends with a backslash). It runs as written through sh, with
//     `localhost:8080` / `127.0.0.1:8080` pointed at the test's server. It must answer 2xx unless a shell
//     comment on its lines, or the block's marker, says `expect=NNN`.
//   - every ```json block must carry a marker comment on the line before it:
//       <!-- example: POST /v1/path [expect=NNN] -->   a request body: sent to that route (default 2xx)
//       <!-- answer: POST /v1/path -->                 an answer shown for reading (may elide with ...)
//     An unmarked JSON block is an error, so a new example cannot slip past the test.

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
    for (const b of blocks(text)) {
        if (b.lang === 'json') {
            if (!b.marker) {
                problems.push(`README.md:${b.line}: a json block without an <!-- example: METHOD /path --> or <!-- answer: ... --> marker`);
            } else if (b.marker.kind === 'example') {
                if (!b.marker.method || !b.marker.path) problems.push(`README.md:${b.line}: the example marker names no METHOD /path`);
                else examples.push({ name: `README.md:${b.line} ${b.marker.method} ${b.marker.path}`, kind: 'json', method: b.marker.method, path: b.marker.path, body: b.lines.join('\n'), expect: b.marker.expect });
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
