/* SPDX-License-Identifier: MIT */
/*
 * The NNA's DRAM: the memory-device service (core/memdev) seen as the
 * DMA engine sees it.  Requests are runs of blocks in one row of one bank;
 * the device tells when it has room, when its next event is, and which
 * requests it has served.  All in plain C: the simulation's memory actor
 * advances it (docs/nna.md, "Time").
 */
#ifndef NNA_MEM_H
#define NNA_MEM_H

#include <stdbool.h>

#include <dlasim/dram_placement.h>

#include "dma.h"

struct nna_mem;
struct nna_mem_req;

struct nna_mem_stats {
	double read_bytes, write_bytes;
	double busy_s;		/* some request outstanding */
	double clp, blp;	/* channels, banks busy on average while any is */
	double row_hit_rate;
};

/* Open the DRAM described by `config`; its geometry into *g. */
int nna_mem_open(struct nna_mem **out, const char *config, struct dlasim_dram_geometry *g);
void nna_mem_close(struct nna_mem *m);

/* The DRAM's request for r, placed once (the device's memory until it is
 * served; a request the device refuses is an internal error: the
 * placement was checked). */
struct nna_mem_req *nna_mem_prepare(struct nna_mem *m, const struct nna_req *r);
/* Room for q in its channel's queue. */
bool nna_mem_room(const struct nna_mem *m, const struct nna_mem_req *q);
/* Requests the device holds for a flat bank (queued or in service). */
int nna_mem_bank_pending(const struct nna_mem *m, int bank);
/* Hand q to the DRAM at time `now` (seconds), when it has room. */
void nna_mem_send(struct nna_mem *m, struct nna_mem_req *q, double now);
/* Time of the DRAM's next event, INFINITY when it has nothing to do. */
double nna_mem_next(const struct nna_mem *m);
/* Process every event up to time t; fn() for every request served. */
typedef void (*nna_served_fn)(struct nna_rowtask *rt, int blocks, void *arg);
void nna_mem_advance(struct nna_mem *m, double t, nna_served_fn fn, void *arg);

void nna_mem_stats(const struct nna_mem *m, double end_s, struct nna_mem_stats *st);

#endif
