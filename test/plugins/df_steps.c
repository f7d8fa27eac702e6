/* SPDX-License-Identifier: MIT */
/*
 * A dataflow plugin that gives its steps one by one (next_step) in DWS's
 * order, k, y, r, s, f, from the host's tile counts.  It must cost exactly
 * what the ws plugin costs.  Option `skip=1` leaves out the last step of
 * every layer, `repeat=1` gives the first step twice: the host must stop.
 */
#include <stdlib.h>
#include <string.h>

#include <dlasim/dataflow.h>

struct walk {
	const struct dlasim_dataflow_services *svc;
	int layer;		/* the layer `at` belongs to, -1 before the first */
	int at[DLASIM_LOOPS];
	bool started, skip, repeat;
};

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	struct walk *w = calloc(1, sizeof(*w));

	if (!w || !DLASIM_HAS_MEMBER(host, struct dlasim_host_api, dataflow) || !host->dataflow) {
		free(w);
		strncpy(err, "no dataflow services", errlen - 1);
		return DLASIM_ERR;
	}
	w->svc = host->dataflow;
	w->layer = -1;
	w->skip = options && strcmp(options, "skip=1") == 0;
	w->repeat = options && strcmp(options, "repeat=1") == 0;
	*state = w;
	return DLASIM_OK;
}

static void fini(void *state)
{
	free(state);
}

/* Loops in DWS's order, outermost first. */
static const enum dlasim_df_loop nest[DLASIM_LOOPS] = {
	DLASIM_LOOP_K, DLASIM_LOOP_Y, DLASIM_LOOP_R, DLASIM_LOOP_S, DLASIM_LOOP_F
};

static int next_step(void *state, struct dlasim_df_ctx *ctx, struct dlasim_df_step *step)
{
	struct walk *w = state;
	const struct dlasim_df_tiles *t = w->svc->tiles(ctx);
	int i;

	if (w->svc->layer(ctx)->index != w->layer) {
		w->layer = w->svc->layer(ctx)->index;
		memset(w->at, 0, sizeof(w->at));
		w->started = false;
	} else if (w->repeat && w->started) {
		w->repeat = false;	/* the first step once more */
		memcpy(step->at, w->at, sizeof(w->at));
		return 1;
	} else if (w->started) {
		for (i = DLASIM_LOOPS - 1; i >= 0; i--) {
			if (++w->at[nest[i]] < t->n[nest[i]])
				break;
			w->at[nest[i]] = 0;
		}
		if (i < 0)
			return 0;
	}
	if (w->skip) {
		for (i = 0; i < DLASIM_LOOPS && w->at[nest[i]] == t->n[nest[i]] - 1; i++)
			;
		if (i == DLASIM_LOOPS)
			return 0;
	}
	w->started = true;
	memcpy(step->at, w->at, sizeof(w->at));
	return 1;
}

static const struct dlasim_dataflow_ops ops = { .size = sizeof(ops), .next_step = next_step };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DATAFLOW,
	.ops_version = DLASIM_DATAFLOW_OPS_VERSION,
	.name = "steps",
	.description = "DWS's order given step by step",
	.init = init,
	.fini = fini,
	.ops = &ops,
};
