/* A page-allocation plugin, offered where a collective is expected. */
#include <dlasim/plugin.h>

static const struct { size_t size; } ops = { sizeof(ops) };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PAGE_ALLOC,
	.ops_version = 1,
	.name = "pages",
	.description = "not a collective",
	.ops = &ops,
};
