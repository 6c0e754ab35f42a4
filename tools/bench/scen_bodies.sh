#!/bin/sh
# scen_bodies.sh SCEN MAP_ID MIN_BUCKET MAX_BUCKET [EXTRA_JSON] — one /v1/path JSON body per scenario line
# whose bucket is in [MIN_BUCKET, MAX_BUCKET]; start and goal at cell centres.
awk -v map="$2" -v lo="$3" -v hi="$4" -v extra="${5:-}" 'NR > 1 && $1 >= lo && $1 <= hi {
  printf "{\"map\":\"%s\",\"start\":{\"x\":%d.5,\"y\":%d.5},\"goal\":{\"x\":%d.5,\"y\":%d.5}%s}\n", map, $5, $6, $7, $8, extra
}' "$1"
