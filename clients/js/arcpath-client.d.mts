// Types of arcpath-client.mjs (README "POST /v1/path" and proto/openapi.yaml are the contract).

/** x = column, y = row, tiles; heading radians from +x toward +y. */
export interface Pose { x: number; y: number; heading?: number }

/** A start or goal with the speed there, m/s (0 … unit.max_speed; kinodynamic, or vehicle limits named). */
export interface SpeedPose extends Pose { speed?: number }

/** Terrain names a unit may enter (README `unit.capability`). */
export type Terrain = 'ground' | 'swamp' | 'water' | 'trees';

/** The unit; a field given here overrides the kind's, which overrides the default. */
export interface Unit {
  /** a config unit kind or a built-in vehicle kind */
  kind?: 'pedestrian' | 'car' | 'tank' | 'ship' | (string & {});
  /** disc radius, tiles (0 … 16) */
  radius?: number;
  /** k: a square unit of k × k cells (1 … 64), not with radius > 0 or turning_radius > 0 */
  size?: number;
  capability?: Terrain[];
  /** tiles (0 … 64) */
  turning_radius?: number;
  reverse?: boolean;
  reverse_penalty?: number;
  art_directions?: 8 | 16;
  /** vehicle limits (kinodynamic; on other algorithms they time the path): m/s, each > 0 and ≤ 1000 */
  max_speed?: number;
  /** m/s² */
  max_accel?: number;
  /** m/s², positive */
  max_brake?: number;
  /** m/s², v²/r on arcs */
  max_lateral_accel?: number;
  /** m/s, with reverse */
  max_reverse_speed?: number;
  /** rad/s (≤ 100): kinodynamic turns on the spot at speed 0 ("turn" segments) */
  max_turn_rate?: number;
}

export type Algorithm = 'auto' | 'astar' | 'jps' | 'jps_plus' | 'directional8' | 'directional24' | 'directional48'
  | 'hybrid' | 'any_angle' | 'hierarchical' | 'kinodynamic';

export interface PathRequest {
  map: string;
  start: SpeedPose;
  goal: SpeedPose;
  unit?: Unit;
  search?: {
    algorithm?: Algorithm; connectivity?: 4 | 8; smoothing?: 'none' | 'los' | 'taut'; headings?: 8 | 16; turn_penalty?: number;
    /** kinodynamic: the probing search first */
    probe?: boolean;
    /** kinodynamic: 1 … 2,000,000 */
    max_expansions?: number;
    /** kinodynamic: weighted A*, 1 … 10 (1.5: far sooner, a few per cent slower paths) */
    weight?: number;
  };
  /** kinodynamic only: tiles, radians from goal.heading, m/s; each > 0 */
  goal_tolerance?: { position?: number; heading?: number; speed?: number };
  deadline_ms?: number;
  /** exactly one: `step` tiles, or `dt` seconds (timed answers only) */
  samples?: { step: number; dt?: never } | { dt: number; step?: never };
  obstacles?: { x: number; y: number; r: number }[];
  /** kinodynamic corridor mode: 2 … 64 centre-line points (tiles) and the usable width, tiles in (0, 1000] */
  corridor?: { points: [number, number][]; usable_width: number };
}

/** On timed answers (kinodynamic, or vehicle limits named): m/s at the ends, seconds from the start, seconds. */
export interface SegmentTiming { v_start?: number; v_end?: number; t_start?: number; duration?: number }
export interface LineSegment extends SegmentTiming {
  type: 'line'; start: [number, number]; end: [number, number]; heading: number; length: number; reverse?: true;
}
export interface ArcSegment extends SegmentTiming {
  type: 'arc'; start: [number, number]; end: [number, number]; center: [number, number];
  radius: number; start_heading: number; sweep: number; length: number; reverse?: true;
}
/** kinodynamic, a unit with max_turn_rate: a turn on the spot at speed 0 (start = end, length 0). */
export interface TurnSegment extends SegmentTiming {
  type: 'turn'; start: [number, number]; end: [number, number]; start_heading: number; sweep: number; length: 0;
  v_start?: 0; v_end?: 0;
}
export type Segment = LineSegment | ArcSegment | TurnSegment;

export interface PathAnswer {
  status: 'ok' | 'no_path' | 'timeout';
  map: string;
  map_version?: number;
  reason?: 'unreachable' | 'not_found' | 'state_limit';
  grid_cost?: number;
  length?: number;
  /** seconds: timed answers (kinodynamic, or vehicle limits named) */
  duration_s?: number;
  /** present (true) when the kinodynamic probing search's path is the answer */
  probe?: true;
  /** present (true) when search.max_expansions or the deadline stopped kinodynamic A* after it reached the
   * goal: the fastest path found, not proven the fastest */
  capped?: true;
  clear?: boolean;
  waypoints?: [number, number][];
  segments?: Segment[];
  /** t (seconds) and v (m/s) with samples.dt */
  samples?: { d: number; x: number; y: number; heading: number; t?: number; v?: number }[];
  stats: { expanded: number; lane: 'fast' | 'slow'; queue_us?: number; search_us?: number };
}

export interface ClientOptions { timeoutMs?: number; maxAttempts?: number; maxRetryWaitMs?: number }

/** httpStatus 0 and code "transport" when no answer arrived; code "bad_answer" for a body that is not arcpath's. */
export class ArcpathError extends Error {
  readonly httpStatus: number;
  readonly code: string;
  readonly field: string;
  readonly attempts: number;
  /** a 422's map_version (out_of_bounds, start_blocked, goal_blocked: the map version that refused it); 0 when none */
  readonly mapVersion: number;
  constructor(httpStatus: number, code: string, message: string, field?: string, attempts?: number,
              mapVersion?: number);
}

export class ArcpathClient {
  readonly pathUrl: string;
  constructor(baseUrl: string, options?: ClientOptions);
  path(request: PathRequest): Promise<PathAnswer>;
  pathQuery(request: PathRequest): Promise<PathAnswer>;
}
