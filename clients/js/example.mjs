// The README's first query through the JavaScript client: a path across the demo arena; and a kinodynamic
// query with the typed members (arcpath-client.d.mts).
//
//   node clients/js/example.mjs [BASE_URL [MAP]]     (defaults: http://127.0.0.1:8080, arena)
//   node clients/js/example.mjs BASE_URL MAP kinodynamic [MAX_SPEED]
//
// The first prints "status", "length", "grid_cost", "segments" and "clear" lines and exits 0. The second
// asks for the tank (the built-in vehicle kind turns on the spot; a config kind of that name replaces it:
// config/demo.conf's, which `make run` serves, has a turning radius of 1.5 tiles, so its answer here has no
// turn) from (5.5, 5.5) facing west to
// (20.5, 12.5) at speed 0, goal_tolerance position 0.5 and speed 0.5, search.algorithm "kinodynamic" with
// max_expansions 100000, samples every 0.5 s (and unit.max_speed MAX_SPEED m/s when given); it prints
// "status", "length", "duration_s", "segments", "turns" (segments of type turn), "timed" (segments with
// v_start, v_end, t_start and duration), "samples", "probe" (1, 0; -1 without a path) and "clear" lines
// and exits 0 — the same lines as the C example's kinodynamic mode.
// On an error both print "error HTTP CODE: MESSAGE (field: FIELD)" (and " map_version N" when the error
// names one: a 422) and exit 1. tests/clients/run.sh checks
// them all.
import { ArcpathClient, ArcpathError } from './arcpath-client.mjs';

const [base = 'http://127.0.0.1:8080', map = 'arena', mode, maxSpeed] = process.argv.slice(2);
const client = new ArcpathClient(base, { timeoutMs: 10000 });

/** @type {import('./arcpath-client.mjs').PathRequest} */
const kinodynamic = {
  map,
  start: { x: 5.5, y: 5.5, heading: 3.14159, speed: 0 },
  goal: { x: 20.5, y: 12.5, speed: 0 },
  unit: { kind: 'tank', reverse: false, ...(maxSpeed === undefined ? {} : { max_speed: Number(maxSpeed) }) },
  goal_tolerance: { position: 0.5, speed: 0.5 },
  search: { algorithm: 'kinodynamic', max_expansions: 100000 },
  samples: { dt: 0.5 },
};

try {
  if (mode === 'kinodynamic') {
    const answer = await client.pathQuery(kinodynamic);
    const segments = answer.segments ?? [];
    const timed = segments.filter((s) => [s.v_start, s.v_end, s.t_start, s.duration].every(Number.isFinite));
    console.log(`status ${answer.status}`);
    console.log(`length ${answer.length}`);
    console.log(`duration_s ${answer.duration_s}`);
    console.log(`segments ${segments.length}`);
    console.log(`turns ${segments.filter((s) => s.type === 'turn').length}`);
    console.log(`timed ${timed.length}`);
    console.log(`samples ${answer.samples?.length ?? 0}`);
    console.log(`probe ${answer.segments === undefined ? -1 : answer.probe === true ? 1 : 0}`);
    console.log(`clear ${answer.clear === true}`);
  } else {
    const answer = await client.pathQuery({ map, start: { x: 3.5, y: 3.5 }, goal: { x: 90.5, y: 88.5 } });
    console.log(`status ${answer.status}`);
    console.log(`length ${answer.length}`);
    console.log(`grid_cost ${answer.grid_cost}`);
    console.log(`segments ${answer.segments?.length ?? 0}`);
    console.log(`clear ${answer.clear === true}`);
  }
} catch (e) {
  if (!(e instanceof ArcpathError)) throw e;
  console.log(`error ${e.httpStatus} ${e.code}: ${e.message} (field: ${e.field})` +
    (e.mapVersion ? ` map_version ${e.mapVersion}` : ''));
  process.exitCode = 1;
}
