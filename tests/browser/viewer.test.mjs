// viewer.test.mjs — the viewer at GET / in Debian's headless Chromium (playwright-core): a real arcpathd on
// a free loopback port serving config/maps; every query is planned by clicking and dragging on the canvas,
// and what the page drew (window.arcpathViewer.lastDrawn) must be the API's answer to the same body,
// fetched directly. Run from the repository root by tests/browser/run.sh (node --test).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';

const ARCPATHD = process.env.ARCPATHD || 'build/arcpathd';
const SHOT = process.env.VIEWER_SHOT || dirname(ARCPATHD) + '/viewer.png';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const EPS = 1e-9;
const STEP_MS = 30000; // every wait is bounded
const TOKEN = 'viewer-test-token'; // the map edits of the live-map test

let server, base, browser, page, canvasBox;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(ARCPATHD, ['--listen', `127.0.0.1:${port}`, '--maps', 'config/maps', '--config', 'config/demo.conf'],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ARCPATH_ADMIN_TOKEN: TOKEN } });
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(base + '/healthz');
      if (r.status === 200)
        return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${ARCPATHD} did not answer /healthz within 60 s`);
}

async function post(path, body) {
  const r = await fetch(base + path, { method: 'POST', body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

const viewer = (fn, arg) => page.evaluate(fn, arg);

function near(got, want, what) {
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++)
    assert.ok(Math.abs(got[i] - want[i]) <= EPS, `${what}[${i}]: drawn ${got[i]}, answer ${want[i]}`);
}

// Distance from (x, y) to a drawn primitive (line piece, arc between its drawn angles, or a turn's point).
function distance(p, d) {
  const [x, y] = p;
  if (d.type === 'line' || d.type === 'turn') {
    const [ax, ay] = d.start, [bx, by] = d.end;
    const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
    return Math.hypot(x - ax - t * dx, y - ay - t * dy);
  }
  const [cx, cy] = d.center;
  const sweep = d.endAngle - d.startAngle;
  let rel = Math.atan2(y - cy, x - cx) - d.startAngle; // angle travelled from the start, in sweep's sense
  rel = sweep >= 0 ? ((rel % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)
    : -((((-rel) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI));
  if (Math.abs(rel) <= Math.abs(sweep) + 1e-12)
    return Math.abs(Math.hypot(x - cx, y - cy) - d.radius);
  return Math.min(Math.hypot(x - d.start[0], y - d.start[1]), Math.hypot(x - d.end[0], y - d.end[1]));
}

// The drawn path is the answer: same segment count and types, reverse marks, ends within EPS; an arc is a
// canvas arc with the answer's centre and radius turning the answer's sweep in its sense.
function assertDrawn(drawn, answer) {
  assert.equal(answer.status, 'ok');
  assert.equal(drawn.segments.length, answer.segments.length, 'segment count');
  answer.segments.forEach((s, i) => {
    const d = drawn.segments[i];
    assert.equal(d.type, s.type, `segment ${i} type`);
    assert.equal(d.reverse, s.reverse === true, `segment ${i} reverse`);
    near(d.start, s.start, `segment ${i} start`);
    near(d.end, s.end, `segment ${i} end`);
    if (s.type === 'arc') {
      near(d.center, s.center, `segment ${i} center`);
      assert.equal(d.radius, s.radius);
      assert.ok(Math.abs(d.endAngle - d.startAngle - s.sweep) <= 1e-12, `segment ${i} sweep`);
      assert.equal(d.anticlockwise, s.sweep < 0, `segment ${i} direction`);
    }
  });
  // Every sample pose of the answer lies on what was drawn.
  for (const p of answer.samples || []) {
    const dmin = Math.min(...drawn.segments.map((d) => distance([p.x, p.y], d)));
    assert.ok(dmin <= 1e-6, `sample at d=${p.d} is ${dmin} tiles off the drawn path`);
  }
}

// Where world point (x, y) is on the page.
async function pagePoint(x, y) {
  const [sx, sy] = await viewer(([a, b]) => window.arcpathViewer.worldToScreen(a, b), [x, y]);
  return [canvasBox.x + sx, canvasBox.y + sy];
}

// Run action (clicks, drags, changes), then wait until every plan round it started has its answers.
async function settled(action) {
  const before = await viewer(() => window.arcpathViewer.plans);
  await action();
  await page.waitForFunction((n) => window.arcpathViewer.plans > n && window.arcpathViewer.inflight === 0,
    before, { timeout: STEP_MS });
}

async function clickCell(x, y) {
  const [px, py] = await pagePoint(x + 0.5, y + 0.5);
  await page.mouse.click(px, py);
}

// Drag from the world point (x, y) (a marker) by (dx, dy) CSS pixels: sets that marker's heading.
async function dragFrom(x, y, dx, dy) {
  const [px, py] = await pagePoint(x, y);
  await page.mouse.move(px, py);
  await page.mouse.down();
  await page.mouse.move(px + dx / 2, py + dy / 2, { steps: 3 });
  await page.mouse.move(px + dx, py + dy, { steps: 3 });
  await page.mouse.up();
}

async function setField(id, value) {
  await page.locator('#' + id).fill(String(value));
  await page.locator('#' + id).dispatchEvent('change');
}

async function openMap(id) {
  await page.selectOption('#map', id);
  await page.waitForFunction((m) => {
    const s = window.arcpathViewer.state;
    return s.map && s.map.id === m && s.image;
  }, id, { timeout: STEP_MS });
  canvasBox = await page.locator('#view').boundingBox();
}

// A fresh query: no poses, the panel's fields as given (selects and inputs by id), then start and goal
// clicked on the given cells.
async function clickQuery(fields, start, goal) {
  await page.click('#reset');
  for (const [id, v] of Object.entries(fields)) {
    if (await page.locator('#' + id).evaluate((e) => e.tagName === 'SELECT'))
      await page.selectOption('#' + id, String(v));
    else
      await setField(id, v);
  }
  await clickCell(start[0], start[1]);
  await settled(() => clickCell(goal[0], goal[1]));
}

// The page's last plan: the request it sent, what it drew, and the API's answer to that same body.
async function lastPlan() {
  const { request, drawn, answers } = await viewer(() => ({
    request: window.arcpathViewer.lastRequest,
    drawn: window.arcpathViewer.lastDrawn,
    answers: window.arcpathViewer.lastAnswers,
  }));
  const direct = await post('/v1/path', request);
  return { request, drawn, answers, direct };
}

before(async () => {
  await startServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(STEP_MS);
  // Script errors, and every answer of 400 or more (only the error test's 422 is expected).
  page.problems = [];
  page.failed = [];
  page.on('pageerror', (e) => page.problems.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400)
      page.failed.push(r.status() + ' ' + new URL(r.url()).pathname);
  });
  await page.goto(base + '/');
  await page.waitForFunction(() => window.arcpathViewer && window.arcpathViewer.ready, null, { timeout: STEP_MS });
});

after(async () => {
  if (browser)
    await browser.close();
  if (server && server.exitCode === null) {
    const done = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await done;
  }
});

test('the page\'s files carry an ETag that If-None-Match revalidates', async () => {
  const r = await fetch(base + '/viewer.js');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(r.headers.get('cache-control'), 'no-cache');
  // fetch asks for gzip (Accept-Encoding: gzip, deflate, br) and decodes it: the compressed copy carries
  // the weak form of the file's tag (README "HTTP conventions"); the size in the tag is the file's.
  assert.equal(r.headers.get('content-encoding'), 'gzip');
  assert.equal(r.headers.get('vary'), 'Accept-Encoding');
  const weak = r.headers.get('etag');
  assert.match(weak, /^W\/"[0-9]+-[0-9]+"$/);
  const etag = weak.slice(2);
  assert.equal(Number(etag.slice(1, -1).split('-')[1]), (await r.arrayBuffer()).byteLength);
  const status = async (inm) => (await fetch(base + '/viewer.js', { headers: { 'If-None-Match': inm } })).status;
  assert.equal(await status(etag), 304);
  assert.equal(await status('W/' + etag), 304);
  assert.equal(await status('"1-1", ' + etag), 304);
  assert.equal(await status('"1-1"'), 200);
  assert.equal(await status(etag.slice(0, -2) + '"'), 200);
  // Another file has another tag.
  const other = (await fetch(base + '/viewer.css')).headers.get('etag');
  assert.notEqual(other, etag);
});

test('the map list is GET /v1/maps and a map is drawn from its cells', async () => {
  // The viewer draws cells: it lists the grid maps (circle maps have no cells).
  const maps = (await (await fetch(base + '/v1/maps')).json()).maps.filter((m) => m.kind === 'grid').map((m) => m.id);
  const listed = await page.$$eval('#map option', (os) => os.map((o) => o.value));
  assert.deepEqual(listed, maps);
  await openMap('islands');
  const cells = await viewer(() => ({ w: window.arcpathViewer.state.image.width,
    h: window.arcpathViewer.state.image.height }));
  assert.deepEqual(cells, { w: 40, h: 20 });
  // Cell (2, 2) is ground ('.', white), cell (0, 0) is water ('W'): their pixels on the canvas say so.
  const px = async (x, y) => {
    const [sx, sy] = await viewer(([a, b]) => window.arcpathViewer.worldToScreen(a, b), [x + 0.5, y + 0.5]);
    return viewer(([a, b]) => {
      const c = document.getElementById('view');
      const k = window.devicePixelRatio || 1;
      return Array.from(c.getContext('2d').getImageData(Math.round(a * k), Math.round(b * k), 1, 1).data);
    }, [sx, sy]);
  };
  assert.deepEqual(await px(2, 2), [255, 255, 255, 255]);
  assert.deepEqual(await px(0, 0), [120, 160, 215, 255]);
});

test('a mangled #fragment opens the first map, no script error', async () => {
  await page.goto('about:blank'); // (from base + '/#islands' a new fragment alone would not load the page again)
  await page.goto(base + '/#%');
  await page.waitForFunction(() => window.arcpathViewer && window.arcpathViewer.ready, null, { timeout: STEP_MS });
  const first = (await (await fetch(base + '/v1/maps')).json()).maps.find((m) => m.kind === 'grid').id;
  assert.equal(await viewer(() => window.arcpathViewer.state.map.id), first);
  assert.deepEqual(page.problems, []);
});

test('a clicked grid query draws exactly the API answer, compared with a second algorithm', async () => {
  await openMap('rooms');
  await clickQuery({ radius: 0, turning: 0, alg: 'jps_plus', alg2: 'astar', smooth: 'none', step: '' }, [3, 3],
    [85, 50]);
  const { request, drawn, answers, direct } = await lastPlan();
  assert.deepEqual(request.start, { x: 3.5, y: 3.5 });
  assert.deepEqual(request.goal, { x: 85.5, y: 50.5 });
  assert.equal(request.search.algorithm, 'jps_plus');
  assert.equal(direct.status, 200);
  assert.equal(drawn.length, 2);
  assert.equal(drawn[0].algorithm, 'jps_plus');
  assert.equal(drawn[1].algorithm, 'astar');
  assertDrawn(drawn[0], direct.json);
  // Raw grid paths: length is the optimal grid cost, the same for both algorithms.
  assert.ok(Math.abs(answers[0].length - direct.json.grid_cost) < 1e-9);
  assert.ok(Math.abs(answers[1].grid_cost - direct.json.grid_cost) < 1e-9);
  const direct2 = await post('/v1/path', { ...request, search: { ...request.search, algorithm: 'astar' } });
  assertDrawn(drawn[1], direct2.json);
  // The stats table shows both answers.
  const table = await page.locator('#results table').innerText();
  assert.match(table, /jps_plus/);
  assert.match(table, /astar/);
  assert.ok(table.includes(direct.json.grid_cost.toFixed(4)), table);
});

test('the keyboard places start and goal: focus the map, arrows move a cell cursor, Enter places', async () => {
  await openMap('rooms');
  await page.click('#reset');
  await page.selectOption('#alg', 'astar');
  await page.selectOption('#alg2', '');
  const plans = await viewer(() => window.arcpathViewer.plans);
  await page.focus('#view');
  const cursor = () => viewer(() => ({ ...window.arcpathViewer.state.cursor }));
  // up (bounded) until the cursor's cell is open floor, so the query is answered, not refused
  const toFloor = async () => {
    for (let i = 0; i < 200; i++) {
      const open = await viewer(() => {
        const s = window.arcpathViewer.state;
        return s.cells.rows[s.cursor.y][s.cursor.x] === '.';
      });
      if (open)
        return cursor();
      await page.keyboard.press('ArrowUp');
    }
    throw new Error('no open cell above the cursor');
  };
  // no cursor until a key asks for one (a click focuses the map too); the first Enter only shows it, at
  // the map's middle cell with no start placed, and says where it is; S picks the start; then 3 left, 2 up;
  // a key not ours is ignored
  assert.equal(await viewer(() => window.arcpathViewer.state.cursor), null);
  await page.keyboard.press('Enter');
  assert.equal(await viewer(() => window.arcpathViewer.state.start), null);
  assert.match(await page.locator('#said').innerText(), /^cell \(\d+, \d+\)/);
  await page.keyboard.press('s');
  const mid = await cursor();
  const c = await viewer(() => ({ w: window.arcpathViewer.state.cells.width, h: window.arcpathViewer.state.cells.height }));
  assert.deepEqual(mid, { x: Math.floor(c.w / 2), y: Math.floor(c.h / 2) });
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++)
    await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await cursor(), { x: mid.x - 3, y: mid.y - 2 });
  const sc = await toFloor();
  await page.keyboard.press('Enter');
  const s = await viewer(() => window.arcpathViewer.state.start);
  assert.deepEqual(s, { x: sc.x + 0.5, y: sc.y + 0.5 });
  // ] and [ turn the picked pose's heading by 15 degrees; G picks the goal again after the start's turns
  await page.keyboard.press('s');
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await page.keyboard.press('[');
  const sh = await viewer(() => window.arcpathViewer.state.start.heading);
  assert.ok(Math.abs(sh - Math.PI / 6) < 1e-12, String(sh));
  assert.match(await page.locator('#said').innerText(), /start heading 30 degrees/);
  await page.keyboard.press('g');
  // Shift+arrow moves 10 cells and stops at the map's edge
  await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < 40; i++)
    await page.keyboard.press('Shift+ArrowDown');
  assert.deepEqual(await cursor(), { x: sc.x + 10, y: c.h - 1 });
  const hover = await page.locator('#hover').innerText();
  assert.match(hover, new RegExp(`cell \\(${sc.x + 10}, ${c.h - 1}\\)`));
  // Space places the goal, which the radios offer after the start
  const gc = await toFloor();
  await page.keyboard.press(' ');
  const g = await viewer(() => window.arcpathViewer.state.goal);
  assert.deepEqual(g, { x: gc.x + 0.5, y: gc.y + 0.5 });
  // both placed: the page planned them, as clicks would have, and the search answered
  await page.waitForFunction((n) => window.arcpathViewer.plans > n && window.arcpathViewer.inflight === 0, plans,
    { timeout: STEP_MS });
  const { request, direct } = await lastPlan();
  assert.deepEqual(request.start, { ...s, heading: sh });
  assert.deepEqual(request.goal, g);
  assert.equal(direct.status, 200);
  // + zooms about the cursor, and the view follows the cursor off the canvas's edge
  const scale0 = await viewer(() => window.arcpathViewer.state.view.scale);
  await page.keyboard.press('+');
  assert.ok(await viewer(() => window.arcpathViewer.state.view.scale) > scale0 * 1.4);
  for (let i = 0; i < 12; i++)
    await page.keyboard.press('Shift+ArrowLeft');
  const inView = await viewer(() => {
    const a = window.arcpathViewer, c = a.state.cursor, r = document.getElementById('view').getBoundingClientRect();
    const [x, y] = a.worldToScreen(c.x + 0.5, c.y + 0.5);
    return x >= 0 && y >= 0 && x <= r.width && y <= r.height;
  });
  assert.ok(inView);
  // the page did not scroll under the keys
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  // a mouse placement takes the keyboard's cursor away (no outline left where the mouse works)
  await page.mouse.click(canvasBox.x + 20, canvasBox.y + 20);
  assert.equal(await viewer(() => window.arcpathViewer.state.cursor), null);
  // the first key after it: G shows the cursor at the goal's cell (it showed it at the pose picked before),
  // an arrow only shows it at the picked pose's cell (it moved it a cell from there at once)
  await page.keyboard.press('g');
  const goal = await viewer(() => window.arcpathViewer.state.goal);
  assert.deepEqual(await cursor(), { x: Math.floor(goal.x), y: Math.floor(goal.y) });
  await page.mouse.click(canvasBox.x + 20, canvasBox.y + 20);
  assert.equal(await viewer(() => window.arcpathViewer.state.cursor), null);
  await page.keyboard.press('ArrowRight');
  const picked = await viewer(() => {
    const p = window.arcpathViewer.state[document.querySelector('input[name=pick]:checked').value];
    return { x: Math.floor(p.x), y: Math.floor(p.y) };
  });
  assert.deepEqual(await cursor(), picked);
});

test('the wheel zooms about the cursor, a drag pans, and clicks still land on their cells', async () => {
  await openMap('rooms');
  await page.click('#reset');
  const view = () => viewer(() => ({ ...window.arcpathViewer.state.view }));
  const v0 = await view();
  // The world point under the cursor stays under it while the scale grows (whole pixels: the browser
  // reports pointer positions in them).
  const [px, py] = (await pagePoint(30, 20)).map(Math.round);
  const under = () => viewer(([a, b]) => window.arcpathViewer.screenToWorld(a, b), [px - canvasBox.x, py - canvasBox.y]);
  const w0 = await under();
  await page.mouse.move(px, py);
  await page.mouse.wheel(0, -200);
  await page.waitForFunction((s) => window.arcpathViewer.state.view.scale > s, v0.scale);
  const v1 = await view();
  assert.ok(Math.abs(v1.scale / v0.scale - Math.pow(1.0015, 200)) < 1e-9, `scale ${v0.scale} -> ${v1.scale}`);
  near(await under(), w0, 'the world point under the cursor');
  // A drag on empty ground moves the view by the drag, and sets no pose.
  await page.mouse.move(px, py);
  await page.mouse.down();
  await page.mouse.move(px - 40, py + 25, { steps: 4 });
  await page.mouse.up();
  const v2 = await view();
  assert.ok(Math.abs(v2.tx - v1.tx + 40) < 1e-9 && Math.abs(v2.ty - v1.ty - 25) < 1e-9, JSON.stringify([v1, v2]));
  assert.equal(await viewer(() => window.arcpathViewer.state.start), null);
  // Fit puts the first view back.
  await page.click('#fit');
  assert.deepEqual(await view(), v0);
  await page.mouse.move(px, py);
  await page.mouse.wheel(0, -200);
  await page.waitForFunction((sc) => window.arcpathViewer.state.view.scale > sc, v0.scale);
  assert.deepEqual(await view(), v1);
  await page.mouse.down();
  await page.mouse.move(px - 40, py + 25, { steps: 4 });
  await page.mouse.up();
  await clickQuery({ alg: 'astar', alg2: '', radius: 0, turning: 0, smooth: 'none', step: '' }, [25, 18], [33, 22]);
  const { request, drawn, direct } = await lastPlan();
  assert.deepEqual([request.start, request.goal], [{ x: 25.5, y: 18.5 }, { x: 33.5, y: 22.5 }]);
  assertDrawn(drawn[0], direct.json);
  // Raw grid path between cell centres: its length is the grid cost, at least the octile distance 4 + 4 sqrt 2.
  assert.ok(Math.abs(direct.json.length - direct.json.grid_cost) < 1e-9, `length ${direct.json.length}`);
  assert.ok(direct.json.length >= 4 + 4 * Math.SQRT2 - 1e-9);
});

test('a turning-radius query is drawn with true arcs, samples on them', async () => {
  await openMap('rooms');
  await clickQuery({ alg2: '', radius: 0.4, turning: 2, alg: 'auto', smooth: 'los', step: 0.5 }, [3, 3],
    [20, 15]);
  // Drag east from the start marker: heading 0 (+x).
  await settled(() => dragFrom(3.5, 3.5, 60, 0));
  const { request, drawn, direct } = await lastPlan();
  assert.ok(Math.abs(request.start.heading) < 1e-6, `start heading ${request.start.heading}`);
  assert.deepEqual(request.unit, { radius: 0.4, turning_radius: 2 });
  assert.equal(direct.status, 200);
  assert.equal(drawn.length, 1);
  assertDrawn(drawn[0], direct.json);
  const arcs = drawn[0].segments.filter((d) => d.type === 'arc');
  assert.ok(arcs.length >= 1, 'a turning path has arcs');
  for (const a of arcs)
    assert.ok(a.radius >= 2 - 1e-12, `arc radius ${a.radius}`);
  assert.equal(drawn[0].samples, direct.json.samples.length);
  assert.ok(drawn[0].samples > 10);
  // what a screen reader finds: the picture, the heading's button by its job, the answers announced
  assert.equal(await page.getByRole('application', { name: /^map and paths/ }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'free the start heading' }).count(), 1);
  assert.equal(await page.locator('#results').getAttribute('aria-live'), 'polite');
  assert.equal(await page.getByRole('radiogroup', { name: 'Click sets' }).count(), 1);
});

test('unit kinds and capabilities: a boat on the water, an amphibian across it', async () => {
  await openMap('islands');
  // The boat (config/demo.conf: radius 0.4, water only, turning radius 2) down the channel between the
  // islands; the panel shows the kind's values, locked, and the request names the kind alone.
  await page.selectOption('#kind', 'boat');
  assert.equal(await page.locator('#radius').inputValue(), '0.4');
  assert.ok(await page.locator('#radius').isDisabled());
  assert.ok(await page.locator('#reverse').isDisabled()); // the kind says whether it reverses
  await clickQuery({ alg: 'auto', alg2: '', smooth: 'los', step: '' }, [19, 3], [20, 16]);
  let plan = await lastPlan();
  assert.deepEqual(plan.request.unit, { kind: 'boat' });
  assert.equal(plan.direct.status, 200);
  assert.equal(plan.direct.json.status, 'ok');
  assertDrawn(plan.drawn[0], plan.direct.json);
  for (const d of plan.drawn[0].segments) /* the channel is columns 16..23 */
    for (const [x] of [d.start, d.end])
      assert.ok(x >= 16 && x <= 24, `the boat left the water at x = ${x}`);
  // An amphibian crosses from island to island; with the capability chosen by hand instead of a kind.
  await page.click('#reset'); // no poses: changing the unit plans nothing
  await page.selectOption('#kind', '');
  assert.ok(!(await page.locator('#radius').isDisabled()));
  assert.ok(!(await page.locator('#reverse').isDisabled()));
  const caps = await page.locator('#cap option').allTextContents();
  assert.ok(caps.includes('ground+swamp+water+trees'), `capabilities offered: ${caps}`);
  await clickQuery({ cap: 'ground+swamp+water+trees', radius: 0, turning: 0, size: 0, alg: 'astar', alg2: '',
    smooth: 'none', step: '' }, [5, 5], [30, 5]);
  plan = await lastPlan();
  assert.deepEqual(plan.request.unit.capability, ['ground', 'swamp', 'water', 'trees']);
  assert.equal(plan.direct.json.status, 'ok');
  assertDrawn(plan.drawn[0], plan.direct.json);
  assert.ok(Math.abs(plan.direct.json.length - 25) < 1e-9, `length ${plan.direct.json.length}`);
  await page.click('#reset');
  await page.selectOption('#cap', '');
});

test('a reverse query marks its reverse segments', async () => {
  await openMap('rooms');
  await page.click('#reset');
  await page.check('#reverse');
  await clickQuery({ radius: 0.4, turning: 2, alg: 'directional24', alg2: '', step: '' }, [3, 3], [6, 2]);
  await settled(() => dragFrom(3.5, 3.5, 60, 0));   // start faces east
  await settled(() => dragFrom(6.5, 2.5, -60, 0));  // goal faces west, behind the start
  const { request, drawn, direct } = await lastPlan();
  assert.equal(request.unit.reverse, true);
  assert.ok(Math.abs(Math.abs(request.goal.heading) - Math.PI) < 1e-6);
  assertDrawn(drawn[0], direct.json);
  assert.ok(drawn[0].segments.some((d) => d.reverse), 'some segment is driven in reverse');
  await page.uncheck('#reverse');
});

test('a kinodynamic answer with a turn on the spot: drawn in place, nothing stroked for the turn', async () => {
  const { status, json: answer } = await post('/v1/path', { map: 'arena', start: { x: 10.5, y: 10.5, heading: 0 },
    goal: { x: 7.5, y: 10.5, heading: 3.1416 }, unit: { kind: 'pedestrian' }, search: { algorithm: 'kinodynamic' },
    samples: { dt: 0.25 } });
  assert.equal(status, 200);
  assert.equal(answer.segments[0].type, 'turn');
  const drawn = await viewer((a) => {
    const ctx = document.createElement('canvas').getContext('2d');
    return window.arcpathDraw.path(ctx, a, { path: '#0969da', reverse: '#cf222e' }, 0.1, 0.05, true);
  }, answer);
  assertDrawn(drawn, answer);
  assert.equal(drawn.segments[0].type, 'turn');
  assert.ok(drawn.segments.slice(1).every((d) => d.type !== 'turn'), 'one turn, then driving');
});

test('the answer table: a no_path with its reason, a timed answer\'s duration_s', async () => {
  // The answer table's cell of a row (by its name) in the first answer's column; null without that row.
  const cell = (row) => viewer((name) => {
    const tr = [...document.querySelectorAll('#results table.stats tr')].find((r) => r.cells[0].textContent === name);
    return tr ? tr.cells[1].textContent : null;
  }, row);
  await openMap('islands'); // (4, 4) and (30, 10) lie on two islands
  await clickQuery({ radius: 0, turning: 0, alg: 'auto', alg2: '', step: '' }, [4, 4], [30, 10]);
  assert.equal(await cell('status'), 'no_path (unreachable)');
  assert.equal(await cell('duration_s'), null); // untimed: no row
  // a screen reader's table: row names and the answers' columns are headers; the live region is busy only
  // while an answer is pending (so the table is read once)
  assert.equal(await page.getByRole('rowheader', { name: 'status' }).count(), 1);
  assert.equal(await page.getByRole('columnheader', { name: 'auto' }).count(), 1);
  assert.equal(await page.locator('#results').getAttribute('aria-busy'), 'false');
  await openMap('arena');
  await page.selectOption('#kind', 'tank');
  await clickQuery({ alg: 'auto', alg2: '', step: '' }, [5, 5], [20, 5]);
  const { answers } = await lastPlan();
  assert.equal(answers[0].status, 'ok');
  assert.equal(await cell('duration_s'), answers[0].duration_s.toFixed(3));
  await page.selectOption('#kind', '');
});

test('API errors are shown with their code and message', async () => {
  await openMap('rooms');
  // Cell (0, 0) is the wall around the rooms map.
  await clickQuery({ radius: 0, turning: 0, alg: 'auto', alg2: '', step: '' }, [0, 0], [10, 10]);
  const err = await page.locator('#results .error').innerText();
  assert.equal(err, 'auto: start_blocked: "start" is on a blocked cell (0, 0) (field start)');
  assert.deepEqual(await viewer(() => window.arcpathViewer.lastDrawn), []);
});

test('an error\'s field marks the panel\'s input until an answer is good; fractional values are valid', async () => {
  await openMap('rooms');
  await clickQuery({ kind: '', radius: 20, turning: 0, alg: 'astar', alg2: '', smooth: 'los', step: '' }, [3, 3], [10, 10]);
  assert.equal(await page.locator('#results .error').innerText(),
    'astar: invalid_request: "unit.radius" must be between 0 and 16 (field unit.radius)');
  assert.equal(await page.locator('#radius').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#turning').getAttribute('aria-invalid'), null);
  // values the API takes are valid numbers to the browser too (a step of 0.05 / 0.25 flagged 0.33, 1.6, 0.5)
  await settled(() => setField('radius', 0.33));
  assert.equal(await page.locator('#radius').getAttribute('aria-invalid'), null, 'the mark goes with a good answer');
  await settled(() => setField('turning', 1.6));
  await settled(() => setField('step', 0.5));
  for (const id of ['radius', 'turning', 'step'])
    assert.ok(await page.locator('#' + id).evaluate((e) => e.validity.valid), `#${id} reads as invalid`);
  // smoothing taut, the API's third value, is offered and sent
  await clickQuery({ radius: 0, turning: 0, alg: 'astar', smooth: 'taut', step: '' }, [3, 3], [45, 55]);
  const plan = await lastPlan();
  assert.equal(plan.request.search.smoothing, 'taut');
  assert.equal(plan.direct.json.status, 'ok');
  assertDrawn(plan.drawn[0], plan.direct.json);
  await page.selectOption('#smooth', 'los');
  page.failed = page.failed.filter((f) => f !== '400 /v1/path'); // this test's own, expected
});

test('a batch\'s failed items show the first error of each code; a unit with no cell to stand on says so', async () => {
  await openMap('rooms');
  await page.click('#reset');
  await page.selectOption('#kind', '');
  await page.selectOption('#alg', 'auto');
  await setField('radius', 20); // (no poses: nothing is planned)
  await setField('batchn', 3);
  let before = await viewer(() => window.arcpathViewer.batches);
  try {
    await page.click('#batch');
    await page.waitForFunction((n) => window.arcpathViewer.batches > n, before, { timeout: STEP_MS });
    assert.equal(await page.locator('#batchinfo').innerText(), '3 invalid_request expanded 0, search_us ' +
      (await viewer(() => window.arcpathViewer.state.batch.answer.stats.search_us)) + ', lane fast\n' +
      'first invalid_request: "unit.radius" must be between 0 and 16 (field unit.radius)');
  } finally {
    await setField('radius', 0);
  }
  // the boat (water only) on rooms, which has no water: no query is sent, the batch line says why
  await page.selectOption('#kind', 'boat');
  before = await viewer(() => window.arcpathViewer.batches);
  await page.click('#batch');
  assert.equal(await page.locator('#batchinfo').innerText(), 'no cell of this map is passable for the unit\'s terrain');
  assert.equal(await viewer(() => window.arcpathViewer.batches), before);
  await page.selectOption('#kind', '');
});

test('on a touch screen a drag from the start marker turns its heading and plans again; two fingers do not', async () => {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  try {
    const tp = await ctx.newPage();
    tp.setDefaultTimeout(STEP_MS);
    await tp.goto(base + '/#rooms');
    await tp.waitForFunction(() => window.arcpathViewer && window.arcpathViewer.ready &&
      window.arcpathViewer.state.image, null, { timeout: STEP_MS });
    const box = await tp.locator('#view').boundingBox();
    const at = async (x, y) => {
      const [sx, sy] = await tp.evaluate(([a, b]) => window.arcpathViewer.worldToScreen(a, b), [x, y]);
      return [box.x + sx, box.y + sy];
    };
    await tp.touchscreen.tap(...(await at(10.5, 10.5)));
    await tp.touchscreen.tap(...(await at(40.5, 20.5)));
    await tp.waitForFunction(() => window.arcpathViewer.plans >= 1 && window.arcpathViewer.inflight === 0, null,
      { timeout: STEP_MS });
    const plans = await tp.evaluate(() => window.arcpathViewer.plans);
    // one finger from the start marker, 10 px right and 60 px down: heading atan2(60, 10) on screen and map
    const cdp = await ctx.newCDPSession(tp);
    const [x, y] = await at(10.5, 10.5);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let i = 1; i <= 10; i++)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + i, y: y + 6 * i }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await tp.waitForFunction((n) => window.arcpathViewer.plans > n && window.arcpathViewer.inflight === 0, plans,
      { timeout: STEP_MS });
    const start = await tp.evaluate(() => window.arcpathViewer.lastRequest.start);
    assert.equal(start.x, 10.5);
    assert.equal(start.y, 10.5);
    assert.ok(Math.abs(start.heading - Math.atan2(6, 1)) < 0.02, `heading ${start.heading}`);

    // Two fingers are the page's pinch zoom, not the map's: one down 80 px left of the goal marker, a second
    // on the marker, both spreading: no pan, no turn of the goal, no plan; then a two-finger tap places
    // nothing. (Before: the pinch panned the map, turned the goal and planned; the tap moved the start.)
    const quiet = async () => {
      await tp.waitForTimeout(300);
      return tp.evaluate(() => ({ plans: window.arcpathViewer.plans, inflight: window.arcpathViewer.inflight,
        tx: window.arcpathViewer.state.view.tx, ty: window.arcpathViewer.state.view.ty,
        start: { ...window.arcpathViewer.state.start }, goal: { ...window.arcpathViewer.state.goal } }));
    };
    const before = await quiet();
    assert.equal(before.goal.heading, undefined);
    const [gx, gy] = await at(40.5, 20.5);
    const f1 = (d) => ({ x: gx - 80 - d, y: gy, id: 1 }), f2 = (d) => ({ x: gx + d, y: gy, id: 2 });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [f1(0)] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [f1(0), f2(0)] });
    for (let i = 1; i <= 8; i++)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [f1(5 * i), f2(5 * i)] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const pinched = await quiet();
    assert.deepEqual(pinched, before);
    const [ax, ay] = await at(5.5, 15.5), [bx, by] = await at(25.5, 15.5);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: ax, y: ay, id: 1 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart',
      touchPoints: [{ x: ax, y: ay, id: 1 }, { x: bx, y: by, id: 2 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [{ x: bx, y: by, id: 2 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    assert.deepEqual(await quiet(), before);
  } finally {
    await ctx.close();
  }
});

test('a batch of random pairs is drawn from one POST /v1/paths', async () => {
  await openMap('arena');
  await page.click('#reset');
  await page.selectOption('#alg', 'auto');
  await setField('turning', 0);
  await setField('batchn', 12);
  const before = await viewer(() => window.arcpathViewer.batches);
  await page.click('#batch');
  await page.waitForFunction((n) => window.arcpathViewer.batches > n, before, { timeout: STEP_MS });
  const { request, answer, drawn } = await viewer(() => ({
    request: window.arcpathViewer.state.batch.request,
    answer: window.arcpathViewer.state.batch.answer,
    drawn: window.arcpathViewer.lastBatchDrawn,
  }));
  assert.equal(request.queries.length, 12);
  assert.equal(answer.results.length, 12);
  const ok = answer.results.filter((r) => r.status === 'ok');
  assert.equal(drawn.length, ok.length);
  ok.forEach((r, i) => assertDrawn(drawn[i], r));
  assert.match(await page.locator('#batchinfo').innerText(), new RegExp(`${ok.length} ok`));
});

test('a map picked while the previous one\'s cells are on their way is the one the page works on', async () => {
  // arena's cells held back 1.5 s (a slow network, a big map); islands picked meanwhile: the late cells
  // must not replace islands' (the cursor, clicks and batches read them).
  await openMap('rooms');
  await page.route('**/v1/maps/arena/cells', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.selectOption('#map', 'arena');
  await page.selectOption('#map', 'islands');
  await new Promise((r) => setTimeout(r, 2500));
  await page.unroute('**/v1/maps/arena/cells');
  const { id, w, h, caps } = await viewer(() => ({
    id: window.arcpathViewer.state.map.id,
    w: window.arcpathViewer.state.cells && window.arcpathViewer.state.cells.width,
    h: window.arcpathViewer.state.cells && window.arcpathViewer.state.cells.height,
    caps: [...document.querySelectorAll('#cap option')].map((o) => o.value),
  }));
  const islands = (await (await fetch(base + '/v1/maps/islands')).json());
  assert.equal(id, 'islands');
  assert.deepEqual([w, h], [islands.width, islands.height]);
  assert.equal(new Set(caps).size, caps.length, `capabilities listed once: ${caps}`);
  // islands, rooms, islands again with the first islands' map info late: its capabilities are not added
  // to the second's
  let first = true;
  await page.route('**/v1/maps/islands', async (route) => {
    if (first) {
      first = false;
      await new Promise((r) => setTimeout(r, 1500));
    }
    await route.continue();
  });
  await page.selectOption('#map', 'rooms');
  await page.selectOption('#map', 'islands');
  await page.selectOption('#map', 'rooms');
  await page.selectOption('#map', 'islands');
  await new Promise((r) => setTimeout(r, 2500)); // (the held handler done before it is unrouted)
  await page.unroute('**/v1/maps/islands');
  const again = await viewer(() => [...document.querySelectorAll('#cap option')].map((o) => o.value));
  assert.deepEqual(again, caps);
});

test('a query replaced before its answer is aborted, so it frees its search on the server', async () => {
  await openMap('arena');
  await clickQuery({ radius: 0, turning: 0, alg: 'auto', alg2: '', step: '' }, [5, 5], [40, 40]);
  // The next answer held back 1.5 s; a new query meanwhile: the browser drops the first request.
  const aborted = [];
  const onFailed = (r) => aborted.push(r.failure() && r.failure().errorText);
  page.on('requestfailed', onFailed);
  let held = true;
  await page.route('**/v1/path', async (route) => {
    if (held) {
      held = false;
      await new Promise((r) => setTimeout(r, 1500));
    }
    await route.continue().catch(() => {}); // the aborted one: nothing left to continue
  });
  await page.click('#plan');
  await settled(() => setField('radius', 0.4));
  await page.unroute('**/v1/path');
  page.off('requestfailed', onFailed);
  assert.deepEqual(aborted, ['net::ERR_ABORTED']);
  const { request, drawn } = await lastPlan();
  assert.equal(request.unit.radius, 0.4);
  assert.equal(drawn.length, 1);
});

test('an answer on a newer map_version reads the edited map again', async () => {
  await openMap('maze');
  assert.equal(await viewer(() => window.arcpathViewer.state.cellsVersion), 1);
  await clickQuery({ radius: 0, turning: 0, alg: 'auto', alg2: '', step: '' }, [6, 2], [18, 2]);
  // a wall across the corridor at x = 12, behind the viewer's back
  const patch = (terrain) => fetch(base + '/v1/maps/maze/cells', {
    method: 'PATCH',
    headers: { Authorization: 'Bearer ' + TOKEN },
    body: JSON.stringify({ cells: [1, 2, 3].map((y) => ({ x: 12, y, terrain })) }),
  });
  assert.equal((await patch('@')).status, 200);
  await settled(() => page.click('#plan'));
  const seen = await viewer(() => ({
    version: window.arcpathViewer.state.cellsVersion,
    cell: window.arcpathViewer.state.cells.rows[2][12],
    answer: window.arcpathViewer.lastAnswers[0].map_version,
  }));
  assert.deepEqual(seen, { version: 2, cell: '@', answer: 2 });
  assert.match(await page.locator('#mapinfo').innerText(), /map_version 2/);
  assert.equal((await patch('.')).status, 200); // maze as it was (version 3), for the tests after
});

test('a refresh that a newer one overtook does not bring older cells back', async () => {
  await openMap('maze');
  await clickQuery({ radius: 0, turning: 0, alg: 'auto', alg2: '', step: '' }, [6, 2], [18, 2]);
  const v0 = await viewer(() => window.arcpathViewer.state.cellsVersion);
  const edit = (cells) => fetch(base + '/v1/maps/maze/cells', {
    method: 'PATCH',
    headers: { Authorization: 'Bearer ' + TOKEN },
    body: JSON.stringify({ cells }),
  });
  // the first refresh's cells (v0 + 1) read at once and handed over 2 s late
  let first = true;
  await page.route('**/v1/maps/maze/cells', async (route) => {
    if (!first)
      return route.continue();
    first = false;
    const resp = await route.fetch();
    await new Promise((r) => setTimeout(r, 2000));
    await route.fulfill({ response: resp });
  });
  assert.equal((await edit([{ x: 12, y: 1, terrain: '@' }])).status, 200);
  await settled(async () => {
    await page.click('#plan');
    for (let i = 0; i < 100 && first; i++) // the first refresh under way: its cells held
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(first, false);
    assert.equal((await edit([{ x: 12, y: 3, terrain: '@' }])).status, 200);
    await page.click('#plan');
  });
  await page.unroute('**/v1/maps/maze/cells');
  const seen = await viewer(() => ({
    version: window.arcpathViewer.state.cellsVersion,
    cell: window.arcpathViewer.state.cells.rows[3][12],
    answer: window.arcpathViewer.lastAnswers[0].map_version,
  }));
  assert.deepEqual(seen, { version: v0 + 2, cell: '@', answer: v0 + 2 });
  assert.equal((await edit([{ x: 12, y: 1, terrain: '.' }, { x: 12, y: 3, terrain: '.' }])).status, 200);
});

test('a query sent while the map\'s info is read again keeps the capability picked', async () => {
  await openMap('islands');
  const caps = ['ground', 'swamp', 'water', 'trees'];
  await clickQuery({ kind: '', cap: caps.join('+'), radius: 0, turning: 0, size: 0, alg: 'astar', alg2: '',
    smooth: 'none', step: '' }, [5, 5], [30, 5]);
  const patch = (terrain) => fetch(base + '/v1/maps/islands/cells', {
    method: 'PATCH',
    headers: { Authorization: 'Bearer ' + TOKEN },
    body: JSON.stringify({ cells: [{ x: 0, y: 0, terrain }] }),
  });
  assert.equal((await patch('@')).status, 200); // a corner of water walled: a new map_version
  const version = await viewer(() => window.arcpathViewer.state.cellsVersion);
  // the next answer names the new version: the page reads the map's info again, held here for 1.5 s
  const held = '**/v1/maps/islands';
  let reached;
  const out = new Promise((done) => { reached = done; });
  await page.route(held, async (r) => {
    reached();
    await new Promise((done) => setTimeout(done, 1500));
    await r.continue();
  });
  await page.click('#plan');
  await out; // the first answer came, and the read of the map's info with it
  await settled(() => page.click('#plan')); // sent while that read is out
  assert.deepEqual((await viewer(() => window.arcpathViewer.lastRequest)).unit.capability, caps);
  assert.equal(await viewer(() => window.arcpathViewer.lastAnswers[0].status), 'ok');
  await page.waitForFunction((v) => window.arcpathViewer.state.cellsVersion > v, version, { timeout: STEP_MS });
  await page.unroute(held);
  assert.equal(await page.locator('#cap').inputValue(), caps.join('+'));
  assert.equal((await patch('W')).status, 200); // islands as it was (a newer version), for the tests after
  await page.click('#reset');
  await page.selectOption('#cap', '');
});

test('text a number input cannot read is the API\'s error on that field, not a point unit', async () => {
  await openMap('arena');
  await clickQuery({ kind: '', cap: '', radius: 0, turning: 0, size: 0, alg: 'astar', alg2: '', smooth: 'los',
    step: '' }, [3, 3], [20, 12]);
  await page.locator('#radius').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1e'); // a number input holds it, but its value reads ''
  assert.ok(await page.locator('#radius').evaluate((e) => e.validity.badInput));
  await settled(() => page.locator('#radius').dispatchEvent('change'));
  assert.equal(await viewer(() => JSON.stringify(window.arcpathViewer.lastRequest.unit.radius)), 'null');
  assert.match(await page.locator('#results .error').innerText(), /invalid_request/);
  assert.equal(await page.locator('#radius').getAttribute('aria-invalid'), 'true');
  await setField('radius', 0);
  page.failed.splice(page.failed.lastIndexOf('400 /v1/path'), 1); // this test's own
});

test('an #id typed into the address bar, and Back, open that map', async () => {
  await openMap('arena');
  await page.evaluate(() => { location.hash = '#rooms'; });
  await page.waitForFunction(() => {
    const s = window.arcpathViewer.state;
    return s.map && s.map.id === 'rooms' && s.image;
  }, null, { timeout: STEP_MS });
  assert.equal(await page.locator('#map').inputValue(), 'rooms');
  await page.goBack();
  await page.waitForFunction(() => {
    const s = window.arcpathViewer.state;
    return s.map && s.map.id === 'arena' && s.image;
  }, null, { timeout: STEP_MS });
  assert.equal(await page.locator('#map').inputValue(), 'arena');
  canvasBox = await page.locator('#view').boundingBox();
});

test('a server with circle worlds only: the page says there is no grid map to draw, and opens one added later', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arcpath-viewer-circles-'));
  copyFileSync('config/maps/forest.circles.json', join(dir, 'forest.circles.json'));
  const port = await freePort();
  const own = spawn(ARCPATHD, ['--listen', `127.0.0.1:${port}`, '--maps', dir],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ARCPATH_ADMIN_TOKEN: TOKEN } });
  const other = await browser.newPage();
  try {
    let up = false;
    for (let i = 0; i < 600 && !up; i++) {
      try {
        up = (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.ok(up, 'the circle-world server did not start');
    const errors = [];
    other.on('pageerror', (e) => errors.push(String(e)));
    await other.goto(`http://127.0.0.1:${port}/`);
    await other.waitForFunction(() => window.arcpathViewer && window.arcpathViewer.ready, null, { timeout: STEP_MS });
    assert.equal(await other.locator('#mapinfo').innerText(),
      'no grid map to draw: this server has 1 circle world (planned through the API)');
    // a grid map PUT later: listed and opened when the page comes back into view (with nothing on screen,
    // picking the one option would fire no change event)
    assert.equal((await fetch(`http://127.0.0.1:${port}/v1/maps/late`, {
      method: 'PUT', body: 'type octile\nheight 3\nwidth 5\nmap\n' + '.....\n'.repeat(3),
      headers: { Authorization: 'Bearer ' + TOKEN },
    })).status, 201);
    const n = await other.evaluate(() => window.arcpathViewer.relists);
    await other.evaluate(() => window.dispatchEvent(new Event('focus')));
    await other.waitForFunction((k) => window.arcpathViewer.relists > k, n, { timeout: STEP_MS });
    await other.waitForFunction(() => {
      const s = window.arcpathViewer.state;
      return s.map && s.map.id === 'late' && s.image;
    }, null, { timeout: STEP_MS });
    assert.equal(await other.locator('#map').inputValue(), 'late');
    assert.match(await other.locator('#mapinfo').innerText(), /^5 \u00d7 3 cells/);
    assert.deepEqual(errors, []);
  } finally {
    await other.close();
    const done = new Promise((resolve) => own.once('exit', resolve));
    own.kill('SIGTERM');
    await done;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an answer on an older map_version (a restarted server, another replica) reads the cells again', async () => {
  await openMap('rooms');
  await openMap('maze'); // edited by the tests above: the map line names its version from the map's info
  const v = await viewer(() => window.arcpathViewer.state.cellsVersion);
  assert.ok(v > 1);
  assert.match(await page.locator('#mapinfo').innerText(), new RegExp(`map_version ${v}$`));
  // the answer as a restarted server would give it: map_version 1
  await page.route('**/v1/path', async (route) => {
    const resp = await route.fetch();
    const json = await resp.json();
    await route.fulfill({ response: resp, json: { ...json, map_version: 1 } });
  });
  let reads = 0;
  const onRequest = (r) => { reads += new URL(r.url()).pathname === '/v1/maps/maze/cells'; };
  page.on('request', onRequest);
  await clickQuery({ radius: 0, turning: 0, alg: 'auto', alg2: '', step: '' }, [6, 2], [18, 2]);
  page.off('request', onRequest);
  await page.unroute('**/v1/path');
  assert.equal(reads, 1);
});

test('"(none)" after a unit kind gives back the fields as the user had them', async () => {
  await openMap('rooms');
  await page.click('#reset');
  await setField('radius', 0.3);
  await setField('turning', 1.25);
  await page.selectOption('#kind', 'boat');
  assert.equal(await page.locator('#radius').inputValue(), '0.4');
  await page.selectOption('#kind', '');
  assert.equal(await page.locator('#radius').inputValue(), '0.3');
  assert.equal(await page.locator('#turning').inputValue(), '1.25');
  assert.equal(await page.locator('#cap').inputValue(), '');
  assert.ok(!(await page.locator('#radius').isDisabled()));
  await setField('radius', 0);
  await setField('turning', 0);
});

test('a unit kind shows its own capability and draws the map as it sees it; a square keeps its radius', async () => {
  await openMap('islands');
  await page.click('#reset');
  await page.selectOption('#cap', 'ground+swamp+water+trees');
  await page.selectOption('#kind', 'boat'); // water only
  assert.equal(await page.locator('#cap').inputValue(), 'water');
  assert.ok(await page.locator('#cap').isDisabled());
  // The terrain image's pixel of the first cell of a letter.
  const pixelOf = (letter) => viewer((t) => {
    const s = window.arcpathViewer.state;
    for (let y = 0; y < s.cells.height; y++)
      for (let x = 0; x < s.cells.width; x++)
        if (s.cells.rows[y][x] === t)
          return Array.from(s.image.getContext('2d').getImageData(x, y, 1, 1).data).slice(0, 3);
    return null;
  }, letter);
  assert.deepEqual(await pixelOf('.'), [150, 154, 160]); // land is grey for the boat
  assert.deepEqual(await pixelOf('W'), [200, 220, 245]); // and water passable
  await page.selectOption('#kind', 'crate'); // no capability of its own: the map's default, not the box's
  assert.equal(await page.locator('#cap').inputValue(), '');
  assert.deepEqual(await pixelOf('W'), [120, 160, 215]); // water blocked for the crate, as the map's default
  assert.deepEqual(await pixelOf('.'), [255, 255, 255]);
  await page.selectOption('#kind', '');
  await page.selectOption('#cap', '');
  // A square with a turning radius: the API's refusal shown, not a path without the turning radius.
  await clickQuery({ radius: 0, turning: 2, size: 2, alg: 'auto', alg2: '', smooth: 'los', step: '' }, [3, 3], [8, 3]);
  const plan = await lastPlan();
  assert.deepEqual(plan.request.unit, { radius: 0, turning_radius: 2, size: 2 });
  assert.equal(plan.direct.status, 400);
  assert.match(await page.locator('#results .error').innerText(), /invalid_request: .* \(field unit\.size\)/);
  await page.click('#reset');
  await setField('size', 0);
  await setField('turning', 0);
});

// Map id's admin calls (PUT, DELETE: method, body); after an 8 x 8 open grid is PUT as id, the page reloaded
// (its list has it), the map opened and a query from (1, 1) to (6, 6) planned on it.
async function scratchMap(id) {
  const admin = (method, body) => fetch(base + '/v1/maps/' + id, {
    method, body, headers: { Authorization: 'Bearer ' + TOKEN },
  });
  assert.equal((await admin('PUT', 'type octile\nheight 8\nwidth 8\nmap\n' + '........\n'.repeat(8))).status, 201);
  await page.reload();
  await page.waitForFunction(() => window.arcpathViewer && window.arcpathViewer.ready, null, { timeout: STEP_MS });
  await openMap(id);
  await clickQuery({ radius: 0, turning: 0, alg: 'auto', alg2: '', step: '' }, [1, 1], [6, 6]);
  return admin;
}

test('a map deleted while it is on screen is marked so in the list', async () => {
  const admin = await scratchMap('scratch');
  assert.equal((await admin('DELETE')).status, 204);
  await settled(() => page.click('#plan'));
  assert.match(await page.locator('#results .error').innerText(), /unknown_map/);
  const option = await page.locator('#map option[value="scratch"]');
  assert.equal(await option.innerText(), 'scratch (deleted)');
  assert.ok(await option.evaluate((o) => o.disabled), 'the deleted map cannot be picked again');
  assert.equal(await page.locator('#map').inputValue(), 'scratch');
  // added again: its next answer makes it an ordinary entry of the list, one that can be picked
  assert.equal((await admin('PUT', 'type octile\nheight 8\nwidth 8\nmap\n' + '........\n'.repeat(8))).status, 201);
  await settled(() => page.click('#plan'));
  assert.equal(await viewer(() => window.arcpathViewer.lastAnswers[0].status), 'ok');
  assert.equal(await option.innerText(), 'scratch (8 \u00d7 8)');
  assert.ok(!(await option.evaluate((o) => o.disabled)), 'the map added again is still disabled');
  // deleted again, a batch's unknown_map marks it too
  assert.equal((await admin('DELETE')).status, 204);
  const before = await viewer(() => window.arcpathViewer.batches);
  await setField('batchn', 2);
  await page.click('#batch');
  await page.waitForFunction((n) => window.arcpathViewer.batches > n, before, { timeout: STEP_MS });
  assert.match(await page.locator('#batchinfo').innerText(), /^unknown_map: /);
  assert.equal(await option.innerText(), 'scratch (deleted)');
  assert.ok(await option.evaluate((o) => o.disabled));
  page.failed = page.failed.filter((f) => f !== '404 /v1/path' && f !== '404 /v1/paths'); // this test's own
});

test('maps added or removed since the page loaded show up when it comes back into view', async () => {
  const admin = (method, body) => fetch(base + '/v1/maps/later', {
    method, body, headers: { Authorization: 'Bearer ' + TOKEN },
  });
  const onScreen = await page.locator('#map').inputValue();
  const option = page.locator('#map option[value="later"]');
  const relist = async (event) => {
    const n = await viewer(() => window.arcpathViewer.relists);
    await viewer((e) => (e === 'focus' ? window : document).dispatchEvent(new Event(e)), event);
    await page.waitForFunction((k) => window.arcpathViewer.relists > k, n, { timeout: STEP_MS });
  };
  assert.equal((await admin('PUT', 'type octile\nheight 3\nwidth 5\nmap\n' + '.....\n'.repeat(3))).status, 201);
  assert.equal(await option.count(), 0, 'listed before the page looked again');
  await relist('focus');
  assert.equal(await option.innerText(), 'later (5 \u00d7 3)');
  assert.equal(await page.locator('#map').inputValue(), onScreen, 'the map on screen stays picked');
  assert.equal((await admin('DELETE')).status, 204);
  await relist('visibilitychange');
  assert.equal(await option.count(), 0, 'a removed map that is not on screen leaves the list');
  assert.equal(await page.locator('#map').inputValue(), onScreen);
});

test('a grid map replaced by a circle world under its id leaves the canvas and the list', async () => {
  const admin = await scratchMap('swap');
  const circles = readFileSync('config/maps/forest.circles.json', 'utf8');
  assert.equal((await admin('PUT', circles)).status, 200);
  await settled(() => page.click('#plan'));
  await page.waitForFunction(() => window.arcpathViewer.state.image === null, null, { timeout: STEP_MS });
  assert.match(await page.locator('#mapinfo').innerText(), /^swap is now a circle world/);
  const option = page.locator('#map option[value="swap"]');
  assert.equal(await option.innerText(), 'swap (circle world)');
  assert.ok(await option.evaluate((o) => o.disabled));
  assert.equal((await admin('DELETE')).status, 204);
  // this test's own: the plan on the circle world (its start inside a tree: 422), a cells read if one went
  const own = page.failed.lastIndexOf('422 /v1/path');
  if (own >= 0)
    page.failed.splice(own, 1);
  page.failed = page.failed.filter((f) => !f.endsWith('/v1/maps/swap/cells'));
  await openMap('arena');
});

test('a narrow window puts the map above the panel, at the window\'s full width', async () => {
  await page.setViewportSize({ width: 360, height: 640 });
  try {
    const view = await page.locator('#view').boundingBox();
    const panel = await page.locator('#panel').boundingBox();
    assert.ok(view.width >= 350, `canvas ${view.width} px wide`);
    assert.ok(view.height >= 250, `canvas ${view.height} px high`);
    assert.ok(panel.y >= view.y + view.height - 1, 'the panel below the map');
    // a map id as long as ids go (63 characters) in the list: the list fits the panel at 320 px (it grew to
    // its longest option, 464 px, and the panel scrolled sideways: a helper)
    await page.setViewportSize({ width: 320, height: 640 });
    const admin = await scratchMap('map_' + 'x'.repeat(59));
    try {
      const fit = await page.evaluate(() => {
        const p = document.getElementById('panel'), m = document.getElementById('map').getBoundingClientRect();
        return { scroll: p.scrollWidth, client: p.clientWidth, right: m.right, panelRight: p.getBoundingClientRect().right };
      });
      assert.ok(fit.scroll <= fit.client, `panel ${fit.scroll} px of content in ${fit.client}`);
      assert.ok(fit.right <= fit.panelRight, `map list ends at ${fit.right}, the panel at ${fit.panelRight}`);
    } finally {
      assert.equal((await admin('DELETE')).status, 204);
      await page.reload();
      await page.waitForFunction(() => window.arcpathViewer && window.arcpathViewer.ready, null, { timeout: STEP_MS });
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('screenshot of a compared turning query', async () => {
  await openMap('rooms');
  await clickQuery({ radius: 0.4, turning: 2, alg: 'directional24', alg2: 'directional8', smooth: 'los', step: 1 },
    [3, 3], [45, 55]);
  await settled(() => dragFrom(3.5, 3.5, 60, 0));
  const { request, drawn, answers } = await lastPlan();
  assert.equal(drawn.length, 2);
  for (const [k, alg] of [[0, 'directional24'], [1, 'directional8']]) {
    const direct = await post('/v1/path', { ...request, search: { ...request.search, algorithm: alg } });
    assertDrawn(drawn[k], direct.json);
    assert.equal(answers[k].length, direct.json.length);
  }
  await page.mouse.move(canvasBox.x + canvasBox.width - 2, canvasBox.y + 2); // the hover readout off the map
  mkdirSync(dirname(SHOT), { recursive: true });
  await page.screenshot({ path: SHOT });
  assert.deepEqual(page.problems, [], 'no script errors on the page');
  assert.deepEqual(page.failed, ['422 /v1/path', '400 /v1/path'], 'only the error tests\' answers failed');
});
