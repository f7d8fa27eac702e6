/* SPDX-License-Identifier: MIT */
/* A broken page-allocation plugin: maps every allocation to a memory share
 * the device does not have. */
#include <dlasim/page_alloc.h>

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	(void)state;
	ans->extent[0] = (struct dlasim_page_extent){ req->nshares + 5, 0, req->pages };
	ans->nextents = 1;
	return DLASIM_OK;
}

static const struct dlasim_page_ops ops = {
	.size = sizeof(struct dlasim_page_ops),
	.place = place,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PAGE_ALLOC,
	.ops_version = DLASIM_PAGE_OPS_VERSION,
	.name = "bad_node",
	.description = "answers a memory share that does not exist",
	.ops = &ops,
};
