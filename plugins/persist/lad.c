/* SPDX-License-Identifier: MIT */
/*
 * lad: LAD with undo logging when the ADR runs short (the baseline of the
 * dissertation's Chapters 3 and 4); the policy is <dlasim/persist_lad.h>.
 */
#include <dlasim/persist_lad.h>

static int lad_init(const struct dlasim_host_api *host, const char *options, void **state,
		    char *err, size_t errlen)
{
	return dlasim_lad_init(host, options, state, err, errlen, DLASIM_PM_UNDO);
}

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PERSIST,
	.ops_version = DLASIM_PERSIST_OPS_VERSION,
	.name = "lad",
	.description = "LAD: logless in the ADR, undo logging above 80 % of it",
	.init = lad_init,
	.fini = dlasim_lad_fini,
	.ops = &dlasim_lad_ops,
};
