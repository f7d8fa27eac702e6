/* SPDX-License-Identifier: MIT */
/* The NNA's DRAM: the memory-device service, as the DMA engine sees it. */
#include "mem.h"

#include <stdlib.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "lib/pool.h"
#include "memdev/memdev.h"

/* A request of the DMA as the DRAM takes it: placed once, however often
 * its channel's room is asked for. */
struct nna_mem_req {
	struct memdev_req r;
	struct memdev_addr a;
	struct nna_rowtask *rt;
};

struct nna_mem {
	struct memdev *d;
	struct dlasim_dram_geometry g;
	struct dl_pool reqs;	/* struct nna_mem_req */
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
	/* The placement works on rows of banks (docs/nna.md). */
	if (cfg.kind != MEMDEV_DDR)
		return dl_err("%s: the NNA's DRAM must be a DDR device (kind nvm)", config);
	m = calloc(1, sizeof(*m));
	if (!m)
		return dl_err("out of memory");
	dl_pool_init(&m->reqs, sizeof(struct nna_mem_req));
	m->d = memdev_open(&cfg);
	if (!m->d) {
		free(m);
		return -1;
	}
	m->g = (struct dlasim_dram_geometry){
		.size = sizeof(m->g), .channels = cfg.channels, .ranks = cfg.ranks,
		.bankgroups = cfg.bankgroups, .banks = cfg.banks, .rows = (int)cfg.rows,
		.row_bytes = (int)cfg.row_bytes, .block_bytes = cfg.block_bytes,
		.blocks_per_row = (int)(cfg.row_bytes / cfg.block_bytes),
	};
	*g = m->g;
	*out = m;
	return 0;
}

void nna_mem_close(struct nna_mem *m)
{
	dl_pool_free(&m->reqs);
	memdev_close(m->d);
	free(m);
}

/* The flat bank numbers of the placement (channel, rank, bank of the
 * rank) are the device's (memdev_bank_index): bank b of a rank is bank
 * b % banks_per_group of bank group b / banks_per_group. */
static struct memdev_addr place_of(const struct nna_mem *m, const struct nna_req *r)
{
	const struct memdev_config *c = memdev_config(m->d);
	int per_rank = m->g.banks, per_ch = m->g.ranks * per_rank, b = r->bank % per_rank;

	return (struct memdev_addr){
		.ch = r->bank / per_ch, .rk = r->bank % per_ch / per_rank,
		.bg = b / c->banks_per_group, .ba = b % c->banks_per_group,
		.row = r->row, .col = r->col,
	};
}

struct nna_mem_req *nna_mem_prepare(struct nna_mem *m, const struct nna_req *r)
{
	struct nna_mem_req *q = dl_pool_get(&m->reqs);
	const char *why;

	if (!q)
		dl_sim_error("out of memory");
	q->a = place_of(m, r);
	q->r = (struct memdev_req){ .write = r->write, .tag = q, .blocks = r->blocks };
	q->rt = r->rt;
	why = memdev_locate(m->d, &q->a, q->r.blocks, &q->r.addr);
	if (why)
		dl_sim_error("internal error: the DRAM refused a request: %s", why);
	return q;
}

bool nna_mem_room(const struct nna_mem *m, const struct nna_mem_req *q)
{
	return memdev_room(m->d, &q->a, q->r.write);
}

int nna_mem_bank_pending(const struct nna_mem *m, int bank)
{
	return memdev_bank_pending(m->d, bank);
}

void nna_mem_send(struct nna_mem *m, struct nna_mem_req *q, double now)
{
	memdev_enqueue_placed(m->d, &q->r, &q->a, now);
}

double nna_mem_next(const struct nna_mem *m)
{
	return memdev_next_event_all(m->d);
}

static void done(void *arg, struct memdev_req *r)
{
	struct nna_mem *m = arg;
	struct nna_mem_req *q = r->tag;

	m->fn(q->rt, r->blocks, m->arg);
	dl_pool_put(&m->reqs, q);
}

void nna_mem_advance(struct nna_mem *m, double t, nna_served_fn fn, void *arg)
{
	m->fn = fn;
	m->arg = arg;
	memdev_advance_all(m->d, t, done, m);
}

void nna_mem_stats(const struct nna_mem *m, double end_s, struct nna_mem_stats *st)
{
	struct memdev_stats s;
	double block = m->g.block_bytes;

	memdev_stats(m->d, end_s, &s);
	*st = (struct nna_mem_stats){
		.read_bytes = (double)s.reads * block, .write_bytes = (double)s.writes * block,
		.busy_s = s.busy_s, .clp = s.clp, .blp = s.blp, .row_hit_rate = s.row_hit_rate,
	};
}
