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

#include <libxml/tree.h>

struct dl_cluster {
	const char *id, *prefix, *suffix;
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

#endif
