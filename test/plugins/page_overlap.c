/* SPDX-License-Identifier: MIT */
/* A broken page-allocation plugin: every allocation starts at page 0 of
 * share 0, so the second one overlaps the first. */
#include <dlasim/page_alloc.h>

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	(void)state;
	ans->extent[0] = (struct dlasim_page_extent){ 0, 0, req->pages };
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
	.name = "overlap",
	.description = "maps every allocation to the same pages",
	.ops = &ops,
};
