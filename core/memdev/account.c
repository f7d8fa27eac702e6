/* SPDX-License-Identifier: MIT */
/*
 * The accounting both kinds of device share: requests outstanding per bank
 * and channel, busy time, latency, and the device-wide busy time as the
 * union of the channels' busy intervals, merged as the channels advance so
 * that memory does not grow with the length of a run.
 */
#include <stdlib.h>
#include <string.h>

#include "chan.h"

/* Keep at most this many closed busy intervals per channel before merging. */
#define IV_MERGE 1024

void md_busy_start(struct md_chan *c, int bank, int64_t t)
{
	struct memdev *d = c->d;

	if (d->bank_out[bank]++ == 0)
		d->bank_since[bank] = t;
	if (c->out++ == 0)
		c->since = t;
}

/* ---- busy intervals and their union ---- */

static void iv_push(struct md_chan *c, int64_t s, int64_t e)
{
	struct md_intervals *iv = &c->iv;

	if (iv->n == iv->cap) {
		int cap = iv->cap ? 2 * iv->cap : 64;
		int64_t (*v)[2] = malloc(cap * sizeof(*v));

		if (!v)
			return;	/* the union then undercounts; never seen in practice */
		for (int i = 0; i < iv->n; i++)
			memcpy(v[i], iv->v[(iv->head + i) % iv->cap], sizeof(v[i]));
		free(iv->v);
		iv->v = v;
		iv->cap = cap;
		iv->head = 0;
	}
	iv->v[(iv->head + iv->n) % iv->cap][0] = s;
	iv->v[(iv->head + iv->n) % iv->cap][1] = e;
	iv->n++;
}

/* How far each channel's busy state is known: a busy channel up to where
 * it was advanced, an idle one up to the latest time any caller used (no
 * request can arrive before that). */
static int64_t known_until(const struct memdev *d, const struct md_chan *c)
{
	if (c->out)
		return c->clk;
	return c->clk > d->last_cyc ? c->clk : d->last_cyc;
}

/* Add to d->union_busy the union of the channels' busy time in
 * [union_until, x), then forget the intervals that end before x. */
void md_merge_until(struct memdev *d, int64_t x)
{
	int64_t at = d->union_until, covered = at;
	int *pos = calloc(d->nch, sizeof(int));

	if (!pos || x <= at) {
		free(pos);
		return;
	}
	/* Sweep the intervals (and the open ones, cut at x) by start. */
	for (;;) {
		int best = -1;
		int64_t s = 0, e = 0;

		for (int i = 0; i < d->nch; i++) {
			struct md_chan *c = &d->ch[i];
			int64_t cs, ce;

			if (pos[i] < c->iv.n) {
				int k = (c->iv.head + pos[i]) % c->iv.cap;

				cs = c->iv.v[k][0];
				ce = c->iv.v[k][1];
			} else if (pos[i] == c->iv.n && c->out) {
				cs = c->since;
				ce = x;
			} else {
				continue;
			}
			if (best < 0 || cs < s) {
				best = i;
				s = cs;
				e = ce;
			}
		}
		if (best < 0 || s >= x)
			break;
		pos[best]++;
		if (e > x)
			e = x;
		if (s < covered)
			s = covered;
		if (e > s) {
			d->union_busy += e - s;
			covered = e;
		}
	}
	for (int i = 0; i < d->nch; i++) {
		struct md_intervals *iv = &d->ch[i].iv;

		while (iv->n && iv->v[iv->head][1] <= x) {
			iv->head = (iv->head + 1) % iv->cap;
			iv->n--;
		}
	}
	d->union_until = x;
	free(pos);
}

static void merge(struct memdev *d)
{
	int64_t x = MD_NEVER;

	for (int i = 0; i < d->nch; i++) {
		int64_t k = known_until(d, &d->ch[i]);

		if (k < x)
			x = k;
	}
	md_merge_until(d, x);
}

/* ---- completion ---- */

static int bucket(int64_t cycles)
{
	int k = 0;

	while (k < MEMDEV_HIST - 1 && cycles >= (1LL << k))
		k++;
	return k;
}

void md_complete(struct md_chan *c, struct memdev_req *r, int64_t t)
{
	struct memdev *d = c->d;
	int64_t lat = t - r->arrive_cyc;

	if (--d->bank_out[r->bank] == 0)
		d->bank_busy += t - d->bank_since[r->bank];
	if (--c->out == 0) {
		c->busy += t - c->since;
		iv_push(c, c->since, t);
		if (c->iv.n >= IV_MERGE)
			merge(d);
	}
	d->requests++;
	d->lat_sum += (double)lat;
	if (lat > d->lat_max)
		d->lat_max = lat;
	d->hist[bucket(lat)]++;
	r->done_s = t * d->cycle_s;
	if (d->done)
		d->done(d->done_arg, r);
}

