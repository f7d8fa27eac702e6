/* SPDX-License-Identifier: MIT */
/*
 * lad_rdlog: LAD whose fallback is a redo log with a DRAM cache
 * (LAD-RdLog, dissertation section 3.5); the policy is
 * <dlasim/persist_lad.h>.
 */
#include <dlasim/persist_lad.h>

static int lad_rdlog_init(const struct dlasim_host_api *host, const char *options, void **state,
			  char *err, size_t errlen)
{
	return dlasim_lad_init(host, options, state, err, errlen, DLASIM_PM_REDO);
}

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PERSIST,
	.ops_version = DLASIM_PERSIST_OPS_VERSION,
	.name = "lad_rdlog",
	.description = "LAD-RdLog: logless in the ADR, redo logging with a DRAM cache above 80 % of it",
	.init = lad_rdlog_init,
	.fini = dlasim_lad_fini,
	.ops = &dlasim_lad_ops,
};
