#!/bin/sh
# deploy/ and docker/ under real tools, no cluster or Docker engine needed:
#   - deploy/k8s (every resource of kustomization.yaml) against the Kubernetes API's schemas, strictly
#     (validate.mjs: kubernetes-models' schema validators + TypeScript's excess-property check over its
#     types), and the validator's own test: every manifest in tests/deploy/bad/ must be rejected;
#   - docker/Dockerfile under dockerfile-utils' linter;
#   - deploy/compose/haproxy.cfg with `haproxy -c` (the only warnings allowed: Docker's DNS names, which do
#     not resolve outside compose);
#   - deploy/compose/prometheus.yml with `promtool check config` (promtool from Debian's prometheus
#     package, unpacked by tools/install-deps.sh into tests/deploy/.bin; see there why not installed).
# The npm tools are pinned by tests/deploy/package-lock.json. Each check prints "ok" or "FAIL" (and the
# tool's output on failure); the closing line is "N passed, N failed". Run by `make test`.
cd "$(dirname "$0")/../.." || exit 1
missing=""
command -v node >/dev/null 2>&1 || missing="$missing node"
command -v haproxy >/dev/null 2>&1 || missing="$missing haproxy"
[ -d tests/deploy/node_modules/kubernetes-models ] || missing="$missing tests/deploy/node_modules"
promtool=$(command -v promtool 2>/dev/null || echo tests/deploy/.bin/promtool)
[ -x "$promtool" ] || missing="$missing promtool"
if [ -n "$missing" ]; then
    echo "tests/deploy: missing:$missing (run: make deps)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
. tests/check.sh

check "deploy/k8s: every object valid against the Kubernetes API schemas (strict)" \
    node tests/deploy/validate.mjs deploy/k8s/kustomization.yaml
check "the validator rejects every manifest in tests/deploy/bad/" \
    node tests/deploy/validate.mjs --expect-invalid tests/deploy/bad/*.yaml
# The objects of deploy/k8s refer to each other by name and labels.
check "deploy/k8s: selectors, names and ports agree" node tests/deploy/consistency.mjs deploy/k8s/kustomization.yaml
# The linter exits 1 on errors only; a warning must fail the check too.
dockerfile_lint() {
    tests/deploy/node_modules/.bin/dockerfile-utils lint docker/Dockerfile >"$out.d" 2>&1; rc=$?
    cat "$out.d"
    [ $rc = 0 ] && ! [ -s "$out.d" ]
}
check "docker/Dockerfile: dockerfile-utils lint, no problem reported" dockerfile_lint
haproxy_check() {
    haproxy -c -f deploy/compose/haproxy.cfg >"$out.h" 2>&1; rc=$?
    cat "$out.h"
    [ $rc = 0 ] && ! grep -E "WARNING|ALERT" "$out.h" | grep -v "could not resolve address 'arcpathd'" | grep -q .
}
check "deploy/compose/haproxy.cfg: haproxy -c valid, no warning but Docker's DNS names" haproxy_check
check "deploy/compose/prometheus.yml: promtool check config" "$promtool" check config deploy/compose/prometheus.yml

check_done
