/* SPDX-License-Identifier: MIT */
/* The dataflow plugin's host: steps asked for, checked and annotated. */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

/* One layer being scheduled: what the plugin's callbacks see. */
struct dlasim_df_ctx {
	const struct nna_tiles *x;
	const struct dl_plugin *plugin;
	int index;
	struct dlasim_df_layer layer;
	struct dlasim_df_array array;
	struct dlasim_df_tiles tiles;
	unsigned char *seen;	/* per step of the layer */
	int *left;		/* contributions still to come per OFMAP tile */
	int open, max_open;
	long count;
	struct dlasim_df_step prev;
	struct nna_schedule *s;
};

/* ---- services ---- */

static const struct dlasim_df_layer *svc_layer(const struct dlasim_df_ctx *c)
{
	return &c->layer;
}

static const struct dlasim_df_array *svc_array(const struct dlasim_df_ctx *c)
{
	return &c->array;
}

static const struct dlasim_df_tiles *svc_tiles(const struct dlasim_df_ctx *c)
{
	return &c->tiles;
}

static bool in_range(const struct dlasim_df_ctx *c, const struct dlasim_df_step *st)
{
	for (int i = 0; i < DLASIM_LOOPS; i++)
		if (st->at[i] < 0 || st->at[i] >= c->tiles.n[i])
			return false;
	return true;
}

static double svc_weight_bytes(const struct dlasim_df_ctx *c, const struct dlasim_df_step *st)
{
	return in_range(c, st) ? (double)c->x->d[nna_weight_dtile(c->x, c->index, st->at)].bytes : 0;
}

static void ignore_piece(const struct nna_piece *p, void *arg)
{
}

static double svc_ifmap_bytes(const struct dlasim_df_ctx *c, const struct dlasim_df_step *st)
{
	if (!in_range(c, st))
		return 0;
	return (double)nna_ifmap_pieces(c->x, c->index, nna_ifmap_group(c->x, c->index, st->at),
					st->at[DLASIM_LOOP_Y], ignore_piece, NULL);
}

static bool same_ifmap(const struct dlasim_df_ctx *c, const struct dlasim_df_step *a,
		       const struct dlasim_df_step *b)
{
	return nna_ifmap_group(c->x, c->index, a->at) == nna_ifmap_group(c->x, c->index, b->at) &&
	       a->at[DLASIM_LOOP_Y] == b->at[DLASIM_LOOP_Y];
}

static bool svc_ifmap_on_chip(const struct dlasim_df_ctx *c, const struct dlasim_df_step *st)
{
	return c->count > 0 && in_range(c, st) && same_ifmap(c, &c->prev, st);
}

static int svc_contributions_left(const struct dlasim_df_ctx *c, int k, int y)
{
	if (k < 0 || k >= c->tiles.n[DLASIM_LOOP_K] || y < 0 || y >= c->tiles.n[DLASIM_LOOP_Y])
		return 0;
	return c->left[nna_ofmap_tile(c->x, c->index, k, y)];
}

const struct dlasim_dataflow_services nna_dataflow_services = {
	.size = sizeof(struct dlasim_dataflow_services),
	.layer = svc_layer,
	.array = svc_array,
	.tiles = svc_tiles,
	.weight_tile_bytes = svc_weight_bytes,
	.ifmap_tile_bytes = svc_ifmap_bytes,
	.ifmap_on_chip = svc_ifmap_on_chip,
	.contributions_left = svc_contributions_left,
};

bool nna_dataflow_ops_check(const void *p, const char **why)
{
	const struct dlasim_dataflow_ops *ops = p;

	if (ops->size < offsetof(struct dlasim_dataflow_ops, next_step)) {
		*why = "ops size too small";
		return false;
	}
	if (!ops->order && !(ops->size >= sizeof(*ops) && ops->next_step)) {
		*why = "neither order() nor next_step() is given";
		return false;
	}
	return true;
}

/* ---- checking and recording steps ---- */

static int layer_err(const struct dlasim_df_ctx *c, const char *fmt, const struct dlasim_df_step *st)
{
	char where[256];

	snprintf(where, sizeof(where), ", layer '%s'", c->layer.name);
	if (!st)
		return dl_plugin_err(c->plugin, where, "%s", fmt);
	return dl_plugin_err(c->plugin, where, "%s: step k=%d f=%d r=%d s=%d y=%d", fmt,
			     st->at[0], st->at[1], st->at[2], st->at[3], st->at[4]);
}

static long step_index(const struct dlasim_df_ctx *c, const struct dlasim_df_step *st)
{
	long i = 0;

	for (int k = 0; k < DLASIM_LOOPS; k++)
		i = i * c->tiles.n[k] + st->at[k];
	return i;
}

static int accept(struct dlasim_df_ctx *c, const struct dlasim_df_step *st)
{
	struct nna_schedule *s = c->s;
	long at = s->first[c->index] + c->count;
	int o;

	if (!in_range(c, st))
		return layer_err(c, "index out of range", st);
	if (c->seen[step_index(c, st)])
		return layer_err(c, "given twice", st);
	c->seen[step_index(c, st)] = 1;
	o = nna_ofmap_tile(c->x, c->index, st->at[DLASIM_LOOP_K], st->at[DLASIM_LOOP_Y]);
	if (c->left[o] == c->tiles.n[DLASIM_LOOP_F] * c->tiles.n[DLASIM_LOOP_R] *
			  c->tiles.n[DLASIM_LOOP_S] && ++c->open > c->max_open)
		c->max_open = c->open;
	if (--c->left[o] == 0)
		c->open--;
	s->step[at] = *st;
	s->flags[at] = 0;
	if (c->count == 0 || nna_weight_dtile(c->x, c->index, c->prev.at) !=
				     nna_weight_dtile(c->x, c->index, st->at))
		s->flags[at] |= NNA_READ_WEIGHT;
	if (c->count == 0 || !same_ifmap(c, &c->prev, st))
		s->flags[at] |= NNA_READ_IFMAP;
	if (c->left[o] == 0)
		s->flags[at] |= NNA_FINAL;
	c->prev = *st;
	c->count++;
	return 0;
}

static int check_perm(const struct dlasim_df_ctx *c, const enum dlasim_df_loop *perm)
{
	bool used[DLASIM_LOOPS] = { false };

	for (int i = 0; i < DLASIM_LOOPS; i++) {
		if ((unsigned)perm[i] >= DLASIM_LOOPS || used[perm[i]])
			return layer_err(c, "order() is not a permutation of the loops K, F, R, S, Y", NULL);
		used[perm[i]] = true;
	}
	return 0;
}

/* The loop nest of a permutation, outermost first. */
static int run_order(struct dlasim_df_ctx *c, const struct dlasim_dataflow_ops *ops)
{
	enum dlasim_df_loop perm[DLASIM_LOOPS];
	int idx[DLASIM_LOOPS] = { 0 };
	struct dlasim_df_step st;

	for (int i = 0; i < DLASIM_LOOPS; i++)
		perm[i] = DLASIM_LOOPS;
	if (ops->order(c->plugin->state, &c->layer, &c->array, &c->tiles, perm) != DLASIM_OK)
		return layer_err(c, "order() failed", NULL);
	if (check_perm(c, perm))
		return -1;
	for (;;) {
		int i;

		for (i = 0; i < DLASIM_LOOPS; i++)
			st.at[perm[i]] = idx[i];
		if (accept(c, &st))
			return -1;
		for (i = DLASIM_LOOPS - 1; i >= 0; i--) {
			if (++idx[i] < c->tiles.n[perm[i]])
				break;
			idx[i] = 0;
		}
		if (i < 0)
			return 0;
	}
}

static int run_steps(struct dlasim_df_ctx *c, const struct dlasim_dataflow_ops *ops)
{
	struct dlasim_df_step st;
	int rc;

	/* Past the last step, a step is either out of range or a repeat. */
	while ((rc = ops->next_step(c->plugin->state, c, &st)) == 1)
		if (accept(c, &st))
			return -1;
	return rc == 0 ? 0 : layer_err(c, "next_step() failed", NULL);
}

static void describe(struct dlasim_df_ctx *c, const struct nna_tiles *x, int i)
{
	const struct nna_layer *l = &x->net->layer[i];
	const struct nna_tiling *t = &x->t[i];

	c->layer = (struct dlasim_df_layer){ sizeof(c->layer), i, l->name, l->kind, l->H, l->W, l->C,
					     l->K, l->R, l->S, l->stride, l->pad, l->P, l->Q,
					     x->a.elem_bytes };
	c->array = (struct dlasim_df_array){ sizeof(c->array), x->a.size, x->a.size, x->a.spm_bytes };
	c->tiles.size = sizeof(c->tiles);
	memcpy(c->tiles.n, t->n, sizeof(t->n));
	c->tiles.band_rows = t->band_rows;
}

static int schedule_layer(struct nna_schedule *s, const struct nna_tiles *x,
			  const struct dl_plugin *plugin, int i)
{
	const struct dlasim_dataflow_ops *ops = plugin->desc->ops;
	const struct nna_tiling *t = &x->t[i];
	int ntiles = t->n[DLASIM_LOOP_K] * t->n[DLASIM_LOOP_Y];
	struct dlasim_df_ctx c = { .x = x, .plugin = plugin, .index = i, .s = s };
	int ret = -1;

	describe(&c, x, i);
	c.seen = calloc((size_t)t->nsteps, 1);
	c.left = malloc((size_t)ntiles * sizeof(*c.left));
	if (!c.seen || !c.left) {
		dl_err("out of memory");
		goto out;
	}
	for (int o = 0; o < ntiles; o++)
		c.left[o] = t->n[DLASIM_LOOP_F] * t->n[DLASIM_LOOP_R] * t->n[DLASIM_LOOP_S];
	if (ops->size >= sizeof(*ops) && ops->next_step ? run_steps(&c, ops) : run_order(&c, ops))
		goto out;
	if (c.count < t->nsteps) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%ld of its %d steps never given", t->nsteps - c.count,
			 t->nsteps);
		layer_err(&c, msg, NULL);
		goto out;
	}
	if (c.max_open * t->psum_bytes > t->budget_bytes) {
		char msg[256];

		snprintf(msg, sizeof(msg), "the order keeps %d partial-sum tiles of %.0f bytes open; the scratchpad has room for %.0f bytes of them",
			 c.max_open, t->psum_bytes, t->budget_bytes);
		layer_err(&c, msg, NULL);
		goto out;
	}
	s->max_open[i] = c.max_open;
	ret = 0;
out:
	free(c.seen);
	free(c.left);
	return ret;
}

int nna_schedule_build(struct nna_schedule *s, const struct nna_tiles *x,
		       const struct dl_plugin *plugin)
{
	int n = x->net->nlayers;

	memset(s, 0, sizeof(*s));
	s->first = malloc(((size_t)n + 1) * sizeof(*s->first));
	s->max_open = calloc((size_t)n, sizeof(*s->max_open));
	if (!s->first || !s->max_open)
		goto oom;
	s->first[0] = 0;
	for (int i = 0; i < n; i++)
		s->first[i + 1] = s->first[i] + x->t[i].nsteps;
	s->nsteps = s->first[n];
	s->step = malloc((size_t)s->nsteps * sizeof(*s->step));
	s->flags = malloc((size_t)s->nsteps);
	if (!s->step || !s->flags)
		goto oom;
	for (int i = 0; i < n; i++)
		if (schedule_layer(s, x, plugin, i))
			goto fail;
	return 0;
oom:
	dl_err("out of memory");
fail:
	nna_schedule_free(s);
	return -1;
}

void nna_schedule_free(struct nna_schedule *s)
{
	free(s->step);
	free(s->flags);
	free(s->first);
	free(s->max_open);
	memset(s, 0, sizeof(*s));
}
