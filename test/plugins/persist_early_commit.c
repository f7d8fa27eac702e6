/* SPDX-License-Identifier: MIT */
/* Broken on purpose: redo-logs every line but commits at tx_end, before the
 * log persists.  The host must stop it (I2), naming it and the transaction. */
#include <dlasim/persist.h>

static const struct dlasim_persist_services *pm;

static unsigned features(void *st)
{
	return DLASIM_PM_USES_LOGQ | DLASIM_PM_DRAM_CACHE;
}

static int on_write(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k)
{
	if (pm->used(ctx, DLASIM_PM_LOGQ, -1) >= pm->capacity(ctx, DLASIM_PM_LOGQ))
		return DLASIM_PM_WAIT;
	if (pm->place(ctx, tx, k, DLASIM_PM_LOGQ))
		return DLASIM_ERR;
	return pm->log(ctx, tx, k, DLASIM_PM_REDO);
}

static int on_tx_end(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	return pm->commit(ctx, tx);
}

static int init(const struct dlasim_host_api *host, const char *options, void **state, char *err,
		size_t errlen)
{
	return (pm = dlasim_pm_services(host, err, errlen)) ? DLASIM_OK : DLASIM_ERR;
}

static const struct dlasim_pm_ops ops = {
	.size = sizeof(ops),
	.features = features,
	.on_write = on_write,
	.on_tx_end = on_tx_end,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PERSIST,
	.ops_version = DLASIM_PERSIST_OPS_VERSION,
	.name = "early_commit",
	.description = "test: commits before its redo log persists",
	.init = init,
	.ops = &ops,
};
