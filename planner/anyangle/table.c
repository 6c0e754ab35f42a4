/* table.c — the "any_angle" per-map table (table.h): the point unit's tangent visibility graph of a grid
 * map with its eager table of corner bitangents, built once at load and shared read-only by every query. */
#include "table.h"

#include "../base/status.h"

/* Memory of a built graph: per hug circle centre, radius and quadrant; per eager departure its entry; the
 * departure index. */
static size_t graph_bytes(const ap_aa_graph *g)
{
    return g->n * (3 * sizeof(double) + 1) + g->n_deps * sizeof(ap_aa_dep) +
           (g->dep_start != NULL ? (2 * g->n + 1) * sizeof(uint32_t) : 0);
}

static void table_free(void *data)
{
    ap_aa_graph_free(data);
}

static int table_build(const ap_map *m, ap_map_table *out)
{
    ap_aa_graph *g;
    int st = ap_aa_graph_grid_lazy(m, 0.0, &g);
    if (st != AP_OK)
        return st;
    /* Beyond the limits the map gets no slot: its queries build a lazy graph each (graph.h). */
    if (g->n > AP_AA_TABLE_MAX_CORNERS || ap_aa_graph_precompute(g) != AP_OK ||
        graph_bytes(g) > AP_AA_TABLE_MAX_BYTES) {
        ap_aa_graph_free(g);
        return AP_OK;
    }
    out->data = g;
    out->bytes = graph_bytes(g);
    out->count = g->n;
    return AP_OK;
}

const ap_table_kind ap_aa_table_kind = {AP_AA_TABLE_NAME, "corners", AP_TABLE_OPTIONAL | AP_TABLE_UNIFORM,
                                        table_build, table_free};

const ap_aa_graph *ap_aa_table_of(const ap_map *m)
{
    const ap_map_table *t = ap_map_find_table(m, AP_AA_TABLE_NAME);
    return t != NULL ? t->data : NULL;
}
