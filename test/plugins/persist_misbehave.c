/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose, one way per option break=...:
 *   home      writes a line in place before the commit without a log (I1)
 *   overfill  puts lines into the ADR past its capacity (I5)
 *   unplaced  takes a line without placing it anywhere (I6)
 *   early     commits before tx_end (I4)
 *   volatile  commits with a line still in the staging buffer (I4)
 *   never     never commits (the run ends in a deadlock)
 * Otherwise it behaves: every line in the ADR, commit at tx_end.
 */
#include <dlasim/persist.h>

static const struct dlasim_persist_services *pm;
static char mode[16];

static unsigned features(void *st)
{
	return DLASIM_PM_USES_STAGE;
}

static int on_write(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k)
{
	if (!strcmp(mode, "unplaced"))
		return DLASIM_OK;
	if (!strcmp(mode, "volatile"))
		return pm->place(ctx, tx, k, DLASIM_PM_STAGE);
	if (strcmp(mode, "overfill") &&
	    pm->used(ctx, DLASIM_PM_ADR, -1) >= pm->capacity(ctx, DLASIM_PM_ADR))
		return DLASIM_PM_WAIT;
	if (pm->place(ctx, tx, k, DLASIM_PM_ADR))
		return DLASIM_ERR;
	if (!strcmp(mode, "home"))
		return pm->home_write(ctx, tx, k);
	if (!strcmp(mode, "early"))
		return pm->commit(ctx, tx);
	return DLASIM_OK;
}

static int on_tx_end(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	return strcmp(mode, "never") ? pm->commit(ctx, tx) : DLASIM_OK;
}

static int init(const struct dlasim_host_api *host, const char *options, void **state, char *err,
		size_t errlen)
{
	char key[16];

	if (!(pm = dlasim_pm_services(host, err, errlen)))
		return DLASIM_ERR;
	if (host->next_option(&options, key, sizeof(key), mode, sizeof(mode)) <= 0 ||
	    strcmp(key, "break")) {
		snprintf(err, errlen, "give break=MODE");
		return DLASIM_ERR;
	}
	return DLASIM_OK;
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
	.name = "misbehave",
	.description = "test: breaks one crash-consistency invariant, chosen by break=",
	.init = init,
	.ops = &ops,
};
