/* SPDX-License-Identifier: MIT */
/* The baseline: a 32 GB HBM-only chip; nothing to place, nothing moves. */
#include <dlasim/tier.h>

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HBM_ONLY,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "hbm_only",
	.description = "HBM-only baseline: the whole address space in tier 1",
	.ops = &ops,
};
