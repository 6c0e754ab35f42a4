#!/bin/sh
# batch_bodies.sh SCEN MAP_ID MIN_BUCKET MAX_BUCKET [PER_BATCH] — POST /v1/paths bodies, one per line, each with
# PER_BATCH (default 64) queries taken in turn from the scenario lines whose bucket is in [MIN_BUCKET,
# MAX_BUCKET] (cycling through them); start and goal at cell centres. Prints as many batches as it takes to
# use every selected line at least once.
awk -v map="$2" -v lo="$3" -v hi="$4" -v per="${5:-64}" 'NR > 1 && $1 >= lo && $1 <= hi {
  q[n++] = sprintf("{\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5}}", $5, $6, $7, $8)
}
END {
  if (n == 0) exit 1
  batches = int((n + per - 1) / per)
  k = 0
  for (b = 0; b < batches; b++) {
    line = sprintf("{\"map\":\"%s\",\"queries\":[", map)
    for (i = 0; i < per; i++) { line = line (i ? "," : "") q[k % n]; k++ }
    print line "]}"
  }
}' "$1"
