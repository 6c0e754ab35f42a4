// The README's first query through the JavaScript client: a path across the demo arena.
//
//   node clients/js/example.mjs [BASE_URL [MAP]]     (defaults: http://127.0.0.1:8080, arena)
//
// Prints "status", "length", "grid_cost", "segments" and "clear" lines and exits 0; on an error prints
// "error HTTP CODE: MESSAGE (field: FIELD)" and exits 1. tests/clients/run.sh checks both.
import { ArcpathClient, ArcpathError } from './arcpath-client.mjs';

const [base = 'http://127.0.0.1:8080', map = 'arena'] = process.argv.slice(2);
const client = new ArcpathClient(base, { timeoutMs: 10000 });
try {
  const answer = await client.pathQuery({ map, start: { x: 3.5, y: 3.5 }, goal: { x: 90.5, y: 88.5 } });
  console.log(`status ${answer.status}`);
  console.log(`length ${answer.length}`);
  console.log(`grid_cost ${answer.grid_cost}`);
  console.log(`segments ${answer.segments?.length ?? 0}`);
  console.log(`clear ${answer.clear === true}`);
} catch (e) {
  if (!(e instanceof ArcpathError)) throw e;
  console.log(`error ${e.httpStatus} ${e.code}: ${e.message} (field: ${e.field})`);
  process.exitCode = 1;
}
