/* SPDX-License-Identifier: MIT */
/*
 * Backing-store transfers: one controller actor per host serving backing
 * memory (memory-node half, memory-node, CPU socket).  A device writes an
 * allocation by sending, to every share holding some of its pages, that
 * share's bytes; it reads by asking each share's controller, which sends
 * the bytes back.  Transfers follow the platform routes and share links
 * fluidly with everything else.
 */
#ifndef MC_BACKING_H
#define MC_BACKING_H

#include <simgrid/forward.h>

#include "linkstats.h"
#include "pages.h"

struct mc_backing {
	struct mc_pages *pg;
	struct mc_links *links;		/* counts every transfer */
	sg_mailbox_t *store_mb;		/* per store */
	struct controller_arg *ctl;	/* per store */
};

/* Before the simulation runs: check routes, start the controllers. */
int mc_backing_start(struct mc_backing **out, struct mc_pages *pg, struct mc_links *links);
void mc_backing_free(struct mc_backing *b);

/* From an actor on the device of allocation `a`: move its bytes to (write)
 * or from (read) its shares, all at once; returns when all have arrived. */
void mc_backing_write(struct mc_backing *b, const struct mc_alloc *a);
void mc_backing_read(struct mc_backing *b, const struct mc_alloc *a);
/* From an actor of device `rank` after its last transfer: lets the
 * controllers of its shares end. */
void mc_backing_done(struct mc_backing *b, int rank);

#endif
