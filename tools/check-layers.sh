#!/bin/sh
# check-layers.sh — the planner's folders form layers; a folder may include only the folders listed for it
# (docs/ARCHITECTURE.md, "Layers"). `make test` runs this first; it prints every include that breaks the
# rule and fails. Folders not listed here are refused until they are added, so a new folder is a decision.
#
#   base     vocabulary every layer shares: statuses, limits, segments and poses, the clock
#   geom     pure geometry: Dubins, Reeds-Shepp, Pinter's curves (no world)
#   world    what a world is: grid maps and their table slots, exact clearance tests, the world interface
#   search   the A* core, which names no domain
#   grid     grid domains (A*, JPS, JPS+)    turns  legal-turn lattice (profiles, Directional A*)
#   hier     HAA* abstract graph (uses grid's constants)
#   anyangle tangent-graph search           kino   kinodynamic (x, y, heading, speed) search
#   plan   one query from validation to segments: may use all
set -eu
cd "$(dirname "$0")/.."
allowed() {
    case $1 in
    base) echo "base" ;;
    geom) echo "base geom" ;;
    world) echo "base geom world" ;;
    search) echo "base search" ;;
    grid) echo "base geom world search grid" ;;
    turns) echo "base geom world search turns" ;;
    anyangle) echo "base geom world search anyangle" ;;
    hier) echo "base geom world search grid hier" ;;
    kino) echo "base geom world search kino" ;;
    plan) echo "base geom world search grid turns anyangle hier kino plan" ;;
    *) echo "" ;;
    esac
}
bad=0
for dir in planner/*/; do
    layer=$(basename "$dir")
    ok=$(allowed "$layer")
    if [ -z "$ok" ]; then
        echo "check-layers: planner/$layer is not a known layer (add it to tools/check-layers.sh)"
        bad=1
        continue
    fi
    for f in "$dir"*.c "$dir"*.h; do
        [ -e "$f" ] || continue
        # every quoted include that climbs to a sibling folder: "../<folder>/<file>"
        for dep in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\.\/\([a-z_]*\)\/.*/\1/p' "$f"); do
            case " $ok " in
            *" $dep "*) ;;
            *) echo "check-layers: $f includes planner/$dep, which planner/$layer may not use"; bad=1 ;;
            esac
        done
        # and nothing outside the planner (the server, proto, config) or a domain named from search
        if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./\.\./' "$f" > /dev/null; then
            echo "check-layers: $f includes a file outside planner/"; bad=1
        fi
        # nor the server's libraries: their headers sit in /usr/include, which the planner's build reaches
        # too, so leaving their flags out of the planner's compile line would not stop an include
        if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](microhttpd|jansson|uv|curl/curl|cairo/cairo|cairo|zlib)\.h[>"]' "$f" > /dev/null; then
            echo "check-layers: $f includes an HTTP, JSON, libuv, curl, cairo or zlib header (the planner has none)"; bad=1
        fi
    done
done
[ "$bad" -eq 0 ] || exit 1
echo "layers: every planner folder includes only the layers below it, and no server library"
