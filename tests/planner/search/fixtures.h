/* fixtures.h — test fixtures of the search folder. The Dijkstra domain (dijkstra_domain.c): a search
 * domain written only against planner/search/search.h and planner/world/map.h, to show the core runs a
 * domain it knows nothing about. Grid states (padded map indices), the Moving AI 8-connected moves
 * (straight 1, diagonal sqrt 2, no corner cutting), zero heuristic: A* with h = 0 is Dijkstra's algorithm
 * (Dijkstra 1959), so its costs are optimal. */
#ifndef AP_TEST_SEARCH_FIXTURES_H
#define AP_TEST_SEARCH_FIXTURES_H

#include "tests/check_fast.h"

#include "../../../planner/search/search.h"
#include "../../../planner/world/map.h"

/* Fill dom with the Dijkstra domain over m (borrowed; must outlive the search). With hops true the domain
 * also keeps a per-node payload: a uint32_t, the number of moves on the node's best path from the start
 * (the start's is written by the caller after ap_search_begin); the successors' payloads are the expanded
 * node's + 1. */
void ap_test_dijkstra_domain(ap_domain *dom, const ap_map *m, bool hops);

/* Assert that the path of search s (finished with AP_OK on grid states of m) runs from a to b by legal
 * moves of the given connectivity (4 or 8; diagonals without corner cutting) whose costs (1, sqrt 2) add up
 * to s->cost within 1e-9 tiles. Defined in test_core.c. */
void ap_test_check_grid_path(const ap_map *m, const ap_search *s, uint32_t a, uint32_t b, int conn);

/* Add the generic-core test cases (test_core.c) to the search suite. */
void ap_test_add_core_cases(Suite *s);

#endif
