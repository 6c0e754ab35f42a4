// types.ts — the JavaScript client's declarations (clients/js/arcpath-client.d.mts) under the TypeScript
// compiler (tests/clients/run.sh: tsc --noEmit --strict, module nodenext): the typed members a caller
// writes must compile, and each line under @ts-expect-error must not (tsc fails on an unused one), so a
// declaration that stops describing the API fails the test.
import { ArcpathClient, ArcpathError, type PathAnswer, type PathRequest, type Segment } from '../../clients/js/arcpath-client.mjs';

// The examples' kinodynamic body, every typed member of the kinodynamic and timing features.
export const kinodynamic: PathRequest = {
  map: 'arena',
  start: { x: 5.5, y: 5.5, heading: 3.14159, speed: 0 },
  goal: { x: 20.5, y: 12.5, heading: 0, speed: 0 },
  unit: {
    kind: 'tank', size: 1, capability: ['ground', 'swamp'], reverse: false, max_speed: 4, max_accel: 2, max_brake: 3,
    max_lateral_accel: 2, max_reverse_speed: 1, max_turn_rate: 0.8,
  },
  goal_tolerance: { position: 0.5, heading: 0.1, speed: 0.5 },
  search: { algorithm: 'kinodynamic', probe: true, max_expansions: 100000, weight: 1.5, smoothing: 'taut' },
  samples: { dt: 0.5 },
  deadline_ms: 200,
};
export const configKind: PathRequest = { map: 'arena', start: { x: 1, y: 1 }, goal: { x: 2, y: 2 }, unit: { kind: 'crate' } };
export const corridor: PathRequest = {
  map: 'arena', start: { x: 1, y: 1, heading: 0 }, goal: { x: 20, y: 1 }, unit: { kind: 'car' },
  search: { algorithm: 'kinodynamic' }, corridor: { points: [[1, 1], [20, 1]], usable_width: 2 },
};
// @ts-expect-error a corridor point is [x, y]
export const badCorridor: PathRequest = { map: 'arena', start: { x: 1, y: 1 }, goal: { x: 2, y: 2 }, corridor: { points: [[1]], usable_width: 2 } };

// @ts-expect-error samples: step and dt together
export const bothSamples: PathRequest = { map: 'arena', start: { x: 1, y: 1 }, goal: { x: 2, y: 2 }, samples: { step: 1, dt: 1 } };
// @ts-expect-error an algorithm the server does not have
export const badAlgorithm: PathRequest = { map: 'arena', start: { x: 1, y: 1 }, goal: { x: 2, y: 2 }, search: { algorithm: 'dijkstra' } };
// @ts-expect-error a terrain the server does not have
export const badTerrain: PathRequest = { map: 'arena', start: { x: 1, y: 1 }, goal: { x: 2, y: 2 }, unit: { capability: ['lava'] } };
// @ts-expect-error unit.reverse is a boolean
export const badReverse: PathRequest = { map: 'arena', start: { x: 1, y: 1 }, goal: { x: 2, y: 2 }, unit: { reverse: 1 } };

/** The answer's timing: duration_s, probe, and a segment of each type with its own members. */
export function timing(answer: PathAnswer): number {
  let total = answer.duration_s ?? 0;
  const probe: true | undefined = answer.probe;
  const capped: true | undefined = answer.capped;
  if (capped) total += 1;
  for (const s of answer.segments ?? []) {
    const seg: Segment = s;
    total += (seg.v_start ?? 0) + (seg.v_end ?? 0) + (seg.t_start ?? 0) + (seg.duration ?? 0);
    if (seg.type === 'turn') {
      const zero: 0 = seg.length;
      total += zero + seg.sweep + seg.start_heading;
      // @ts-expect-error a turn has no centre
      total += seg.center[0];
    } else if (seg.type === 'arc') {
      total += seg.radius + seg.center[0];
    } else {
      total += seg.heading;
    }
  }
  for (const p of answer.samples ?? []) total += (p.t ?? 0) + (p.v ?? 0);
  return probe ? total : -total;
}

export async function ask(client: ArcpathClient): Promise<number> {
  try {
    return timing(await client.pathQuery(kinodynamic));
  } catch (e) {
    if (e instanceof ArcpathError) return e.httpStatus;
    throw e;
  }
}
