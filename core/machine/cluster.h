/* SPDX-License-Identifier: MIT */
/*
 * SimGrid's <cluster> element (flat with a backbone, torus, fat tree,
 * dragonfly), checked as SimGrid 3.32 reads it, which aborts on what it
 * cannot build: attributes, units, the topology's parameters and that
 * they hold as many hosts as the radical names.  The platform reader
 * (platform.c) turns a checked cluster into hosts with roles; the
 * conventions are in docs/platforms.md.
 */
#ifndef DL_CLUSTER_H
#define DL_CLUSTER_H

#include <stdbool.h>

#include <libxml/tree.h>

/* SimGrid's cluster topologies, in the order of its "topology" values. */
enum dl_cluster_topology { DL_FLAT, DL_TORUS, DL_FAT_TREE, DL_DRAGONFLY };

struct dl_cluster {
	const char *id, *prefix, *suffix;
	enum dl_cluster_topology topology;
	long *number;		/* host numbers of the radical, in order */
	long nhosts;
	double speed;		/* flop/s */
	char router[512];	/* the router SimGrid adds to a flat cluster
				 * (router_id or its default); "" for others */
};

/* NULL, or why the element is wrong (static text; the caller adds
 * file:line).  Fills c; free with dl_cluster_free() either way. */
const char *dl_cluster_read(xmlNode *n, struct dl_cluster *c);
void dl_cluster_free(struct dl_cluster *c);

/*
 * Could SimGrid 3.32 build a link called `name` for a cluster `id` of
 * `topology`?  Those of a flat cluster or a torus are "id_link_..." and
 * "id_backbone"; a fat tree's "link_from_..."; a dragonfly's
 * "{black,blue,green,local}_link_...".  A declared link of such a name
 * would be declared twice, on which SimGrid aborts.
 */
bool dl_cluster_link_name(const char *id, enum dl_cluster_topology topology, const char *name);

#endif
