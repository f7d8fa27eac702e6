/* SPDX-License-Identifier: MIT */
/*
 * A placement plugin that places as ROMA does (its host's default order
 * aside) but whose next_bank() always picks the write list of the last
 * bank, empty while the model's first reads wait: the host must stop.
 * Option `short=1` instead gives every DTile one block too few.
 */
#include <string.h>

#include <dlasim/dram_placement.h>

static const struct dlasim_dram_services *svc;
static long cursor;
static int short_by;

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	svc = host->dram;
	short_by = options && strcmp(options, "short=1") == 0;
	return DLASIM_OK;
}

/* Back to back over the banks of channel 0, rank 0. */
static int place(void *state, struct dlasim_dram_ctx *ctx, const struct dlasim_dtile *t,
		 struct dlasim_dram_extent *ext, int max, int *n)
{
	const struct dlasim_dram_geometry *g = svc->geometry(ctx);
	long left = t->blocks - short_by;

	for (*n = 0; left > 0 && *n < max; (*n)++) {
		long row = cursor / (g->blocks_per_row * g->banks);
		int bank = (int)(cursor / g->blocks_per_row % g->banks);
		int col = (int)(cursor % g->blocks_per_row);

		ext[*n] = (struct dlasim_dram_extent){ 0, 0, bank, (int)row, col,
						       (int)(g->blocks_per_row - col < left ?
							     g->blocks_per_row - col : left) };
		left -= ext[*n].blocks;
		cursor += ext[*n].blocks;
	}
	return DLASIM_OK;
}

static int next_bank(void *state, struct dlasim_dram_ctx *ctx, struct dlasim_dram_pick *pick)
{
	const struct dlasim_dram_geometry *g = svc->geometry(ctx);

	*pick = (struct dlasim_dram_pick){ g->channels - 1, g->ranks - 1, g->banks - 1, true };
	return DLASIM_OK;
}

static const struct dlasim_dram_ops ops = {
	.size = sizeof(ops),
	.place = place,
	.next_bank = next_bank,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DRAM_PLACEMENT,
	.ops_version = DLASIM_DRAM_OPS_VERSION,
	.name = "bad_pick",
	.description = "picks an empty list",
	.init = init,
	.ops = &ops,
};
