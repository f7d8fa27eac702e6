/* SPDX-License-Identifier: MIT */
/*
 * Backing-store transfers: one controller actor per host serving backing
 * memory (memory-node half, memory-node, CPU socket).  A device writes an
 * allocation by sending, to every share holding some of its pages, that
 * share's bytes; it reads by asking each share's controller, which sends
 * the bytes back.  Transfers follow the platform routes and share links
 * fluidly with everything else.
 */
#ifndef BK_BACKING_H
#define BK_BACKING_H

#include <stdbool.h>

#include <simgrid/forward.h>

#include "linkstats.h"
#include "pages.h"

struct bk_backing {
	struct bk_pages *pg;
	struct bk_links *links;		/* counts every transfer */
	sg_mailbox_t *store_mb;		/* per store */
	struct controller_arg *ctl;	/* per store */
};

/* Before the simulation runs: check routes, start the controllers. */
int bk_backing_start(struct bk_backing **out, struct bk_pages *pg, struct bk_links *links);
/* The same when only the devices with client[rank] set move data (each
 * then ends with bk_backing_done()). */
int bk_backing_start_for(struct bk_backing **out, struct bk_pages *pg, struct bk_links *links,
			 const bool *client);
void bk_backing_free(struct bk_backing *b);

/* From an actor on the device of allocation `a`: move its bytes to (write)
 * or from (read) its shares, all at once; returns when all have arrived. */
void bk_backing_write(struct bk_backing *b, const struct bk_alloc *a);
void bk_backing_read(struct bk_backing *b, const struct bk_alloc *a);
/* From an actor of device `rank` after its last transfer: lets the
 * controllers of its shares end. */
void bk_backing_done(struct bk_backing *b, int rank);

#endif
