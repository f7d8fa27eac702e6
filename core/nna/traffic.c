/* SPDX-License-Identifier: MIT */
/* Exact DRAM traffic of a schedule (docs/nna.md, "Traffic"). */
#include "traffic.h"

#include <string.h>

struct counter {
	const struct nna_tiles *x;
	double bytes, blocks;
};

static void count_piece(const struct nna_piece *p, void *arg)
{
	struct counter *c = arg;

	c->bytes += (double)p->bytes;
	c->blocks += (double)nna_piece_blocks(c->x, p);
}

static void add(struct nna_traffic *to, const struct nna_traffic *t)
{
	to->weight_bytes += t->weight_bytes;
	to->ifmap_bytes += t->ifmap_bytes;
	to->skip_bytes += t->skip_bytes;
	to->write_bytes += t->write_bytes;
	to->read_blocks += t->read_blocks;
	to->write_blocks += t->write_blocks;
}

static void count_layer(const struct nna_tiles *x, const struct nna_schedule *s, int i,
			struct nna_traffic *t)
{
	const struct nna_layer *l = &x->net->layer[i];

	for (long k = s->first[i]; k < s->first[i + 1]; k++) {
		const int *at = s->step[k].at;
		struct counter c = { x, 0, 0 };

		if (s->flags[k] & NNA_READ_WEIGHT) {
			long bytes = x->d[nna_weight_dtile(x, i, at)].bytes;

			t->weight_bytes += (double)bytes;
			t->read_blocks += (double)nna_blocks(x, bytes);
		}
		if (s->flags[k] & NNA_READ_IFMAP) {
			nna_ifmap_pieces(x, i, nna_ifmap_group(x, i, at), at[DLASIM_LOOP_Y],
					 count_piece, &c);
			t->ifmap_bytes += c.bytes;
			t->read_blocks += c.blocks;
		}
		if (!(s->flags[k] & NNA_FINAL))
			continue;
		if (l->skip >= 0) {
			c = (struct counter){ x, 0, 0 };
			nna_skip_pieces(x, i, at[DLASIM_LOOP_K], at[DLASIM_LOOP_Y], count_piece, &c);
			t->skip_bytes += c.bytes;
			t->read_blocks += c.blocks;
		}
		long out = x->d[nna_ofmap_dtile(x, i, at[DLASIM_LOOP_K], at[DLASIM_LOOP_Y])].bytes;

		t->write_bytes += (double)out;
		t->write_blocks += (double)nna_blocks(x, out);
	}
}

void nna_traffic_count(const struct nna_tiles *x, const struct nna_schedule *s,
		       struct nna_traffic *per_layer, struct nna_traffic *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (int i = 0; i < x->net->nlayers; i++) {
		count_layer(x, s, i, &per_layer[i]);
		add(sum, &per_layer[i]);
	}
}

static double dtile_bytes(const struct nna_tiles *x, bool fmap)
{
	double b = 0;

	for (long d = 0; d < x->ndtiles; d++)
		if ((x->d[d].kind == DLASIM_DTILE_FMAP) == fmap)
			b += (double)x->d[d].bytes;
	return b;
}

double nna_load_bytes(const struct nna_tiles *x)
{
	return dtile_bytes(x, false);
}

double nna_fmap_bytes(const struct nna_tiles *x)
{
	return dtile_bytes(x, true);
}
