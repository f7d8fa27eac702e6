/* SPDX-License-Identifier: MIT */
/* A broken page-allocation plugin: place() never returns. */
#include <dlasim/page_alloc.h>

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	volatile long spin = 0;

	(void)state;
	(void)host;
	(void)req;
	(void)ans;
	for (;;)
		spin++;
	return DLASIM_ERR;
}

static const struct dlasim_page_ops ops = {
	.size = sizeof(struct dlasim_page_ops),
	.place = place,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PAGE_ALLOC,
	.ops_version = DLASIM_PAGE_OPS_VERSION,
	.name = "hang",
	.description = "never returns from place()",
	.ops = &ops,
};
