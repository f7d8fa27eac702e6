/* A collective plugin built for a future ABI: must be refused by version. */
#include <dlasim/coll.h>

static const struct dlasim_coll_ops ops = { .size = sizeof(ops) };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION + 1,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "future",
	.description = "built for the next ABI",
	.ops = &ops,
};
