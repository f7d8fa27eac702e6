/* SPDX-License-Identifier: MIT */
/*
 * Link statistics.  Shared links (memory channels, PCIe uplinks...) are
 * measured by SimGrid's link load plugin: every byte of every transfer.
 * SimGrid 3.32's plugin cannot track the two directions of a SPLITDUPLEX
 * link (LinkLoad::track() dereferences a missing extension), so for those
 * the bytes of memory-overlaying transfers are counted here, along their
 * routes; collective traffic on them is not counted (the CSV says which).
 */
#ifndef MC_LINKSTATS_H
#define MC_LINKSTATS_H

#include <stdio.h>

#include <simgrid/forward.h>

#include "platform.h"

struct mc_links {
	const struct dl_platform *p;
	double *overlay_bytes;		/* [2 * nlinks]: link, direction */
	double *shared_bytes;		/* [nlinks]: snapshot of the plugin */
	double *shared_max_Bps;		/* [nlinks]: over sampling windows */
	double *last_bytes;		/* [nlinks]: at the last sample */
	double last_t;
	struct dl_strmap slots;		/* SimGrid link name -> slot */
	char **names;			/* owned keys of `slots` */
	int nnames;
};

struct mc_link_summary {
	double class_bytes[DL_LINK_CLASSES];
	double cpu_mem_bw_avg_Bps;	/* per socket, mean over sockets */
	double cpu_mem_bw_max_Bps;	/* highest over a sampling window, any socket */
};

/* After the engine started with DL_ENGINE_LINK_LOAD, before it runs. */
int mc_links_init(struct mc_links *ls, const struct dl_platform *p);
void mc_links_free(struct mc_links *ls);
/* Count `bytes` of a memory-overlaying transfer from `src` to `dst`. */
void mc_links_add(struct mc_links *ls, sg_host_t src, sg_host_t dst, double bytes);
/* From an actor when the iteration starts (tracking set up before the
 * simulation runs does not hold). */
void mc_links_track(struct mc_links *ls);
/* Sampling window of the highest bandwidth a shared link carried. */
#define MC_LINK_SAMPLE_S 1e-4
/* A daemon actor sampling shared links every MC_LINK_SAMPLE_S. */
void mc_links_sampler(void *ls);
/* From an actor at the end of the iteration (the plugin stops tracking
 * when the simulation ends): keep what it measured. */
void mc_links_snapshot(struct mc_links *ls);

void mc_links_summary(const struct mc_links *ls, double seconds, struct mc_link_summary *s);
/* One CSV line per link and direction: bytes moved and busy fraction. */
void mc_links_write_csv(const struct mc_links *ls, double seconds, FILE *f);

#endif
