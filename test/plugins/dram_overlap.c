/* SPDX-License-Identifier: MIT */
/* A placement plugin that puts every DTile at the start of bank 0: the
 * second one overlaps the first, and the host must stop. */
#include <dlasim/dram_placement.h>

static const struct dlasim_dram_services *svc;

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
		ext[*n] = (struct dlasim_dram_extent){ 0, 0, 0, *n, 0,
						       left < per_row ? (int)left : per_row };
		left -= ext[*n].blocks;
	}
	return DLASIM_OK;
}

static const struct dlasim_dram_ops ops = { .size = sizeof(ops), .place = place };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DRAM_PLACEMENT,
	.ops_version = DLASIM_DRAM_OPS_VERSION,
	.name = "overlap",
	.description = "every DTile from row 0 of bank 0",
	.init = init,
	.ops = &ops,
};
