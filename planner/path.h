/* path.h — path geometry: segments (lines and circular arcs) and poses along them.
 *
 * Units: positions in tiles (x = column, y = row), headings in radians from +x toward +y, lengths in tiles.
 * A path is an ordered array of segments, each starting where the previous one ends.
 */
#ifndef AP_PATH_H
#define AP_PATH_H

#include <stdbool.h>
#include <stddef.h>

typedef enum ap_seg_type { AP_SEG_LINE = 0, AP_SEG_ARC = 1 } ap_seg_type;

typedef struct ap_segment {
    ap_seg_type type;
    double x0, y0;       /* start point */
    double x1, y1;       /* end point */
    double heading;      /* line: its heading; arc: the heading at its start (start_heading) */
    double cx, cy;       /* arc only: centre */
    double radius;       /* arc only: radius (> 0) */
    double sweep;        /* arc only: signed radians, > 0 when the heading increases (turning toward +y) */
    double length;       /* line: |end - start|; arc: radius * |sweep| */
    bool reverse;        /* driven backwards (Reeds-Shepp, later); false for now */
} ap_segment;

/* A pose: position and heading. */
typedef struct ap_pose {
    double x, y, heading;
} ap_pose;

/* Make a line segment from (x0, y0) to (x1, y1); heading = atan2(dy, dx) (0 for a zero-length line). */
ap_segment ap_segment_line(double x0, double y0, double x1, double y1);

/* Make an arc of radius r > 0 starting at (x0, y0) with heading h0, turning by sweep radians (sign = turn
 * direction: > 0 left in the y-down sense, i.e. heading increases). Centre and end point are derived. */
ap_segment ap_segment_arc(double x0, double y0, double h0, double r, double sweep);

/* Heading at the end of a segment. */
double ap_segment_end_heading(const ap_segment *s);

/* Pose at distance d (tiles, clamped to [0, length]) along one segment. */
ap_pose ap_segment_pose(const ap_segment *s, double d);

/* Pose at distance d along a whole path of n segments (Pinter, "Adding Realistic Turns", Listing 2:
 * walk the segments subtracting their lengths; on an arc the angle on the circle advances by d / r).
 * d is clamped to [0, total length]. n must be >= 1. Pure; thread-safe. */
ap_pose ap_path_pose(const ap_segment *segs, size_t n, double d);

/* Sum of segment lengths (tiles). */
double ap_path_length(const ap_segment *segs, size_t n);

/* Normalise an angle to [-pi, pi). */
double ap_angle_wrap(double a);

#endif
