/* viewer.js — the arcpath viewer: draws a map from GET /v1/maps/{id}/cells and the answers of POST /v1/path
 * and POST /v1/paths exactly as the API gives them (lines as lines, arcs as true arcs from centre, radius,
 * start point and sweep; reverse pieces dashed; samples as ticks across the heading).
 *
 * Coordinates are the API's: x = column, y = row, cell (i, j) spans [i, i+1) x [j, j+1), y down the screen,
 * headings in radians from +x toward +y — which is also the canvas's own convention, so the canvas is given
 * the view transform once and every path is drawn in tiles, with no conversion of angles.
 *
 * The drawing itself is draw.js (window.arcpathDraw). What was drawn is kept in window.arcpathViewer.lastDrawn (one entry per path, each primitive with the
 * numbers handed to the canvas) so tests can compare it with the API's answer.
 */
(function () {
  'use strict';

  /* The API's search.algorithm enum (proto/openapi.yaml); replaced by GET /v1/info's list when it loads. */
  let ALGORITHMS = ['auto', 'astar', 'jps', 'jps_plus', 'directional8', 'directional24', 'directional48',
    'hybrid', 'any_angle'];
  /* The terrain letters of each capability name (the API's unit.capability, Moving AI letters). */
  const TERRAIN_LETTERS = { ground: '.G', swamp: 'S', water: 'W', trees: 'T' };
  /* Path colours: the main query, the compared one; reverse pieces use their own colour, dashed. */
  const STYLE = [
    { path: '#0969da', reverse: '#cf222e' },
    { path: '#bc4c00', reverse: '#8250df' },
  ];
  const BATCH_COLOURS = ['#0969da', '#1a7f37', '#8250df', '#bf3989', '#bc4c00', '#1b7c83', '#9a6700'];
  const HANDLE_PX = 12; /* how near a start/goal marker a drag must begin to set its heading */
  const DRAG_PX = 4;    /* movement below this is a click */

  const D = window.arcpathDraw; /* draw.js */
  const $ = (id) => document.getElementById(id);
  const canvas = $('view');
  const ctx = canvas.getContext('2d');

  const st = {
    maps: [],
    map: null,       /* map info from GET /v1/maps */
    cells: null,     /* {width, height, rows} */
    image: null,     /* one pixel per cell */
    view: { scale: 8, tx: 0, ty: 0 }, /* screen (CSS px) = world (tiles) * scale + t */
    start: null,     /* {x, y, heading?} */
    goal: null,
    results: [],     /* [{algorithm, request, answer | error}] in STYLE order */
    batch: null,     /* {request, answer | error} */
    units: {},       /* the server's unit kinds (GET /v1/info) */
    mapGen: 0,       /* counts map selections: a late answer for an earlier pick is dropped */
    refreshGen: 0,   /* counts refreshes of the map on screen (refreshMap): only the latest one's is kept */
    cellsVersion: 0, /* the map_version the cells were read at (their ETag "<version>.<hex>") */
    kindShown: '',   /* the unit kind the fields show ('' = the user's own values, kept in manualUnit) */
    manualUnit: null,
    cursor: null,    /* {x, y}: the keyboard's cell on the focused canvas (arrows move it, Enter places) */
    mapsKey: '',     /* the map list the options show (listMaps rebuilds them only when it changed) */
  };

  const api = {
    ready: false,
    plans: 0,        /* completed plan rounds (tests wait on it) */
    inflight: 0,     /* plan rounds still waiting for answers */
    batches: 0,
    relists: 0,      /* re-reads of the map list when the page came back into view (tests wait on it) */
    lastRequest: null,
    lastAnswers: [],
    lastDrawn: [],
    lastBatchDrawn: [],
    state: st,
    worldToScreen: (x, y) => [x * st.view.scale + st.view.tx, y * st.view.scale + st.view.ty],
    screenToWorld: (px, py) => [(px - st.view.tx) / st.view.scale, (py - st.view.ty) / st.view.scale],
    plan: () => plan(),
    selectMap: (id) => selectMap(id),
  };
  window.arcpathViewer = api;

  /* ---- HTTP -------------------------------------------------------------------------------------------- */

  /* GET or POST JSON; resolves to the parsed body, rejects with {code, message, field} (the API's error
   * object, or one made up for a transport failure; 'aborted' when signal aborted it). meta, if given,
   * gets the answer's ETag. */
  async function call(method, path, body, signal, meta) {
    let resp;
    try {
      resp = await fetch(path, {
        method,
        headers: body ? { 'Content-Type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
        signal,
      });
    } catch (e) {
      if (e && e.name === 'AbortError')
        throw { code: 'aborted', message: 'replaced by a newer query' };
      throw { code: 'network', message: String(e.message || e) };
    }
    if (meta)
      meta.etag = resp.headers.get('ETag') || '';
    let json = null;
    try {
      json = await resp.json();
    } catch (e) {
      throw { code: 'http_' + resp.status, message: 'the answer is not JSON' };
    }
    if (!resp.ok)
      throw (json && json.error) || { code: 'http_' + resp.status, message: resp.statusText };
    return json;
  }

  /* POST job.request to path: the answer (job.answer) or the error (job.error) lands in job, which is then
   * no longer pending. Never rejects. cancel(job) aborts it: a query the user has replaced would otherwise
   * hold a search slot on the server, and delay the newer one's answer, until it ends. */
  async function post(job, path) {
    job.ctl = new AbortController();
    try {
      job.answer = await call('POST', path, job.request, job.ctl.signal);
    } catch (e) {
      job.error = e;
    }
    job.pending = false;
  }

  function cancel(job) {
    if (job && job.pending && job.ctl)
      job.ctl.abort();
  }

  function showError(err) {
    const box = $('error');
    if (!err) {
      box.hidden = true;
      box.textContent = '';
      return;
    }
    box.hidden = false;
    box.textContent = errorText(err);
  }

  /* The panel's input for an API error's field (the API's names; a member of one, "unit.capability[1]",
   * is its own input's); "search.algorithm" of the second answer is "Compare with". */
  const FIELD_INPUTS = [['unit.radius', 'radius'], ['unit.size', 'size'], ['unit.turning_radius', 'turning'],
    ['unit.capability', 'cap'], ['unit.kind', 'kind'], ['unit.reverse', 'reverse'], ['search.algorithm', 'alg'],
    ['search.connectivity', 'conn'], ['search.smoothing', 'smooth'], ['samples', 'step'], ['map', 'map']];

  /* Mark (aria-invalid) the inputs the errors of results name, every other one unmarked. */
  function markFields(results) {
    for (const [, id] of FIELD_INPUTS)
      $(id).removeAttribute('aria-invalid');
    $('alg2').removeAttribute('aria-invalid');
    results.forEach((r, i) => {
      const f = r.error && r.error.field;
      if (!f)
        return;
      const hit = FIELD_INPUTS.find(([k]) => f === k || f.startsWith(k + '.') || f.startsWith(k + '['));
      if (hit)
        $(hit[1] === 'alg' && i === 1 ? 'alg2' : hit[1]).setAttribute('aria-invalid', 'true');
    });
  }

  function errorText(err) {
    return err.code + ': ' + err.message + (err.field ? ' (field ' + err.field + ')' : '');
  }

  /* ---- maps -------------------------------------------------------------------------------------------- */

  /* GET /v1/info: the algorithm list and the unit kinds of the server's config. */
  async function loadInfo() {
    try {
      const info = await call('GET', '/v1/info');
      if (Array.isArray(info.algorithms) && info.algorithms.length) {
        /* auto first, as the API's default */
        ALGORITHMS = ['auto', ...info.algorithms.filter((a) => a !== 'auto')];
      }
      st.units = info.units || {};
    } catch (e) {
      st.units = {};
    }
    for (const id of ['alg', 'alg2']) {
      const sel = $(id);
      const keep = sel.value;
      for (const o of [...sel.options])
        if (o.value !== '')
          o.remove();
      for (const a of ALGORITHMS) {
        const o = document.createElement('option');
        o.value = o.textContent = a;
        sel.appendChild(o);
      }
      sel.value = keep && ALGORITHMS.includes(keep) ? keep : id === 'alg' ? 'auto' : '';
    }
    const kind = $('kind');
    for (const name of Object.keys(st.units).sort()) {
      const o = document.createElement('option');
      o.value = o.textContent = name;
      kind.appendChild(o);
    }
  }

  /* GET /v1/maps into st.maps and the map list; the map on screen stays selected, marked "(deleted)" when the
   * server no longer has it. False (the error shown) when the list could not be had. quiet: a failure is not
   * shown (the re-reads when the page comes back into view: the page keeps the list it has). */
  async function listMaps(quiet) {
    try {
      const j = await call('GET', '/v1/maps');
      st.maps = j.maps.filter((m) => m.kind === 'grid'); /* circle maps have no cells to draw */
      st.allMaps = j.maps.length;
    } catch (e) {
      if (!quiet)
        showError(e);
      return false;
    }
    const sel = $('map');
    const cur = st.map && st.map.id;
    /* the same list: the options stay as they are (an open drop-down is not rebuilt under the pointer) */
    const key = JSON.stringify([cur, st.maps.map((m) => [m.id, m.width, m.height])]);
    if (key === st.mapsKey && sel.options.length > 0)
      return true;
    st.mapsKey = key;
    sel.innerHTML = '';
    const add = (id, text) => {
      const o = document.createElement('option');
      o.value = id;
      o.textContent = text;
      sel.appendChild(o);
      return o;
    };
    for (const m of st.maps)
      add(m.id, m.id + ' (' + m.width + ' \u00d7 ' + m.height + ')');
    if (cur && !st.maps.some((m) => m.id === cur))
      add(cur, cur + ' (deleted)').disabled = true;
    if (cur)
      sel.value = cur;
    return true;
  }

  async function loadMaps() {
    await loadInfo();
    if (!(await listMaps()))
      return;
    let want = '';
    try {
      want = decodeURIComponent(location.hash.slice(1));
    } catch (e) {
      /* a mangled #… (a lone %): the first map, as for an unknown id */
    }
    const first = st.maps.find((m) => m.id === want) || st.maps[0];
    if (first)
      await selectMap(first.id);
    else /* only circle worlds (or none): nothing to draw, said rather than a blank page */
      $('mapinfo').textContent = 'no grid map to draw: this server has ' +
        (st.allMaps ? st.allMaps + ' circle world' + (st.allMaps > 1 ? 's' : '') + ' (planned through the API)' :
          'no maps');
    api.ready = true;
  }

  async function selectMap(id) {
    const gen = ++st.mapGen;
    $('map').value = id;
    st.map = st.maps.find((m) => m.id === id) || null;
    st.cells = null;
    st.image = null;
    st.cellsVersion = 0;
    st.start = st.goal = null;
    st.cursor = null; /* (another map, another size) */
    $('hover').textContent = '';
    say('');
    st.results.forEach(cancel);
    cancel(st.batch);
    st.results = [];
    st.batch = null;
    api.lastAnswers = [];
    api.lastDrawn = [];
    api.lastBatchDrawn = [];
    setPick('start');
    showError(null);
    markFields([]);
    renderResults();
    renderBatch();
    renderPoses();
    draw(); /* the old map leaves the canvas now, not when (if ever) the new cells arrive */
    if (!st.map)
      return;
    history.replaceState(null, '', '#' + encodeURIComponent(id));
    emptyCapabilities(); /* another map's capabilities until its info */
    showMapInfo(); /* the list's, until the map's own info (it may have been edited since) */
    const live = () => gen === st.mapGen;
    if (!(await loadMapInfo(id, live)) && live() && !st.maps.some((m) => m.id === id))
      return; /* a circle world now (loadMapInfo said so) */
    if (!(await loadCells(id, live)))
      return;
    applyKind(); /* a kind's turning radius in metres depends on this map's scale */
    st.image = D.terrainImage(st.cells, passableLetters());
    fit();
    draw();
  }

  /* GET the cells of map id into st.cells (and the version they are of, from their ETag); false when that
   * failed (shown) or the load is no longer live() (another map picked, a newer refresh begun): then these
   * cells are dropped (kept, the cursor, clicks and batches would read another map's, or an older one's). */
  async function loadCells(id, live) {
    const meta = {};
    let cells;
    try {
      cells = await call('GET', '/v1/maps/' + encodeURIComponent(id) + '/cells', undefined, undefined, meta);
    } catch (e) {
      if (live())
        showError(e);
      return false;
    }
    if (!live())
      return false;
    st.cells = cells;
    if (st.cursor) { /* (the same id, maybe another size: a PUT replaced it) */
      st.cursor.x = Math.min(st.cursor.x, cells.width - 1);
      st.cursor.y = Math.min(st.cursor.y, cells.height - 1);
    }
    const m = /^(?:W\/)?"(\d+)\./.exec(meta.etag || '');
    st.cellsVersion = m ? Number(m[1]) : 0;
    return true;
  }

  /* An answer ran on another map_version than the cells on screen: the map was edited (PATCH, PUT) since
   * they were read, or the server restarted (versions count from 1 again) or another replica answered.
   * Read the map's info and cells again, so the path is drawn on the map it was planned on (or a later
   * one); the view stays where the user put it unless the size changed. */
  async function refreshMap(version) {
    if (!st.map || !st.cellsVersion || !version || version === st.cellsVersion)
      return;
    const id = st.map.id, gen = st.mapGen, token = ++st.refreshGen;
    const live = () => gen === st.mapGen && token === st.refreshGen;
    const size = st.cells.width + 'x' + st.cells.height;
    if (!(await loadMapInfo(id, live)) || !(await loadCells(id, live)))
      return;
    applyKind(); /* the capability list was read again: a kind's own goes back in it */
    st.image = D.terrainImage(st.cells, passableLetters());
    if (st.cells.width + 'x' + st.cells.height !== size)
      fit();
    draw();
  }

  function showMapInfo() {
    $('mapinfo').textContent = st.map.width + ' \u00d7 ' + st.map.height + ' cells, ' +
      st.map.passable_cells + ' passable' + (st.map.weighted ? ', terrain costs' : '') +
      (st.map.map_version > 1 ? ', map_version ' + st.map.map_version : '');
  }

  /* The map_version an answer (a path, a batch, or a 422's error object) names, 0 when none. */
  function versionOf(job) {
    const a = job.answer || {};
    return a.map_version || (job.error && job.error.map_version) || 0;
  }

  /* The letters a unit may stand on in the current map: those with a terrain cost. */
  /* The capability the panel asks for ("ground+water"), or '' for the map's default; a unit kind's own. */
  function capabilityName() {
    const k = st.units[$('kind').value];
    if (k) /* the kind's own, else the map's default: never the locked box's earlier choice */
      return k.capability ? k.capability.join('+') : '';
    return $('cap').value;
  }

  function passableLetters() {
    const cap = capabilityName();
    if (cap)
      return cap.split('+').map((t) => TERRAIN_LETTERS[t] || '').join('');
    return Object.keys((st.map && st.map.terrain_costs) || { '.': 1, G: 1, S: 1 }).join('');
  }

  function emptyCapabilities() {
    $('cap').innerHTML = '<option value="">(map default)</option>';
  }

  /* GET /v1/maps/{id}: the map line (size, passable cells, map_version: the map may have changed since the
   * page's list), the list entry, and the capabilities the map has tables for ("region:CAP",
   * "clearance:CAP", "view:CAP"). False when that failed or the load is no longer live() (another map
   * picked meanwhile, A, B, A again: the first A's too; its own call fills the list). */
  async function loadMapInfo(id, live) {
    const sel = $('cap');
    /* the capability last picked (st.capPicked; an earlier map's load still out may have emptied the list) */
    const keep = st.capPicked !== undefined ? st.capPicked : sel.value;
    let info;
    try {
      info = await call('GET', '/v1/maps/' + encodeURIComponent(id));
    } catch (e) {
      return false;
    }
    if (!live())
      return false;
    if (info.kind !== 'grid') { /* a PUT replaced it by a circle world under the same id: no cells to draw */
      const gone = [...$('map').options].find((o) => o.value === id);
      if (gone) {
        gone.textContent = id + ' (circle world)';
        gone.disabled = true;
        st.mapsKey = ''; /* the options no longer show the list listMaps read */
      }
      st.maps = st.maps.filter((m) => m.id !== id);
      st.cells = null;
      st.image = null;
      $('mapinfo').textContent = id + ' is now a circle world: the viewer draws grid maps (plan it through the API)';
      draw();
      return false;
    }
    /* rebuilt now, not emptied before the call: a query sent while a refresh is out read the empty list and
     * left the capability out (a helper: the water unit planned as the map's default) */
    emptyCapabilities();
    st.map = Object.assign({}, st.map, info);
    const i = st.maps.findIndex((m) => m.id === id);
    if (i >= 0)
      st.maps[i] = st.map;
    const opt = [...$('map').options].find((o) => o.value === id);
    if (opt) { /* (a map deleted and added again is no longer marked and disabled) */
      opt.textContent = id + ' (' + st.map.width + ' \u00d7 ' + st.map.height + ')';
      opt.disabled = false;
      st.mapsKey = ''; /* the options no longer show the list listMaps read */
    }
    showMapInfo();
    const caps = new Set();
    for (const t of info.tables || []) {
      const i = t.name.indexOf(':');
      if (i > 0)
        caps.add(t.name.slice(i + 1));
    }
    for (const c of [...caps].sort()) {
      const o = document.createElement('option');
      o.value = o.textContent = c;
      sel.appendChild(o);
    }
    if (caps.has(keep))
      sel.value = keep;
    return true;
  }

  /* A unit kind fills the unit fields with its own values and locks them (the request sends the kind);
   * "(none)" again gives back the values the user had before picking a kind. */
  function applyKind() {
    const name = $('kind').value;
    const k = st.units[name];
    for (const id of ['radius', 'turning', 'size', 'cap', 'reverse']) /* the request sends the kind alone */
      $(id).disabled = !!k;
    if (k && !st.kindShown)
      st.manualUnit = { radius: $('radius').value, turning: $('turning').value, size: $('size').value,
        cap: $('cap').value, reverse: $('reverse').checked };
    st.kindShown = k ? name : '';
    if (!k) {
      const u = st.manualUnit;
      st.manualUnit = null;
      if (u) {
        for (const id of ['radius', 'turning', 'size'])
          $(id).value = u[id];
        $('reverse').checked = u.reverse;
        $('cap').value = [...$('cap').options].some((o) => o.value === u.cap) ? u.cap : '';
      }
      return;
    }
    $('radius').value = k.radius || 0;
    /* turning_radius_m: metres, in tiles on this map as the server takes it (its meters_per_tile) */
    const mpt = (st.map && st.map.meters_per_tile) || 1;
    $('turning').value = k.turning_radius_m !== undefined ? k.turning_radius_m / mpt : k.turning_radius || 0;
    $('size').value = k.size || 0;
    $('reverse').checked = !!k.reverse;
    const cap = capabilityName();
    const sel = $('cap');
    if (cap && ![...sel.options].some((o) => o.value === cap)) {
      const o = document.createElement('option');
      o.value = o.textContent = cap;
      sel.appendChild(o);
    }
    sel.value = cap;
  }

  function terrainAt(x, y) {
    const c = st.cells;
    if (!c || x < 0 || y < 0 || x >= c.width || y >= c.height)
      return null;
    return c.rows[Math.floor(y)][Math.floor(x)];
  }

  /* ---- view -------------------------------------------------------------------------------------------- */

  function cssSize() {
    const r = canvas.getBoundingClientRect();
    return [Math.max(1, r.width), Math.max(1, r.height)];
  }

  function fit() {
    if (!st.cells)
      return;
    const [w, h] = cssSize();
    const pad = 16;
    const s = Math.min((w - 2 * pad) / st.cells.width, (h - 2 * pad) / st.cells.height);
    st.view.scale = Math.max(s, 0.05);
    st.view.tx = (w - st.cells.width * st.view.scale) / 2;
    st.view.ty = (h - st.cells.height * st.view.scale) / 2;
  }

  function zoomAt(px, py, factor) {
    const [wx, wy] = api.screenToWorld(px, py);
    st.view.scale = Math.min(400, Math.max(0.05, st.view.scale * factor));
    st.view.tx = px - wx * st.view.scale;
    st.view.ty = py - wy * st.view.scale;
  }

  /* ---- drawing ----------------------------------------------------------------------------------------- */

  function draw() {
    const dpr = window.devicePixelRatio || 1;
    const [w, h] = cssSize();
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#eaeef2';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!st.image)
      return;
    const s = st.view.scale;
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * st.view.tx, dpr * st.view.ty);
    const px = 1 / s; /* one CSS pixel in tiles */
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(st.image, 0, 0);
    if (s >= 10)
      D.grid(ctx, st.cells.width, st.cells.height, px);
    ctx.strokeStyle = '#57606a';
    ctx.lineWidth = px;
    ctx.strokeRect(0, 0, st.cells.width, st.cells.height);

    api.lastBatchDrawn = [];
    if (st.batch && st.batch.answer) {
      st.batch.answer.results.forEach((res, i) => {
        if (res.status !== 'ok')
          return;
        const colour = BATCH_COLOURS[i % BATCH_COLOURS.length];
        api.lastBatchDrawn.push(D.path(ctx, res, { path: colour, reverse: colour }, 1.5 * px, px, false));
      });
      for (const q of st.batch.request.queries) {
        D.dot(ctx, q.start.x, q.start.y, 2.5 * px, '#1a7f37');
        D.dot(ctx, q.goal.x, q.goal.y, 2.5 * px, '#cf222e');
      }
    }

    api.lastDrawn = [];
    /* The compared path first, so the main one stays on top where they coincide. */
    for (let k = st.results.length - 1; k >= 0; k--) {
      const res = st.results[k];
      if (!res.answer || res.answer.status !== 'ok')
        continue;
      const drawn = D.path(ctx, res.answer, STYLE[k], 3 * px, px, true);
      drawn.algorithm = res.algorithm;
      api.lastDrawn[k] = drawn;
    }
    api.lastDrawn = api.lastDrawn.filter(Boolean);

    /* the disc of the unit the request names: none for a square (its size wins over the radius field) */
    const radius = (Number($('size').value) || 0) > 0 ? 0 : Number($('radius').value) || 0;
    D.pose(ctx, st.start, '#1a7f37', 'S', radius, px);
    D.pose(ctx, st.goal, '#cf222e', 'G', radius, px);
    if (st.cursor && document.activeElement === canvas) {
      /* white under black: 3:1 or more against any terrain's colour (blue alone was 1:1 on trees) */
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 4 * px;
      ctx.strokeRect(st.cursor.x, st.cursor.y, 1, 1);
      ctx.strokeStyle = '#000000';
      ctx.lineWidth = 2 * px;
      ctx.strokeRect(st.cursor.x, st.cursor.y, 1, 1);
    }
  }

  /* ---- panel ------------------------------------------------------------------------------------------- */

  function fmt(v, digits) {
    return typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(digits)) : '\u2013';
  }

  function renderPoses() {
    const box = $('poses');
    box.innerHTML = '';
    for (const [name, p] of [['start', st.start], ['goal', st.goal]]) {
      const d = document.createElement('div');
      const short = (v) => String(+v.toFixed(3));
      d.textContent = name + ' ' + (p ? '(' + short(p.x) + ', ' + short(p.y) + ')' +
        (p.heading !== undefined ? ' heading ' + p.heading.toFixed(4) : '') : '\u2013 click the map');
      if (p && p.heading !== undefined) {
        const b = document.createElement('button');
        b.textContent = '\u00d7';
        b.title = 'free heading (drop it from the query)';
        b.setAttribute('aria-label', 'free the ' + name + ' heading');
        b.onclick = () => {
          delete p.heading;
          renderPoses();
          canvas.focus(); /* (the button is gone: focus fell to the page) */
          plan();
        };
        d.appendChild(b);
      }
      box.appendChild(d);
    }
  }

  /* [row name, its text for an answer, whether an answer has it (absent: every answer)] */
  const STAT_ROWS = [
    ['status', (a) => a.status + (a.reason ? ' (' + a.reason + ')' : '')],
    ['length', (a) => fmt(a.length, 4)],
    ['grid_cost', (a) => fmt(a.grid_cost, 4)],
    ['duration_s', (a) => fmt(a.duration_s, 3), (a) => a.duration_s !== undefined], /* timed answers only */
    ['clear', (a) => (a.clear === undefined ? '\u2013' : String(a.clear))],
    ['segments', (a) => (a.segments ? a.segments.length + (a.segments.some((s) => s.reverse) ? ' (rev)' : '') : '\u2013')],
    ['expanded', (a) => fmt(a.stats && a.stats.expanded, 0)],
    ['search_us', (a) => fmt(a.stats && a.stats.search_us, 0)],
    ['lane', (a) => (a.stats && a.stats.lane) || '\u2013'],
  ];

  function renderResults() {
    const box = $('results');
    box.innerHTML = '';
    /* a live region announces what changes: while an answer is pending it is busy, so the table is read
     * once, when the answers are in, not once with its ellipses and again */
    box.setAttribute('aria-busy', st.results.some((r) => r.pending) ? 'true' : 'false');
    if (!st.results.length)
      return;
    const h = document.createElement('h2');
    h.textContent = 'Answer';
    box.appendChild(h);
    const t = document.createElement('table');
    t.className = 'stats';
    const head = t.insertRow();
    head.appendChild(document.createElement('td'));
    st.results.forEach((r, k) => {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = r.algorithm;
      th.style.borderBottom = '3px solid ' + STYLE[k].path;
      head.appendChild(th);
    });
    for (const [name, get, shown] of STAT_ROWS) {
      if (shown && !st.results.some((r) => r.answer && shown(r.answer)))
        continue;
      const tr = t.insertRow();
      const rh = document.createElement('th'); /* the row's name heads its cells (a screen reader says it) */
      rh.scope = 'row';
      rh.textContent = name;
      tr.appendChild(rh);
      for (const r of st.results) {
        const td = tr.insertCell();
        if (r.pending) {
          td.textContent = '\u2026';
        } else if (r.error) {
          td.textContent = name === 'status' ? r.error.code : '';
          td.className = 'bad';
        } else {
          const v = get(r.answer);
          td.textContent = v;
          if (name === 'status' || name === 'clear')
            td.className = v === 'ok' || v === 'true' ? 'ok' : 'bad';
        }
      }
    }
    box.appendChild(t);
    for (const r of st.results) {
      if (r.error) {
        const e = document.createElement('div');
        e.className = 'error';
        e.textContent = r.algorithm + ': ' + errorText(r.error);
        box.appendChild(e);
      }
    }
    const legend = document.createElement('div');
    legend.className = 'legend';
    legend.textContent = 'dashed: driven in reverse \u00b7 ticks: samples \u00b7 dots: waypoints';
    box.appendChild(legend);
  }

  function renderBatch() {
    const box = $('batchinfo');
    const b = st.batch;
    if (!b) {
      box.textContent = '';
      return;
    }
    if (b.note) {
      box.textContent = b.note;
      return;
    }
    if (b.pending) {
      box.textContent = 'running ' + b.request.queries.length + ' queries\u2026';
      return;
    }
    if (b.error) {
      box.textContent = '';
      const e = document.createElement('div');
      e.className = 'error';
      e.textContent = errorText(b.error);
      box.appendChild(e);
      return;
    }
    const count = {};
    const first = {}; /* the first error of each code, shown with its message and field */
    let expanded = 0;
    for (const r of b.answer.results) {
      const k = r.status === 'error' ? r.error.code : r.status;
      count[k] = (count[k] || 0) + 1;
      if (r.status === 'error' && !first[k])
        first[k] = r.error;
      expanded += (r.stats && r.stats.expanded) || 0;
    }
    box.textContent = Object.keys(count).map((k) => count[k] + ' ' + k).join(', ') + '\nexpanded ' + expanded +
      ', search_us ' + fmt(b.answer.stats && b.answer.stats.search_us, 0) + ', lane ' +
      ((b.answer.stats && b.answer.stats.lane) || '\u2013');
    for (const k of Object.keys(first)) {
      const e = document.createElement('div');
      e.className = 'error';
      e.textContent = 'first ' + errorText(first[k]);
      box.appendChild(e);
    }
  }

  /* ---- queries ----------------------------------------------------------------------------------------- */

  /* The number in input id, undefined when empty; NaN when the browser holds text it cannot read as a
   * number ("1e": the input's value is then ''), which the request carries as null, so the server's own
   * error names the field (it was sent as 0: a unit quietly planned as a point). */
  function numberField(id) {
    const el = $(id);
    if (el.validity && el.validity.badInput)
      return NaN;
    const v = el.value.trim();
    return v === '' ? undefined : Number(v);
  }

  /* The unit, search and samples members the panel sets, as the API names them. */
  function options(algorithm) {
    let unit;
    if ($('kind').value) {
      unit = { kind: $('kind').value }; /* the kind's fields, as the server's config has them */
    } else {
      /* every field as the panel has it: a square with a radius or a turning radius is the API's error to
       * show, not a radius quietly left out */
      const size = numberField('size') ?? 0;
      unit = { radius: numberField('radius') ?? 0, turning_radius: numberField('turning') ?? 0 };
      if (size !== 0)
        unit.size = size;
      if ($('cap').value)
        unit.capability = $('cap').value.split('+');
      if ($('reverse').checked)
        unit.reverse = true;
    }
    const o = {
      unit,
      search: { algorithm, connectivity: Number($('conn').value), smoothing: $('smooth').value },
    };
    const step = numberField('step');
    if (step !== undefined)
      o.samples = { step };
    return o;
  }

  function poseJson(p) {
    const o = { x: p.x, y: p.y };
    if (p.heading !== undefined)
      o.heading = p.heading;
    return o;
  }

  async function plan() {
    if (!st.map || !st.start || !st.goal)
      return;
    api.inflight++;
    try {
      await planRound();
    } finally {
      api.inflight--;
    }
  }

  async function planRound() {
    showError(null);
    const algs = [$('alg').value];
    if ($('alg2').value)
      algs.push($('alg2').value);
    const results = algs.map((algorithm) => {
      const request = Object.assign({ map: st.map.id, start: poseJson(st.start), goal: poseJson(st.goal) },
        options(algorithm));
      return { algorithm, request, pending: true };
    });
    st.results.forEach(cancel);
    st.results = results;
    renderResults();
    draw(); /* the answers being replaced are not drawn while the new ones are pending */
    await Promise.all(results.map((r) => post(r, '/v1/path')));
    if (st.results !== results)
      return; /* a newer query, a reset or another map replaced this one */
    await refreshMap(Math.max(...results.map(versionOf)));
    if (results.some((r) => r.error && r.error.code === 'unknown_map'))
      await listMaps(); /* the map was deleted: the list says so */
    if (st.results !== results)
      return;
    api.lastRequest = results[0].request;
    api.lastAnswers = results.map((r) => r.answer || { error: r.error });
    markFields(results);
    renderResults();
    draw();
    api.plans++;
  }

  /* n random start/goal pairs on passable cells (centres), one POST /v1/paths with the panel's options. */
  async function runBatch() {
    if (!st.cells)
      return;
    const n = Math.max(1, Math.min(256, Math.floor(numberField('batchn') || 1)));
    const free = [];
    const passable = passableLetters();
    st.cells.rows.forEach((row, y) => {
      for (let x = 0; x < row.length; x++)
        if (passable.includes(row[x]))
          free.push([x + 0.5, y + 0.5]);
    });
    if (!free.length) { /* (the unit's terrain has no cell on this map: say so rather than do nothing) */
      cancel(st.batch);
      st.batch = { pending: false, note: 'no cell of this map is passable for the unit\'s terrain' };
      renderBatch();
      return;
    }
    const pick = () => free[Math.floor(Math.random() * free.length)];
    const opts = options($('alg').value);
    delete opts.samples;
    const queries = [];
    for (let i = 0; i < n; i++) {
      const [sx, sy] = pick();
      const [gx, gy] = pick();
      queries.push(Object.assign({ start: { x: sx, y: sy }, goal: { x: gx, y: gy } }, opts));
    }
    const b = { request: { map: st.map.id, queries }, pending: true };
    cancel(st.batch);
    st.batch = b;
    renderBatch();
    await post(b, '/v1/paths');
    if (st.batch !== b)
      return;
    await refreshMap(versionOf(b));
    if (b.error && b.error.code === 'unknown_map')
      await listMaps(); /* the map was deleted: the list says so, as after a query */
    if (st.batch !== b)
      return;
    renderBatch();
    draw();
    api.batches++;
  }

  /* ---- input ------------------------------------------------------------------------------------------- */

  function setPick(which) {
    for (const r of document.querySelectorAll('input[name=pick]'))
      r.checked = r.value === which;
  }

  function pickValue() {
    const r = document.querySelector('input[name=pick]:checked');
    return r ? r.value : 'start';
  }

  function placePose(px, py) {
    const [x, y] = api.screenToWorld(px, py);
    placeAt(x, y);
  }

  /* Place the pose the radios pick at map point (x, y) (snapped to its cell's centre when asked), then
   * offer the other one and plan. */
  function placeAt(x, y) {
    if (!st.cells || x < 0 || y < 0 || x >= st.cells.width || y >= st.cells.height)
      return;
    if ($('snap').checked) {
      x = Math.floor(x) + 0.5;
      y = Math.floor(y) + 0.5;
    }
    const which = pickValue();
    const old = st[which];
    st[which] = { x, y };
    if (old && old.heading !== undefined)
      st[which].heading = old.heading;
    setPick(which === 'start' ? 'goal' : 'start');
    renderPoses();
    draw();
    plan();
  }

  /* The marker under screen point (px, py), if any: a drag from it sets its heading. */
  function handleAt(px, py) {
    for (const name of ['goal', 'start']) {
      const p = st[name];
      if (!p)
        continue;
      const [sx, sy] = api.worldToScreen(p.x, p.y);
      if (Math.hypot(sx - px, sy - py) <= HANDLE_PX)
        return name;
    }
    return null;
  }

  function localPoint(e) {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  let drag = null;
  /* The pointers down on the canvas. A drag is one pointer's (its pointerId): a second finger makes the
   * gesture the page's pinch zoom, so the drag is dropped and undone (view, heading) and neither finger
   * pans, turns or places any more until all are up. Before, every finger's events fed the one drag: a
   * pinch panned the map, one that began on a marker turned it and re-planned, and a two-finger tap placed
   * a pose under the second finger (a helper). */
  const pointers = new Set();

  function abandonDrag() {
    const d = drag;
    drag = null;
    if (!d)
      return;
    st.view.tx = d.tx;
    st.view.ty = d.ty;
    if (d.handle && d.moved) {
      if (d.heading0 === undefined)
        delete st[d.handle].heading;
      else
        st[d.handle].heading = d.heading0;
      renderPoses();
    }
    draw();
  }

  canvas.addEventListener('pointerdown', (e) => {
    pointers.add(e.pointerId);
    if (pointers.size > 1) {
      abandonDrag();
      return;
    }
    if (e.button !== 0 && e.button !== 1)
      return;
    const [px, py] = localPoint(e);
    const handle = e.button === 0 ? handleAt(px, py) : null;
    drag = { id: e.pointerId, x0: px, y0: py, tx: st.view.tx, ty: st.view.ty, moved: false,
      handle, heading0: handle ? st[handle].heading : undefined, button: e.button };
    canvas.setPointerCapture(e.pointerId);
  });

  canvas.addEventListener('pointermove', (e) => {
    const [px, py] = localPoint(e);
    showHover(px, py);
    if (!drag || e.pointerId !== drag.id)
      return;
    if (!drag.moved && Math.hypot(px - drag.x0, py - drag.y0) < DRAG_PX)
      return;
    drag.moved = true;
    if (drag.handle) {
      const p = st[drag.handle];
      const [wx, wy] = api.screenToWorld(px, py);
      p.heading = Math.atan2(wy - p.y, wx - p.x);
      renderPoses();
    } else {
      st.view.tx = drag.tx + px - drag.x0;
      st.view.ty = drag.ty + py - drag.y0;
    }
    draw();
  });

  canvas.addEventListener('pointerup', (e) => {
    pointers.delete(e.pointerId);
    if (!drag || e.pointerId !== drag.id)
      return;
    const d = drag;
    drag = null;
    if (d.moved && d.handle)
      plan();
    else if (!d.moved && d.button === 0) {
      st.cursor = null; /* (the mouse's placement: no keyboard cursor left on the map) */
      placePose(d.x0, d.y0);
    }
  });

  /* The browser took the drag's pointer over: the drag ends where it got to; a heading already turned is
   * planned, a tap is not taken for a placement. Before, a touch drag left the arrow turned and the answer on
   * screen for the old heading (a helper). (A second finger on the canvas ends the drag first: above.) */
  canvas.addEventListener('pointercancel', (e) => {
    pointers.delete(e.pointerId);
    if (!drag || e.pointerId !== drag.id)
      return;
    const d = drag;
    drag = null;
    if (d && d.moved && d.handle)
      plan();
  });

  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const [px, py] = localPoint(e);
    zoomAt(px, py, Math.pow(1.0015, -e.deltaY));
    draw();
  }, { passive: false });

  canvas.addEventListener('pointerleave', () => {
    $('hover').textContent = '';
  });

  /* The keyboard's way to place start and goal (the canvas is focusable): arrows move a cell cursor (with
   * Shift 10 cells), Enter or Space places the pose the radios pick at its cell's centre, S and G pick
   * start or goal; the cursor's cell is read out in the hover line (aria-live). */
  /* The cursor comes with the first key (at the picked pose's cell, else the map's middle) and goes with a
   * mouse placement, so a click, which focuses the canvas too, leaves no stray outline (a reviewer). */
  canvas.addEventListener('focus', () => {
    if (st.cursor) {
      showCursor();
      draw();
    }
  });

  canvas.addEventListener('blur', () => {
    $('hover').textContent = '';
    draw();
  });

  canvas.addEventListener('keydown', (e) => {
    if (!st.cells || e.ctrlKey || e.metaKey || e.altKey)
      return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const place = e.key === 'Enter' || e.key === ' ';
    const turn = e.key === '[' || e.key === ']';
    const zoom = e.key === '+' || e.key === '=' || e.key === '-';
    if (!(steps[e.key] || place || turn || zoom || (e.key.length === 1 && 'sSgG'.includes(e.key))))
      return;
    e.preventDefault(); /* (no page scroll under the arrows and Space) */
    if (!st.cursor) {
      /* The first key shows the cursor (at the picked pose's cell, else the map's middle) and says where
       * it is; only then can Enter place, so nothing lands on a cell the user could not yet know, nor does
       * an arrow move it from a cell not yet said. S or G picks first, so the cursor starts at that pose
       * (it started at the pose picked before: a helper). */
      if (e.key.length === 1 && 'sSgG'.includes(e.key))
        setPick(e.key.toLowerCase() === 's' ? 'start' : 'goal');
      const p = st[pickValue()];
      st.cursor = p ? { x: Math.floor(p.x), y: Math.floor(p.y) }
        : { x: Math.floor(st.cells.width / 2), y: Math.floor(st.cells.height / 2) };
      if (place || turn || steps[e.key]) {
        showCursor();
        draw();
        return;
      }
    }
    if (steps[e.key]) {
      const k = e.shiftKey ? 10 : 1;
      st.cursor.x = Math.min(st.cells.width - 1, Math.max(0, st.cursor.x + k * steps[e.key][0]));
      st.cursor.y = Math.min(st.cells.height - 1, Math.max(0, st.cursor.y + k * steps[e.key][1]));
      followCursor();
    } else if (place) {
      if (e.repeat) /* (a held key placed start and goal in turn on one cell) */
        return;
      placeAt(st.cursor.x + 0.5, st.cursor.y + 0.5);
    } else if (turn) {
      /* [ and ] turn the picked pose's heading by 15 degrees (from +x, toward +y: clockwise on screen) */
      const p = st[pickValue()];
      if (!p) {
        say('no ' + pickValue() + ' placed yet: Enter places it');
        return;
      }
      const h = (p.heading !== undefined ? p.heading : 0) + (e.key === ']' ? 1 : -1) * Math.PI / 12;
      p.heading = Math.atan2(Math.sin(h), Math.cos(h));
      renderPoses();
      draw();
      plan();
      say(pickValue() + ' heading ' + Math.round(p.heading * 180 / Math.PI) + ' degrees');
      return;
    } else if (zoom) {
      const [px, py] = api.worldToScreen(st.cursor.x + 0.5, st.cursor.y + 0.5);
      zoomAt(px, py, e.key === '-' ? 1 / 1.5 : 1.5);
      followCursor();
    } else {
      setPick(e.key.toLowerCase() === 's' ? 'start' : 'goal');
    }
    showCursor();
    draw();
  });

  /* Keep the keyboard cursor in view: a cell off the canvas brings the view's centre to it. */
  function followCursor() {
    const c = st.cursor;
    const [w, h] = cssSize();
    const [px, py] = api.worldToScreen(c.x + 0.5, c.y + 0.5);
    const m = Math.min(24, w / 4, h / 4);
    if (px < m || py < m || px > w - m || py > h - m) {
      st.view.tx += w / 2 - px;
      st.view.ty += h / 2 - py;
    }
  }

  /* Tell a screen reader (the live line, which the mouse's hover does not touch). */
  function say(text) {
    $('said').textContent = text;
  }

  function showCursor() {
    const c = st.cursor;
    if (!c)
      return;
    const t = terrainAt(c.x + 0.5, c.y + 0.5);
    const text = 'cell (' + c.x + ', ' + c.y + ") '" + t + "', Enter places the " + pickValue();
    $('hover').textContent = text;
    say(text);
  }

  function showHover(px, py) {
    const [x, y] = api.screenToWorld(px, py);
    const t = terrainAt(x, y);
    /* two decimals cut, not rounded, so that x and y always lie in the cell shown (2.996 is 2.99, cell 2) */
    const cut = (v) => (Math.floor(v * 100 + 1e-7) / 100).toFixed(2); /* + 1e-7: 0.29 * 100 is 28.999… */
    $('hover').textContent = t === null ? '' : 'x ' + cut(x) + '  y ' + cut(y) + '  cell (' +
      Math.floor(x) + ', ' + Math.floor(y) + ") '" + t + "'";
  }

  function init() {
    for (const id of ['alg', 'alg2']) {
      const sel = $(id);
      for (const a of ALGORITHMS) {
        const o = document.createElement('option');
        o.value = o.textContent = a;
        sel.appendChild(o);
      }
    }
    $('map').addEventListener('change', (e) => selectMap(e.target.value));
    /* an #id typed into the address bar, or Back to one, opens that map (the page is not reloaded) */
    window.addEventListener('hashchange', () => {
      let id = '';
      try {
        id = decodeURIComponent(location.hash.slice(1));
      } catch (e) {
        return; /* a mangled #…: the map on screen stays */
      }
      if (st.maps.some((m) => m.id === id) && (!st.map || st.map.id !== id))
        selectMap(id);
    });
    for (const id of ['radius', 'turning', 'size', 'alg', 'alg2', 'conn', 'smooth', 'step', 'reverse'])
      $(id).addEventListener('change', () => {
        draw();
        plan();
      });
    $('cap').addEventListener('change', () => {
      st.capPicked = $('cap').value;
    });
    for (const id of ['kind', 'cap'])
      $(id).addEventListener('change', () => {
        applyKind();
        if (st.cells)
          st.image = D.terrainImage(st.cells, passableLetters()); /* the unit's terrain */
        draw();
        plan();
      });
    $('plan').addEventListener('click', () => plan());
    $('reset').addEventListener('click', () => {
      st.start = st.goal = null;
      st.results.forEach(cancel);
      cancel(st.batch);
      st.results = [];
      st.batch = null;
      setPick('start');
      showError(null);
      markFields([]);
      renderPoses();
      renderResults();
      renderBatch();
      draw();
    });
    $('batch').addEventListener('click', () => runBatch());
    $('fit').addEventListener('click', () => {
      fit();
      draw();
    });
    window.addEventListener('resize', () => draw());
    /* Maps added or removed since the page was loaded (PUT, DELETE, a rescan: README "Live maps") show up when
     * the page comes back into view or the window regains focus, as after uploading a map with curl. */
    const relist = async () => {
      if (!api.ready || document.visibilityState !== 'visible')
        return;
      /* a page that had no grid map opens the first one added (picking the only option fires no change) */
      if ((await listMaps(true)) && !st.map && st.maps.length > 0)
        await selectMap(st.maps[0].id);
      api.relists++;
    };
    window.addEventListener('focus', relist);
    document.addEventListener('visibilitychange', relist);
    renderPoses();
    draw();
    loadMaps();
  }

  init();
})();
