/* SPDX-License-Identifier: MIT */
#include "memdev.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/diag.h"
#include "ddr.h"

struct bank {
	struct memdev_req *head, *tail;	/* head is in service */
	int pending;
	long reads, writes;
};

struct memdev {
	struct memdev_config cfg;
	struct ddr *ddr;		/* MEMDEV_DDR: the model of ddr.c */
	int nbanks, per_channel;
	struct bank *bank;
	int busy;			/* banks in service */
	double busy_since;
	struct memdev_stats st;
};

int memdev_preset(const char *name, struct memdev_config *out)
{
	/* The NVM of the dissertation's Table 4.1: 1 channel, 1 rank, 8
	 * banks, 8 GB; 48 ns reads and 300 ns writes [46, 61]; 64 B lines;
	 * page-level (4 KB) interleaving by default (4.5.1). */
	if (strcmp(name, "nvm") == 0) {
		*out = (struct memdev_config){
			.name = "nvm", .channels = 1, .ranks = 1, .banks = 8,
			.line_bytes = 64, .page_bytes = 4096, .capacity_bytes = 8.0 * (1L << 30),
			.read_s = 48e-9, .write_s = 300e-9, .interleave = MEMDEV_PAGE,
		};
		return 0;
	}
	return -1;
}

struct memdev *memdev_open(const struct memdev_config *cfg)
{
	struct memdev *d;
	char why[256];

	if (cfg->kind == MEMDEV_DDR) {
		d = calloc(1, sizeof(*d));
		if (!d || !(d->ddr = ddr_open(cfg, why, sizeof(why)))) {
			dl_err("DRAM %s: %s", cfg->name ? cfg->name : "configuration", d ? why : "out of memory");
			free(d);
			return NULL;
		}
		d->cfg = *cfg;
		return d;
	}
	if (cfg->channels < 1 || cfg->ranks < 1 || cfg->banks < 1 || cfg->line_bytes < 1 ||
	    cfg->page_bytes < cfg->line_bytes || !(cfg->read_s > 0) || !(cfg->write_s > 0))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->cfg = *cfg;
	d->per_channel = cfg->ranks * cfg->banks;
	d->nbanks = cfg->channels * d->per_channel;
	d->bank = calloc((size_t)d->nbanks, sizeof(*d->bank));
	if (!d->bank) {
		free(d);
		return NULL;
	}
	return d;
}

void memdev_close(struct memdev *d)
{
	if (!d)
		return;
	ddr_close(d->ddr);
	free(d->bank);
	free(d);
}

const struct memdev_config *memdev_config(const struct memdev *d)
{
	return &d->cfg;
}

int memdev_banks(const struct memdev *d)
{
	return d->ddr ? ddr_banks(d->ddr) : d->nbanks;
}

/* The interleaving unit rotates over the channels first, then over the
 * ranks and banks of a channel. */
int memdev_bank_of(const struct memdev *d, long addr)
{
	if (d->ddr)
		return ddr_bank_of(d->ddr, addr);
	long unit = addr / (d->cfg.interleave == MEMDEV_LINE ? d->cfg.line_bytes : d->cfg.page_bytes);
	int ch = (int)(unit % d->cfg.channels);

	if (unit < 0)
		return -1;
	return ch * d->per_channel + (int)((unit / d->cfg.channels) % d->per_channel);
}

int memdev_channel_of(const struct memdev *d, int bank)
{
	return d->ddr ? ddr_channel_of(d->ddr, bank) : bank / d->per_channel;
}

int memdev_bank_pending(const struct memdev *d, int bank)
{
	if (d->ddr)
		return ddr_bank_pending(d->ddr, bank);
	return bank >= 0 && bank < d->nbanks ? d->bank[bank].pending : 0;
}

void memdev_bank_counts(const struct memdev *d, int bank, long *reads, long *writes)
{
	if (d->ddr) {
		ddr_bank_counts(d->ddr, bank, reads, writes);
		return;
	}
	*reads = d->bank[bank].reads;
	*writes = d->bank[bank].writes;
}

static void start(struct memdev *d, struct memdev_req *r, double at)
{
	r->start_s = at;
	r->done_s = at + (r->write ? d->cfg.write_s : d->cfg.read_s);
	if (d->busy++ == 0)
		d->busy_since = at;
}

void memdev_enqueue(struct memdev *d, struct memdev_req *r, double now)
{
	if (d->ddr) {
		ddr_enqueue(d->ddr, r, now);
		return;
	}
	struct bank *b = &d->bank[memdev_bank_of(d, r->addr)];

	r->arrive_s = now;
	r->next = NULL;
	if (b->tail)
		b->tail->next = r;
	else
		b->head = r;
	b->tail = r;
	b->pending++;
	if (r->write)
		b->writes++;
	else
		b->reads++;
	if (b->head == r)
		start(d, r, now);
}

/* The bank of `channel` whose request in service completes first (the
 * lowest bank on ties), or -1. */
static int first_due(const struct memdev *d, int channel)
{
	int best = -1;

	for (int i = channel * d->per_channel; i < (channel + 1) * d->per_channel; i++)
		if (d->bank[i].head && (best < 0 || d->bank[i].head->done_s < d->bank[best].head->done_s))
			best = i;
	return best;
}

double memdev_next_event(const struct memdev *d, int channel)
{
	if (d->ddr)
		return ddr_next_event(d->ddr, channel);
	int b = first_due(d, channel);

	return b < 0 ? INFINITY : d->bank[b].head->done_s;
}

void memdev_advance(struct memdev *d, int channel, double now,
		    void (*done)(void *arg, struct memdev_req *r), void *arg)
{
	int i;

	if (d->ddr) {
		ddr_advance(d->ddr, channel, now, done, arg);
		return;
	}
	while ((i = first_due(d, channel)) >= 0 && d->bank[i].head->done_s <= now) {
		struct bank *b = &d->bank[i];
		struct memdev_req *r = b->head;
		double lat = r->done_s - r->arrive_s;

		b->head = r->next;
		if (!b->head)
			b->tail = NULL;
		b->pending--;
		d->st.bank_busy_s += r->done_s - r->start_s;
		if (--d->busy == 0)
			d->st.busy_s += r->done_s - d->busy_since;
		if (b->head)
			start(d, b->head, r->done_s);
		if (r->write)
			d->st.writes++;
		else
			d->st.reads++;
		d->st.bytes += d->cfg.line_bytes;
		d->st.latency_sum_s += lat;
		if (lat > d->st.latency_max_s)
			d->st.latency_max_s = lat;
		done(arg, r);
	}
}

void memdev_stats(const struct memdev *d, double now, struct memdev_stats *s)
{
	if (d->ddr) {
		ddr_stats(d->ddr, now, s);
		return;
	}
	*s = d->st;
	if (d->busy)
		s->busy_s += now - d->busy_since;
}

bool memdev_will_accept(const struct memdev *d, long addr, int blocks)
{
	return d->ddr ? ddr_will_accept(d->ddr, addr, blocks) : memdev_bank_of(d, addr) >= 0;
}

long memdev_ddr_address(const struct memdev *d, int ch, int rk, int bank, int row, int block)
{
	return d->ddr ? ddr_address(d->ddr, ch, rk, bank, row, block) : -1;
}
