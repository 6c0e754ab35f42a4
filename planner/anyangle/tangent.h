/* tangent.h — the geometry of the tangent visibility graph: directed bitangents between two circles, the
 * hugging sweep between two headings, and the proper crossing of two segments.
 *
 * Source: Red Blob Games, "Circular Obstacle Pathfinding": "Generating surfing edges" (internal and external
 * bitangents), "Generating hugging edges", "Cull cusped hugging edges" (nodes annotated with the direction
 * of travel around the circle) and "Crossing edge culling".
 *
 * Sense: s = +1 travels around a circle with increasing angle (the heading increases, like an arc with
 * sweep > 0 in path.h: the centre lies a quarter turn toward +y of the heading, at P + R (-sin h, cos h));
 * s = -1 the other way. A radius-0 circle (a point: start, goal, a grid corner for a point unit) accepts
 * both senses; its sense says which way the path turns there.
 *
 * All functions are pure and thread-safe. Units: tiles and radians.
 */
#ifndef AP_TANGENT_H
#define AP_TANGENT_H

#include <stdbool.h>

/* A directed surfing edge: from (x0, y0) on the first circle to (x1, y1) on the second, heading h, length
 * len (tiles). */
typedef struct ap_bitangent {
    double x0, y0, x1, y1, h, len;
} ap_bitangent;

/* Tiles two circles may overlap by and still have the bitangent through their touching point (ap_bitangent_of). */
#define AP_TANGENT_SLACK 1e-9

/* The directed bitangent that leaves circle 1 (centre (x1, y1), radius r1 >= 0) travelling around it with
 * sense s1 and arrives at circle 2 (x2, y2, r2 >= 0) travelling around it with sense s2 (s1 == s2: an
 * external bitangent, else an internal one). Each (s1, s2) has at most one such line: its heading h obeys
 * sin(phi - h) = (s2 r2 - s1 r1) / d with cos(phi - h) >= 0 (phi = direction, d = distance from centre 1 to
 * centre 2), which puts each centre on its sense's side at distance r. Returns false when it does not exist
 * (d = 0, or |s2 r2 - s1 r1| > d + AP_TANGENT_SLACK: one circle inside the other for that pair of senses);
 * within the slack the line of length 0 through the circles' touching point (a start or goal computed a
 * rounding step inside the circle it lies on keeps its tangent). */
bool ap_bitangent_of(double x1, double y1, double r1, int s1, double x2, double y2, double r2, int s2,
                     ap_bitangent *out);

/* The hugging sweep from heading h_in to heading h_out turning with sense s: s * (h_out - h_in) reduced
 * to [0, 2pi) (radians, >= 0); a result within 1e-9 of 2pi is 0 (the two headings are the same up to
 * rounding: a full turn is never part of a shortest path). The arc's length is radius * sweep. */
double ap_hug_sweep(double h_in, double h_out, int s);

/* True when segments P1P2 and P3P4 cross properly: at one point interior to both, with each segment's
 * ends strictly on opposite sides of the other's line (beyond a relative 1e-12 of the lengths' product, so
 * touching, collinear and near-degenerate pairs are not crossings). */
bool ap_segments_cross(double x1, double y1, double x2, double y2, double x3, double y3, double x4, double y4);

#endif
