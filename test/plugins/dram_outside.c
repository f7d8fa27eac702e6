/* SPDX-License-Identifier: MIT */
/* A placement plugin that puts DTiles one row past the last: the host must stop. */
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
	const struct dlasim_dram_geometry *g = svc->geometry(ctx);

	ext[0] = (struct dlasim_dram_extent){ 0, 0, 0, g->rows, 0, (int)t->blocks };
	*n = 1;
	return DLASIM_OK;
}

static const struct dlasim_dram_ops ops = { .size = sizeof(ops), .place = place };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DRAM_PLACEMENT,
	.ops_version = DLASIM_DRAM_OPS_VERSION,
	.name = "outside",
	.description = "places past the last row",
	.init = init,
	.ops = &ops,
};
