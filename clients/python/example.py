"""The README's first query through the Python client: a path across the demo arena.

    python3 clients/python/example.py [BASE_URL [MAP]]     (defaults: http://127.0.0.1:8080, arena)

Prints "status", "length", "grid_cost", "segments" and "clear" lines and exits 0; on an error prints
"error HTTP CODE: MESSAGE (field: FIELD)" (and " map_version N" when the error names one: a 422) and exits 1.
tests/clients/run.sh checks both.
"""
import sys

from arcpath_client import ArcpathClient, ArcpathError


def main(argv):
    base = argv[1] if len(argv) > 1 else "http://127.0.0.1:8080"
    map_id = argv[2] if len(argv) > 2 else "arena"
    client = ArcpathClient(base, timeout=10)
    try:
        answer = client.path_query(map_id, start=(3.5, 3.5), goal=(90.5, 88.5))
    except ArcpathError as e:
        print(f"error {e.http_status} {e.code}: {e.message} (field: {e.field})"
              + (f" map_version {e.map_version}" if e.map_version else ""))
        return 1
    print(f"status {answer['status']}")
    print(f"length {answer.get('length')!r}")
    print(f"grid_cost {answer.get('grid_cost')!r}")
    print(f"segments {len(answer.get('segments', []))}")
    print(f"clear {'true' if answer.get('clear') else 'false'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
