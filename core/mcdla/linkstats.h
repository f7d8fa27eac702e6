/* SPDX-License-Identifier: MIT */
/*
 * Link statistics of memory overlaying: every byte a device moves to or
 * from its backing store is counted on each link of its route, and on the
 * memory links of CPU sockets also in windows of MC_LINK_WINDOW_S (spread
 * evenly over the transfer) for the highest bandwidth.  Collective traffic
 * is not counted.  (SimGrid 3.32's link load plugin would count every
 * byte, but it cannot track SPLITDUPLEX links and crashes when actors with
 * transfers in flight are killed, which is how a failed run stops.)
 */
#ifndef MC_LINKSTATS_H
#define MC_LINKSTATS_H

#include <stdio.h>

#include <simgrid/forward.h>

#include "platform.h"

struct mc_links {
	const struct dl_platform *p;
	double *overlay_bytes;		/* [2 * nlinks]: link, direction */
	double **window_bytes;		/* [nlinks]: CPU memory links, per window */
	int *nwindows;
	struct dl_strmap slots;		/* SimGrid link name -> slot */
	char **names;			/* owned keys of `slots` */
	int nnames;
};

struct mc_link_summary {
	double class_bytes[DL_LINK_CLASSES];
	double cpu_mem_bw_avg_Bps;	/* per socket, mean over sockets */
	double cpu_mem_bw_max_Bps;	/* highest over a window, any socket */
};

#define MC_LINK_WINDOW_S 1e-4

/* Before the simulation runs. */
int mc_links_init(struct mc_links *ls, const struct dl_platform *p);
void mc_links_free(struct mc_links *ls);
/* Count `bytes` moved from `src` to `dst` between times t0 and t1. */
void mc_links_add(struct mc_links *ls, sg_host_t src, sg_host_t dst, double bytes,
		  double t0, double t1);

void mc_links_summary(const struct mc_links *ls, double seconds, struct mc_link_summary *s);
/* One CSV line per link and direction: bytes moved and busy fraction. */
void mc_links_write_csv(const struct mc_links *ls, double seconds, FILE *f);

#endif
