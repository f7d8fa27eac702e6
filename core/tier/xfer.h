/* SPDX-License-Identifier: MIT */
/*
 * Data transfers between the chip and its memory tiers: each transfer is a
 * small actor moving `bytes` over the platform route between two hosts
 * (sharing links fluidly with every other transfer), then calling `done`.
 * A group counts transfers so that an actor can wait for all of them.
 */
#ifndef DL_TIER_XFER_H
#define DL_TIER_XFER_H

#include <simgrid/forward.h>

struct xfer_group {
	int pending;
	sg_mutex_t mutex;
	sg_cond_t cond;
};

typedef void (*xfer_done_fn)(void *arg, double bytes);

void xfer_group_init(struct xfer_group *g);
void xfer_group_destroy(struct xfer_group *g);
/* Block the calling actor until every transfer of the group is done. */
void xfer_group_wait(struct xfer_group *g);
/* Count one more (hold) or one less (release) pending transfer: for a
 * transfer that an actor starts later. */
void xfer_group_hold(struct xfer_group *g);
void xfer_group_release(struct xfer_group *g);

/* Start moving `bytes` from `src` to `dst` (nothing if bytes <= 0: `done`
 * is then called at once).  `group` may be NULL.  With a `done`, `arg` is
 * freed if the simulation stops before the transfer ends. */
void xfer_start(sg_host_t src, sg_host_t dst, double bytes, xfer_done_fn done,
		void *arg, struct xfer_group *group);

#endif
