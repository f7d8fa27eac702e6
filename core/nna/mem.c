/* SPDX-License-Identifier: MIT */
/* The NNA's DRAM: the memory-device service, as the DMA engine sees it. */
#include "mem.h"

#include <math.h>
#include <stdlib.h>

#include "kernel/diag.h"
#include "kernel/engine.h"
#include "memdev/memdev.h"

struct mreq {
	struct memdev_req r;
	struct nna_rowtask *rt;
	struct mreq *next_free;
};

struct nna_mem {
	struct memdev *d;
	struct dlasim_dram_geometry g;
	struct mreq *free;
	nna_served_fn fn;
	void *arg;
};

int nna_mem_open(struct nna_mem **out, const char *config, struct dlasim_dram_geometry *g)
{
	struct memdev_config cfg;
	struct nna_mem *m;

	*out = NULL;
	if (memdev_config_read(config, &cfg))
		return -1;
	m = calloc(1, sizeof(*m));
	if (!m)
		return dl_err("out of memory");
	m->d = memdev_open(&cfg);
	if (!m->d) {
		free(m);
		return -1;
	}
	m->g = (struct dlasim_dram_geometry){
		.size = sizeof(m->g), .channels = cfg.channels, .ranks = cfg.ranks,
		.bankgroups = cfg.ddr.bankgroups, .banks = cfg.banks, .rows = cfg.ddr.rows,
		.row_bytes = (int)cfg.page_bytes, .block_bytes = cfg.line_bytes,
		.blocks_per_row = cfg.ddr.columns / cfg.ddr.BL,
	};
	*g = m->g;
	*out = m;
	return 0;
}

void nna_mem_close(struct nna_mem *m)
{
	while (m->free) {
		struct mreq *q = m->free;

		m->free = q->next_free;
		free(q);
	}
	memdev_close(m->d);
	free(m);
}

static long address(const struct nna_mem *m, const struct nna_req *r)
{
	int per_rank = m->g.banks, per_ch = m->g.ranks * per_rank;

	return memdev_ddr_address(m->d, r->bank / per_ch, r->bank % per_ch / per_rank,
				  r->bank % per_rank, r->row, r->col);
}

bool nna_mem_room(const struct nna_mem *m, const struct nna_req *r)
{
	return memdev_will_accept(m->d, address(m, r), r->blocks);
}

void nna_mem_send(struct nna_mem *m, const struct nna_req *r, double now)
{
	struct mreq *q = m->free;

	if (q)
		m->free = q->next_free;
	else if (!(q = malloc(sizeof(*q))))
		dl_sim_error("out of memory");
	q->r = (struct memdev_req){ .addr = address(m, r), .write = r->write, .tag = q,
				    .blocks = r->blocks };
	q->rt = r->rt;
	memdev_enqueue(m->d, &q->r, now);
}

double nna_mem_next(const struct nna_mem *m)
{
	double t = INFINITY;

	for (int c = 0; c < m->g.channels; c++)
		t = fmin(t, memdev_next_event(m->d, c));
	return t;
}

static void done(void *arg, struct memdev_req *r)
{
	struct nna_mem *m = arg;
	struct mreq *q = r->tag;

	m->fn(q->rt, r->blocks, m->arg);
	q->next_free = m->free;
	m->free = q;
}

void nna_mem_advance(struct nna_mem *m, double t, nna_served_fn fn, void *arg)
{
	m->fn = fn;
	m->arg = arg;
	for (int c = 0; c < m->g.channels; c++)
		memdev_advance(m->d, c, t, done, m);
}

void nna_mem_stats(const struct nna_mem *m, double end_s, struct nna_mem_stats *st)
{
	struct memdev_stats s;
	long accesses;

	memdev_stats(m->d, end_s, &s);
	accesses = s.row_hits + s.row_misses;
	*st = (struct nna_mem_stats){
		.read_bytes = s.read_bytes, .write_bytes = s.write_bytes, .busy_s = s.busy_s,
		.clp = s.busy_s > 0 ? s.channel_busy_s / s.busy_s : 0,
		.blp = s.busy_s > 0 ? s.bank_busy_s / s.busy_s : 0,
		.row_hit_rate = accesses ? (double)s.row_hits / (double)accesses : 0,
	};
}
