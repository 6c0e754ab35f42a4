/* draw.js — the viewer's canvas drawing (viewer.js holds the state, the panel and the input): the map's
 * terrain image, and paths, samples and poses drawn in tiles under a view transform the caller has set
 * (screen = tiles * scale + offset), so px, one CSS pixel in tiles, sizes the strokes. Angles are the API's,
 * radians from +x toward +y, which is the canvas's own sense: they go to the canvas unchanged.
 */
window.arcpathDraw = (function () {
  'use strict';

  /* Terrain letters (Moving AI) to colours: passable ground light, swamp greenish, trees and water blocked —
   * unless the unit's terrain makes them passable (the map's terrain_costs, or a capability), then a light
   * tint; ground and swamp outside the unit's capability grey. */
  const TERRAIN = {
    '.': [255, 255, 255], G: [255, 255, 255], S: [214, 232, 196],
    T: [46, 125, 50], W: [120, 160, 215], '@': [36, 41, 47], O: [36, 41, 47],
  };
  const TERRAIN_PASSABLE = { T: [190, 222, 190], W: [200, 220, 245] };
  /* Ground and swamp a unit's capability leaves out (a boat's land): grey, blocked for that unit. */
  const TERRAIN_BLOCKED = { '.': [150, 154, 160], G: [150, 154, 160], S: [128, 140, 120] };

  /* The map c (the answer of GET /v1/maps/{id}/cells) as an offscreen canvas of one pixel per cell, scaled
   * up without smoothing when drawn; passable: the letters a unit may stand on (a string). */
  function terrainImage(c, passable) {
    const img = document.createElement('canvas');
    img.width = c.width;
    img.height = c.height;
    const g = img.getContext('2d');
    const data = g.createImageData(c.width, c.height);
    for (let y = 0; y < c.height; y++) {
      const row = c.rows[y];
      for (let x = 0; x < c.width; x++) {
        const t = row[x];
        const rgb = (passable.includes(t) ? TERRAIN_PASSABLE[t] : TERRAIN_BLOCKED[t]) || TERRAIN[t] || [255, 0, 255];
        const k = 4 * (y * c.width + x);
        data.data[k] = rgb[0];
        data.data[k + 1] = rgb[1];
        data.data[k + 2] = rgb[2];
        data.data[k + 3] = 255;
      }
    }
    g.putImageData(data, 0, 0);
    return img;
  }

  /* Cell borders over a width x height map. */
  function grid(ctx, width, height, px) {
    ctx.beginPath();
    for (let x = 0; x <= width; x++) {
      ctx.moveTo(x, 0);
      ctx.lineTo(x, height);
    }
    for (let y = 0; y <= height; y++) {
      ctx.moveTo(0, y);
      ctx.lineTo(width, y);
    }
    ctx.strokeStyle = 'rgba(87, 96, 106, 0.18)';
    ctx.lineWidth = px;
    ctx.stroke();
  }

  /* A filled disc of radius r tiles. */
  function dot(ctx, x, y, r, colour) {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = colour;
    ctx.fill();
  }

  /* Draw one answer's segments (and its samples when withSamples); returns what was drawn: {segments:
   * [{type: 'line', start, end, reverse} | {type: 'arc', center, radius, startAngle, endAngle,
   * anticlockwise, start, end, reverse} | {type: 'turn', start, end, reverse: false}], samples: n}. start/end
   * of an arc are computed from the arc's drawn parameters, so they say where the canvas put its ends. A
   * turn on the spot (kinodynamic answers) has no extent: nothing is stroked for it. */
  function path(ctx, answer, style, width, px, withSamples) {
    const out = { segments: [], samples: 0 };
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.lineWidth = width;
    for (const seg of answer.segments || []) {
      if (seg.type === 'turn') {
        out.segments.push({ type: 'turn', start: [seg.start[0], seg.start[1]], end: [seg.end[0], seg.end[1]],
          reverse: false });
        continue;
      }
      const rev = seg.reverse === true;
      ctx.strokeStyle = rev ? style.reverse : style.path;
      ctx.setLineDash(rev ? [6 * px, 4 * px] : []);
      ctx.beginPath();
      if (seg.type === 'arc') {
        const [cx, cy] = seg.center;
        /* The angle of the start point seen from the centre; the point then turns through sweep radians
         * (the heading and the point's angle change together, forward or reverse alike). A negative sweep
         * runs toward -y from +x: anticlockwise on the canvas, whose angles grow from +x toward +y. */
        const a0 = Math.atan2(seg.start[1] - cy, seg.start[0] - cx);
        const a1 = a0 + seg.sweep;
        const anticlockwise = seg.sweep < 0;
        ctx.arc(cx, cy, seg.radius, a0, a1, anticlockwise);
        out.segments.push({
          type: 'arc', center: [cx, cy], radius: seg.radius, startAngle: a0, endAngle: a1, anticlockwise,
          start: [cx + seg.radius * Math.cos(a0), cy + seg.radius * Math.sin(a0)],
          end: [cx + seg.radius * Math.cos(a1), cy + seg.radius * Math.sin(a1)], reverse: rev,
        });
      } else {
        ctx.moveTo(seg.start[0], seg.start[1]);
        ctx.lineTo(seg.end[0], seg.end[1]);
        out.segments.push({ type: 'line', start: [seg.start[0], seg.start[1]], end: [seg.end[0], seg.end[1]],
          reverse: rev });
      }
      ctx.stroke();
    }
    ctx.setLineDash([]);
    if (withSamples && answer.samples) {
      /* A tick across the heading at every sample: its spacing shows the step, its angle the heading. */
      const half = 4 * px;
      ctx.beginPath();
      for (const p of answer.samples) {
        const nx = -Math.sin(p.heading) * half, ny = Math.cos(p.heading) * half;
        ctx.moveTo(p.x - nx, p.y - ny);
        ctx.lineTo(p.x + nx, p.y + ny);
      }
      ctx.strokeStyle = '#24292f';
      ctx.lineWidth = 1.2 * px;
      ctx.stroke();
      out.samples = answer.samples.length;
    }
    if (withSamples) {
      for (const w of answer.waypoints || [])
        dot(ctx, w[0], w[1], 2 * px, style.path);
    }
    return out;
  }

  /* A start or goal marker p {x, y, heading?}: the unit's disc (radius in tiles, when > 0), a dot with a
   * letter, and an arrow along its heading. */
  function pose(ctx, p, colour, letter, radius, px) {
    if (!p)
      return;
    if (radius > 0) {
      ctx.beginPath();
      ctx.arc(p.x, p.y, radius, 0, 2 * Math.PI);
      ctx.fillStyle = colour + '33';
      ctx.fill();
    }
    if (p.heading !== undefined) {
      const len = 26 * px;
      const ex = p.x + Math.cos(p.heading) * len, ey = p.y + Math.sin(p.heading) * len;
      ctx.beginPath();
      ctx.moveTo(p.x, p.y);
      ctx.lineTo(ex, ey);
      const wing = 7 * px;
      for (const d of [2.6, -2.6]) {
        ctx.moveTo(ex, ey);
        ctx.lineTo(ex + Math.cos(p.heading + d) * wing, ey + Math.sin(p.heading + d) * wing);
      }
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2.5 * px;
      ctx.stroke();
    }
    dot(ctx, p.x, p.y, 8.5 * px, '#ffffff');
    dot(ctx, p.x, p.y, 7 * px, colour);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold ' + (10 * px) + 'px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(letter, p.x, p.y + 0.5 * px);
  }

  return { terrainImage, grid, dot, path, pose };
})();
