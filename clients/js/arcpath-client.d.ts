// Types of arcpath-client.mjs (README "POST /v1/path" and proto/openapi.yaml are the contract).

/** x = column, y = row, tiles; heading radians from +x toward +y. */
export interface Pose { x: number; y: number; heading?: number }

export interface PathRequest {
  map: string;
  start: Pose;
  goal: Pose;
  unit?: { kind?: string; radius?: number; size?: number; capability?: ('ground' | 'swamp' | 'water' | 'trees')[];
          turning_radius?: number; reverse?: boolean; reverse_penalty?: number; art_directions?: 8 | 16 };
  search?: { algorithm?: string; connectivity?: 4 | 8; smoothing?: 'none' | 'los'; headings?: 8 | 16; turn_penalty?: number };
  deadline_ms?: number;
  samples?: { step: number };
}

export interface LineSegment { type: 'line'; start: [number, number]; end: [number, number]; heading: number; length: number; reverse?: true }
export interface ArcSegment {
  type: 'arc'; start: [number, number]; end: [number, number]; center: [number, number];
  radius: number; start_heading: number; sweep: number; length: number; reverse?: true;
}
export type Segment = LineSegment | ArcSegment;

export interface PathAnswer {
  status: 'ok' | 'no_path' | 'timeout';
  map: string;
  reason?: 'unreachable' | 'not_found';
  grid_cost?: number;
  length?: number;
  clear?: boolean;
  waypoints?: [number, number][];
  segments?: Segment[];
  samples?: { d: number; x: number; y: number; heading: number }[];
  stats: { expanded: number; lane: 'fast' | 'slow'; queue_us?: number; search_us?: number };
}

export interface ClientOptions { timeoutMs?: number; maxAttempts?: number; maxRetryWaitMs?: number }

/** httpStatus 0 and code "transport" when no answer arrived; code "bad_answer" for a body that is not arcpath's. */
export class ArcpathError extends Error {
  readonly httpStatus: number;
  readonly code: string;
  readonly field: string;
  readonly attempts: number;
  constructor(httpStatus: number, code: string, message: string, field?: string, attempts?: number);
}

export class ArcpathClient {
  readonly pathUrl: string;
  constructor(baseUrl: string, options?: ClientOptions);
  path(request: PathRequest): Promise<PathAnswer>;
  pathQuery(request: PathRequest): Promise<PathAnswer>;
}
