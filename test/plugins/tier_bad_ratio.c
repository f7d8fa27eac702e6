/* SPDX-License-Identifier: MIT */
/* A tier plugin whose split ratio is out of [0, 1]: the host must stop. */
#include <dlasim/tier.h>

static double place(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	return 1.5;
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.place = place,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "bad_ratio",
	.description = "returns a split ratio of 1.5",
	.ops = &ops,
};
