// spec.mjs — one HTTP exchange checked against proto/openapi.yaml, the contract clients are promised.
//
// openapi-backend (pinned in package-lock.json) loads and validates the document, resolves every $ref,
// matches a request to its operation (path templates included) and compiles the operation's schemas with
// Ajv. On top of it this module checks what a client relies on, for any operation the spec lists:
//   - the status code is one the operation documents (an undocumented status is a violation);
//   - the Content-Type's media type is one the response documents (with the parameters the spec names),
//     and a response documented without content has an empty body;
//   - every response header the spec marks `required: true` is present, and every documented header that
//     is present matches its schema;
//   - the body validates against the response's schema (JSON bodies must parse).
// A request no operation takes is answered by the route table: a path the spec lists with another
// method is 405 (components.responses.MethodNotAllowed), any other path 404 (components.responses.NotFound).
import OpenAPIBackendModule from 'openapi-backend';

const { OpenAPIBackend } = OpenAPIBackendModule;

/** Load and dereference the spec at `file` (throws when it is not a valid OpenAPI document). */
export async function loadSpec(file) {
    const api = new OpenAPIBackend({ definition: file, strict: true, ajvOpts: { allErrors: true } });
    await api.init();
    return new Spec(api);
}

function mediaType(value) {
    const [type, ...params] = String(value ?? '').split(';').map((s) => s.trim());
    const p = {};
    for (const kv of params) {
        const i = kv.indexOf('=');
        if (i > 0) p[kv.slice(0, i).trim().toLowerCase()] = kv.slice(i + 1).trim();
    }
    return { type: type.toLowerCase(), params: p };
}

function ajvText(errors) {
    return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
}

class Spec {
    constructor(api) {
        this.api = api;
        this.doc = api.definition; // dereferenced
        this.ajv = api.validator.getAjv('response', { allErrors: true });
        this.componentValidators = new Map();
    }

    /** The operation for method + path (query string ignored), or undefined. */
    operation(method, path) {
        return this.api.router.matchOperation({ method: method.toLowerCase(), path: path.split('?')[0], headers: {} });
    }

    /** Every operation of the spec: {method, path, operationId, operation}. */
    operations() {
        return this.api.router.getOperations().map((op) => ({ method: op.method, path: op.path, operationId: op.operationId, operation: op }));
    }

    /** Whether some operation of the spec has this concrete path (any method). */
    hasPath(path) {
        const p = path.split('?')[0];
        return ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'].some((m) =>
            this.api.router.matchOperation({ method: m, path: p, headers: {} }));
    }

    /** The request body schema check of an operation: a list of problems (empty: valid). */
    checkRequestBody(op, body) {
        const res = this.api.validator.validateRequest({ method: op.method, path: op.path, headers: { 'content-type': 'application/json' }, query: {}, body }, op);
        return res.valid ? [] : ajvText(res.errors).map((m) => `request body: ${m}`);
    }

    /**
     * Check one exchange. req: {method, path}; res: {status, headers (lower-case names), body (string)}.
     * Returns {operation: 'METHOD /path' or the component used, violations: [string]}.
     */
    check(req, res) {
        const v = [];
        const op = this.operation(req.method, req.path);
        let response, where;
        if (op) {
            where = `${op.method.toUpperCase()} ${op.path}`;
            const responses = op.responses ?? {};
            response = responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses.default;
            if (!response) {
                v.push(`status ${res.status} is not documented for ${where} (documented: ${Object.keys(responses).join(', ')})`);
                return { operation: where, violations: v };
            }
        } else {
            const name = this.hasPath(req.path) ? 'MethodNotAllowed' : 'NotFound';
            const want = name === 'NotFound' ? 404 : 405;
            where = `components.responses.${name}`;
            response = this.doc.components.responses[name];
            if (res.status !== want) {
                v.push(`${req.method} ${req.path} is no operation of the spec: want ${want} (${where}), got ${res.status}`);
                return { operation: where, violations: v };
            }
        }
        this.checkHeaders(response, res, v);
        this.checkContent(op, response, where, res, v);
        return { operation: where, violations: v };
    }

    checkHeaders(response, res, v) {
        for (const [name, h] of Object.entries(response.headers ?? {})) {
            const value = res.headers[name.toLowerCase()];
            if (value === undefined) {
                if (h.required) v.push(`header ${name} is required but absent`);
                continue;
            }
            if (!h.schema) continue;
            // coerceTypes works on properties: the value sits in an object so "1" can match an integer.
            const key = 'header:' + JSON.stringify(h.schema);
            let vw = this.componentValidators.get(key);
            if (!vw) {
                vw = this.api.validator.getAjv('responseHeaders', { coerceTypes: true, allErrors: true })
                    .compile({ type: 'object', properties: { value: h.schema } });
                this.componentValidators.set(key, vw);
            }
            const box = { value };
            if (!vw(box)) v.push(`header ${name}: ${JSON.stringify(value)}: ${ajvText(vw.errors).join('; ')}`);
        }
    }

    checkContent(op, response, where, res, v) {
        const content = response.content;
        if (!content || Object.keys(content).length === 0) {
            if (res.body.length !== 0) v.push(`the response is documented without content but has a ${res.body.length}-byte body`);
            return;
        }
        const actual = mediaType(res.headers['content-type']);
        const match = Object.entries(content).find(([key]) => {
            const want = mediaType(key);
            return want.type === actual.type && Object.entries(want.params).every(([k, val]) => actual.params[k] === val);
        });
        if (!match) {
            v.push(`Content-Type ${JSON.stringify(res.headers['content-type'] ?? null)} is not documented (documented: ${Object.keys(content).join(', ')})`);
            return;
        }
        const [, media] = match;
        if (!media.schema) return;
        let body = res.body;
        if (actual.type === 'application/json' || actual.type.endsWith('+json')) {
            try {
                body = JSON.parse(res.body);
            } catch (e) {
                v.push(`the body is not JSON: ${e.message}`);
                return;
            }
        }
        let errors;
        if (op && actual.type === 'application/json') {
            const r = this.api.validator.validateResponse(body, op, res.status);
            errors = r.valid ? [] : r.errors;
        } else {
            const key = JSON.stringify(media.schema);
            let validate = this.componentValidators.get(key);
            if (!validate) {
                validate = this.ajv.compile(media.schema);
                this.componentValidators.set(key, validate);
            }
            errors = validate(body) ? [] : validate.errors;
        }
        for (const m of ajvText(errors)) v.push(`body (${where} ${res.status}): ${m}`);
    }
}
