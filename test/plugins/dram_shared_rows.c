/* SPDX-License-Identifier: MIT */
/* A placement plugin that declares a row per rowTask (LAP's contract) but
 * packs DTiles back to back in rows they share: the host must stop. */
#include <dlasim/dram_placement.h>

static const struct dlasim_dram_services *svc;
static long cursor;

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	svc = host->dram;
	return DLASIM_OK;
}

static int place(void *state, struct dlasim_dram_ctx *ctx, const struct dlasim_dtile *t,
		 struct dlasim_dram_extent *ext, int max, int *n)
{
	int per_row = svc->geometry(ctx)->blocks_per_row;
	long left = t->blocks;

	for (*n = 0; left > 0 && *n < max; (*n)++) {
		int col = (int)(cursor % per_row);

		ext[*n] = (struct dlasim_dram_extent){ 0, 0, 0, (int)(cursor / per_row), col,
						       per_row - col < left ? per_row - col : (int)left };
		left -= ext[*n].blocks;
		cursor += ext[*n].blocks;
	}
	return DLASIM_OK;
}

static const struct dlasim_dram_ops ops = {
	.size = sizeof(ops),
	.flags = DLASIM_DRAM_ROW_PER_ROWTASK,
	.place = place,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DRAM_PLACEMENT,
	.ops_version = DLASIM_DRAM_OPS_VERSION,
	.name = "shared_rows",
	.description = "declares a row per rowTask, shares rows",
	.init = init,
	.ops = &ops,
};
