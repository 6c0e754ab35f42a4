#!/bin/sh
# kino_bodies.sh MAP_ID N [EXTRA_JSON] — N kinodynamic /v1/path bodies on the thesis's Table 5.3 setup
# (Schnieders, "AIPATH", 5.1, as tests/bench/bench_kino.c draws it): a car with the thesis's limits (13.8 m/s,
# 1.5 m/s^2 up, 5 down; arcpath's car, 14, 3 and 6, until the fifteenth session)
# starting in the middle of an open 160 x 160 field (1 m a tile) with a random heading and speed (0-13.8 m/s),
# turning radius 5-8 m and lateral limit 10-20 m/s^2 per query, the goal 0-8 turning radii away in a random
# direction with a random required heading and speed; the thesis's tolerances (0.375 tiles, 1 degree,
# 0.1 m/s). Fixed seed, so the same bodies every run. EXTRA_JSON is appended inside "search".
awk -v map="$1" -v n="$2" -v extra="${3:-}" 'BEGIN {
  srand(5301); pi = 3.14159265358979
  for (i = 0; i < n; i++) {
    R = 5 + 3 * rand(); lat = 10 + 10 * rand(); d = 8 * R * rand(); a = 2 * pi * rand()
    gx = 80 + d * cos(a); gy = 80 + d * sin(a)
    printf "{\"map\":\"%s\",\"start\":{\"x\":80,\"y\":80,\"heading\":%.4f,\"speed\":%.3f},", map, 2 * pi * rand() - pi, 13.8 * rand()
    printf "\"goal\":{\"x\":%.4f,\"y\":%.4f,\"heading\":%.4f,\"speed\":%.3f},", gx, gy, 2 * pi * rand() - pi, 13.8 * rand()
    printf "\"unit\":{\"kind\":\"car\",\"max_speed\":13.8,\"max_accel\":1.5,\"max_brake\":5,\"turning_radius\":%.3f,\"max_lateral_accel\":%.3f},", R, lat
    printf "\"goal_tolerance\":{\"position\":0.375,\"heading\":0.017453,\"speed\":0.1},"
    printf "\"search\":{\"algorithm\":\"kinodynamic\"%s}}\n", extra
  }
}'
