// deploy/k8s's objects agree with each other, with the image and with arcpathd's drain (what a schema cannot
// see): the Deployment's selector matches its pods' labels; the Service, PodDisruptionBudget and
// HorizontalPodAutoscaler reach those pods / that Deployment; every named port, volume and claim exists;
// the pod runs as docker/Dockerfile's numeric USER; the grace period outlasts preStop + drain + send wait.
//   node consistency.mjs deploy/k8s/kustomization.yaml
// One line per failed rule, then "ok"/"FAIL"; exit status 1 on any failure.
import { readFileSync } from "node:fs";
import { objectsOf } from "./manifests.mjs";

const objs = objectsOf(process.argv[2]).map((o) => o.obj);
const one = (kind) => objs.filter((o) => o.kind === kind);
const problems = [];
const rule = (ok, msg) => { if (!ok) problems.push(msg); };
const matches = (selector, labels) =>
  selector && Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

const [dep] = one("Deployment");
rule(one("Deployment").length === 1, "exactly one Deployment");
const pod = dep.spec.template;
const labels = pod.metadata.labels;
const [c] = pod.spec.containers;
rule(matches(dep.spec.selector.matchLabels, labels), "Deployment selector matches its pod labels");
// the rules below run per object: each kind must be there, or its rules would go with it
for (const kind of ["Service", "PodDisruptionBudget", "HorizontalPodAutoscaler"])
  rule(one(kind).length >= 1, `at least one ${kind}`);
for (const s of one("Service"))
  rule(matches(s.spec.selector, labels), `Service ${s.metadata.name} selects the pods`);
for (const s of one("Service"))
  for (const p of s.spec.ports)
    rule(typeof p.targetPort === "number" || c.ports.some((q) => q.name === p.targetPort),
         `Service port ${p.name}: container port ${p.targetPort} exists`);
for (const b of one("PodDisruptionBudget"))
  rule(matches(b.spec.selector.matchLabels, labels), `PodDisruptionBudget ${b.metadata.name} selects the pods`);
for (const h of one("HorizontalPodAutoscaler")) {
  const t = h.spec.scaleTargetRef;
  rule(t.kind === "Deployment" && t.name === dep.metadata.name && t.apiVersion === "apps/v1",
       `HorizontalPodAutoscaler ${h.metadata.name} targets the Deployment`);
  rule(h.spec.minReplicas >= 2, "HorizontalPodAutoscaler keeps at least 2 replicas (one may drain)");
  rule(h.spec.metrics.some((m) => m.type === "Resource" && m.resource.name === "cpu"),
       "HorizontalPodAutoscaler scales on CPU");
  rule(c.resources?.requests?.cpu !== undefined, "CPU utilisation needs a CPU request");
}
for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"]) {
  const port = c[probe]?.httpGet?.port;
  rule(port !== undefined && (typeof port === "number" || c.ports.some((q) => q.name === port)),
       `${probe} uses a container port`);
}
rule(c.readinessProbe?.httpGet?.path === "/readyz", "readiness on /readyz");
rule(c.livenessProbe?.httpGet?.path === "/healthz", "liveness on /healthz");
const vols = new Set((pod.spec.volumes ?? []).map((v) => v.name));
for (const m of c.volumeMounts ?? []) rule(vols.has(m.name), `volume ${m.name} exists`);
const claims = new Set(one("PersistentVolumeClaim").map((p) => p.metadata.name));
for (const v of pod.spec.volumes ?? [])
  if (v.persistentVolumeClaim) rule(claims.has(v.persistentVolumeClaim.claimName), `claim ${v.persistentVolumeClaim.claimName} exists`);
const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
rule(c.volumeMounts?.some((m) => m.mountPath === env.ARCPATH_MAPS && m.readOnly), "ARCPATH_MAPS is the read-only maps mount");

// The image's USER (docker/Dockerfile) is what runAsUser/runAsGroup say.
const user = readFileSync("docker/Dockerfile", "utf8").match(/^USER\s+(\d+):(\d+)\s*$/m);
rule(user !== null, "docker/Dockerfile has a numeric USER uid:gid");
const sc = pod.spec.securityContext ?? {};
rule(user && sc.runAsUser === Number(user[1]) && sc.runAsGroup === Number(user[2]),
     "pod runAsUser/runAsGroup = the image's USER");
rule(sc.runAsNonRoot === true && sc.seccompProfile?.type === "RuntimeDefault", "runAsNonRoot, seccomp RuntimeDefault");
const csc = c.securityContext ?? {};
rule(csc.readOnlyRootFilesystem === true && csc.allowPrivilegeEscalation === false &&
     csc.capabilities?.drop?.includes("ALL"), "read-only root, no privilege escalation, every capability dropped");

// Grace period > preStop sleep + drain_timeout_ms + arcpathd's 2 s wait for the last answers to be sent.
const sleep = Number(c.lifecycle?.preStop?.exec?.command?.at(-1) ?? c.lifecycle?.preStop?.sleep?.seconds ?? 0);
const drain = Number(env.ARCPATH_DRAIN_TIMEOUT_MS ?? 10000) / 1000;
rule(sleep > 0, "a preStop sleep lets endpoints go before SIGTERM");
rule(pod.spec.terminationGracePeriodSeconds > sleep + drain + 2,
     `terminationGracePeriodSeconds ${pod.spec.terminationGracePeriodSeconds} > preStop ${sleep} + drain ${drain} + 2 s`);

for (const p of problems) console.log(`FAIL ${p}`);
console.log(problems.length ? "FAIL" : "ok");
process.exitCode = problems.length ? 1 : 0;
