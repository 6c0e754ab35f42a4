// Reading Kubernetes manifests for tests/deploy's checks: every object of the given files, a
// kustomization.yaml standing for the resources it lists.
import { readFileSync } from "node:fs";
import path from "node:path";
import YAML from "yaml";

// objectsOf(file) -> [{file, obj}] for every YAML document of the file (multi-document files included);
// throws on a YAML syntax error, naming the file.
export function objectsOf(file) {
  const docs = YAML.parseAllDocuments(readFileSync(file, "utf8"), { prettyErrors: true });
  const out = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join("; ")}`);
    const obj = d.toJS();
    if (obj === null) continue;
    if (obj.kind === "Kustomization") {
      for (const r of obj.resources ?? []) out.push(...objectsOf(path.join(path.dirname(file), r)));
    } else {
      out.push({ file, obj });
    }
  }
  return out;
}
