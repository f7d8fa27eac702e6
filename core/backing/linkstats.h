/* SPDX-License-Identifier: MIT */
/*
 * Link statistics of a training iteration: bytes moved by every link (each
 * direction of a full-duplex one), whatever moved them (memory overlaying,
 * collectives), from the traffic ledger; and the CPU sockets' memory
 * bandwidth over time, in windows of BK_LINK_WINDOW_S, or wider once a run
 * outlasts BK_LINK_WINDOWS of them (memory and time stay bounded on a
 * platform slow enough to run for days).  (SimGrid's link
 * load plugin is not used: it reports a link as saturated while messages
 * are in their latency period.)
 */
#ifndef BK_LINKSTATS_H
#define BK_LINKSTATS_H

#include <stdio.h>

#include <simgrid/forward.h>

#include "machine/platform.h"
#include "machine/traffic.h"

struct bk_links {
	const struct dl_platform *p;
	struct dl_traffic *traffic;	/* bytes per link and direction */
	int *sockets;			/* memory link of each CPU socket */
	int *socket_link;		/* per link: the socket whose memory it is, or -1 */
	double *socket_cap;		/* most its memory link can carry */
	double **window_bytes;		/* per socket, per window */
	int *nwindows;			/* at most BK_LINK_WINDOWS */
	double window_s;		/* their width: BK_LINK_WINDOW_S x 2^k */
	int nsockets;
};

#define BK_LINK_WINDOW_S 1e-4
#define BK_LINK_WINDOWS 65536

struct bk_link_summary {
	double class_bytes[DL_LINK_CLASSES];
	double cpu_mem_bw_avg_Bps;	/* per socket, mean over sockets */
	double cpu_mem_bw_max_Bps;	/* highest window, any socket */
	double cpu_mem_bw_window_s;	/* the windows' width */
};

int bk_links_init(struct bk_links *ls, const struct dl_platform *p);
void bk_links_free(struct bk_links *ls);
/*
 * A memory-overlaying transfer of `bytes` from src to dst that ran from t0
 * to t1: counted on its route, and on CPU memory links spread evenly over
 * [t0, t1).
 */
void bk_links_transfer(struct bk_links *ls, sg_host_t src, sg_host_t dst, double bytes,
		       double t0, double t1);

void bk_links_summary(const struct bk_links *ls, double seconds, struct bk_link_summary *s);
/* One CSV line per link and direction: bytes moved and busy fraction. */
void bk_links_write_csv(const struct bk_links *ls, double seconds, FILE *f);

#endif
