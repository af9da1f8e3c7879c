/* Scratch plumbing shared by the graph queries; not installed. */
#ifndef DOD_GRAPH_INTERNAL_H
#define DOD_GRAPH_INTERNAL_H

#include <dod/graph.h>

/* Make the scratch hold n_nodes nodes and start a new query: after it, no node is marked. */
dod_status dod__graph_begin(dod_graph_scratch *s, uint32_t n_nodes);

#endif /* DOD_GRAPH_INTERNAL_H */
