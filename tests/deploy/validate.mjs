// Validate Kubernetes manifests against the API's own schemas, two ways, both from kubernetes-models
// (generated from the Kubernetes OpenAPI document; pinned in package-lock.json):
//   1. schema: each object's JSON-schema validator (types, required fields, enums, int32/quantity formats);
//   2. strict: each object as a TypeScript literal of the model's interface, compiled by TypeScript's
//      checker, whose excess-property check rejects any field the API does not define (a typo such as
//      `readinessprobe`, which the API server would silently drop and the schemas above allow).
// Usage: node validate.mjs [--expect-invalid] FILE...
//   A kustomization.yaml stands for the resources it lists. Prints one "ok"/"FAIL" line per object and
//   exits 1 when any object fails; with --expect-invalid every object must fail (the validator's own test:
//   tests/deploy/bad/) and exits 1 when one passes.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { objectsOf } from "./manifests.mjs";
import ts from "typescript";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const expectInvalid = args[0] === "--expect-invalid";
const files = expectInvalid ? args.slice(1) : args;

// kubernetes-models' module for an apiVersion: "v1" -> kubernetes-models/v1, "apps/v1" -> .../apps/v1.
function modelPath(apiVersion, kind) {
  if (typeof apiVersion !== "string" || typeof kind !== "string" || !/^[A-Za-z0-9.\/-]+$/.test(apiVersion) ||
      !/^[A-Za-z0-9]+$/.test(kind))
    return null;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

const items = files.flatMap(objectsOf);
const results = items.map(({ file, obj }) => ({ name: `${file}: ${obj?.kind}/${obj?.metadata?.name}`, errors: [] }));

// 1. The JSON-schema validators.
items.forEach(({ obj }, i) => {
  const mp = modelPath(obj?.apiVersion, obj?.kind);
  let Model;
  try {
    Model = mp && require(mp)[obj.kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== "function") {
    results[i].errors.push(`schema: no Kubernetes model for apiVersion ${obj?.apiVersion} kind ${obj?.kind}`);
    return;
  }
  try {
    new Model(obj).validate();
  } catch (e) {
    results[i].errors.push(`schema: ${e.message}`);
  }
});

// 2. The strict pass: one virtual TypeScript file per object, checked together.
const sources = new Map();
items.forEach(({ obj }, i) => {
  const mp = modelPath(obj?.apiVersion, obj?.kind);
  if (!mp) return;
  const name = path.join(here, `__manifest_${i}.ts`);
  sources.set(name, { i, text: `import type { I${obj.kind} } from "${mp}";\n` +
    `export const doc: I${obj.kind} = ${JSON.stringify(obj, null, 2)};\n` });
});
const options = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS,
                  moduleResolution: ts.ModuleResolutionKind.Node10, types: [], skipLibCheck: true };
const host = ts.createCompilerHost(options);
const getSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (f, lang, ...rest) =>
  sources.has(f) ? ts.createSourceFile(f, sources.get(f).text, lang) : getSourceFile(f, lang, ...rest);
const fileExists = host.fileExists.bind(host);
host.fileExists = (f) => sources.has(f) || fileExists(f);
const readFile = host.readFile.bind(host);
host.readFile = (f) => (sources.has(f) ? sources.get(f).text : readFile(f));
const program = ts.createProgram([...sources.keys()], options, host);
for (const d of ts.getPreEmitDiagnostics(program)) {
  const src = d.file && sources.get(d.file.fileName);
  const msg = ts.flattenDiagnosticMessageText(d.messageText, " ");
  if (!src) {
    console.error(`strict: ${msg}`);
    process.exitCode = 1;
    continue;
  }
  const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
  const at = d.file.text.split("\n")[line].trim();
  results[src.i].errors.push(`strict: ${msg} (at ${at})`);
}

let bad = 0;
for (const r of results) {
  const failed = r.errors.length > 0;
  const ok = expectInvalid ? failed : !failed;
  if (!ok) bad++;
  console.log(`${ok ? "ok  " : "FAIL"} ${r.name}${expectInvalid ? " (must be rejected)" : ""}`);
  for (const e of r.errors) console.log(`       ${e}`);
}
if (items.length === 0) {
  console.log("FAIL no objects found");
  bad++;
}
if (bad) process.exitCode = 1;
