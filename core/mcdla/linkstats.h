/* SPDX-License-Identifier: MIT */
/*
 * Link statistics of a training iteration: bytes moved by every link (each
 * direction of a full-duplex one), whatever moved them (memory overlaying,
 * collectives), from the traffic ledger; and the highest instantaneous
 * rate of the CPU sockets' memory links, from SimGrid's link load plugin
 * (enabled before the platform is built, DL_ENGINE_LINK_LOAD, and tracking
 * started from inside the simulation: it refuses links tracked earlier).
 */
#ifndef MC_LINKSTATS_H
#define MC_LINKSTATS_H

#include <stdio.h>

#include "platform.h"
#include "traffic.h"

struct mc_links {
	const struct dl_platform *p;
	struct dl_traffic *traffic;	/* bytes per link and direction */
	int *sockets;			/* memory link of each CPU socket */
	double *peak_Bps;		/* its highest instantaneous rate */
	int nsockets;
};

struct mc_link_summary {
	double class_bytes[DL_LINK_CLASSES];
	double cpu_mem_bw_avg_Bps;	/* per socket, mean over sockets */
	double cpu_mem_bw_max_Bps;	/* highest instantaneous, any socket */
};

int mc_links_init(struct mc_links *ls, const struct dl_platform *p);
void mc_links_free(struct mc_links *ls);
/* From an actor at the start of the iteration. */
void mc_links_track(struct mc_links *ls);
/* From an actor at its end: take the peak rates. */
void mc_links_sample(struct mc_links *ls);

void mc_links_summary(const struct mc_links *ls, double seconds, struct mc_link_summary *s);
/* One CSV line per link and direction: bytes moved and busy fraction. */
void mc_links_write_csv(const struct mc_links *ls, double seconds, FILE *f);

#endif
