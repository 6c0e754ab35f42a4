// server.mjs — real arcpathd processes on free 127.0.0.1 ports for the contract test, and one HTTP
// exchange with them (node:http, no agent: every exchange on its own connection).
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port nobody listens on right now (the kernel's pick; arcpathd takes it a moment later). */
function freePort() {
    return new Promise((resolve, reject) => {
        const s = net.createServer();
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address();
            s.close(() => resolve(port));
        });
    });
}

/**
 * One HTTP exchange. opts: {port, method, path, headers (object or flat [k, v, ...] array), body (string),
 * setHost (default true), chunked (send the body in two chunks without Content-Length)}. Resolves {status, headers (lower-case names), body (string)}; bounded by a 120 s
 * timeout (a deadline-bound search under ASan takes a few seconds at most).
 */
export function exchange({ port, method, path, headers, body, setHost = true, chunked = false }) {
    return new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path, headers, setHost, agent: false, timeout: 120000 }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path} within 120 s`)));
        req.on('error', reject);
        if (body !== undefined && chunked) {
            req.write(body.slice(0, body.length >> 1));
            req.end(body.slice(body.length >> 1));
        } else {
            req.end(body); // one piece: node sends Content-Length
        }
    });
}

/**
 * Start `bin --listen 127.0.0.1:<free port> --maps mapsDir` with extra environment, wait until /healthz
 * answers (at most 60 s). Resolves {port, proc, stop()}; stop() sends SIGTERM and resolves the exit code
 * (null when killed by a signal, e.g. a sanitizer's abort; SIGKILL after 30 s).
 */
export async function startServer(bin, mapsDir, env = {}) {
    for (let attempt = 0; attempt < 5; attempt++) {
        const port = await freePort();
        const proc = spawn(bin, ['--listen', `127.0.0.1:${port}`, '--maps', mapsDir], {
            env: { ...process.env, ARCPATH_ACCESS_LOG: 'false', ...env },
            stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        proc.stderr.on('data', (c) => { stderr += c; });
        let exited = null;
        const exit = new Promise((resolve) => proc.on('exit', (code, signal) => { exited = { code, signal }; resolve(code); }));
        for (let i = 0; i < 600 && exited === null; i++) {
            try {
                const r = await exchange({ port, method: 'GET', path: '/healthz' });
                if (r.status === 200) {
                    const stop = async () => {
                        if (exited === null) proc.kill('SIGTERM');
                        const timer = setTimeout(() => proc.kill('SIGKILL'), 30000);
                        const code = await exit;
                        clearTimeout(timer);
                        return code;
                    };
                    return { port, proc, stop, stderr: () => stderr };
                }
            } catch {
                // not listening yet
            }
            await sleep(100);
        }
        if (exited === null) {
            proc.kill('SIGKILL');
            await exit;
            throw new Error(`arcpathd on ${mapsDir} did not answer /healthz within 60 s:\n${stderr}`);
        }
        if (!/cannot listen/.test(stderr)) throw new Error(`arcpathd on ${mapsDir} exited (${JSON.stringify(exited)}):\n${stderr}`);
        // the port was taken between the probe and the start: another one
    }
    throw new Error('no free port for arcpathd after 5 attempts');
}
