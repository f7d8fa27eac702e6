/* SPDX-License-Identifier: MIT */
/*
 * A third page-allocation policy written outside dlasim's core, as a user
 * would: every allocation in the last share that has room (on an MC-DLA
 * ring, the memory-node on the device's right), using only the public
 * header and the host's services.
 */
#include <dlasim/page_alloc.h>

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	(void)state;
	for (int s = req->nshares - 1; s >= 0; s--) {
		long first = host->page->first_free(req, ans, s, req->pages);

		if (first >= 0) {
			ans->extent[0] = (struct dlasim_page_extent){ s, first, req->pages };
			ans->nextents = 1;
			return DLASIM_OK;
		}
	}
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
	.name = "last",
	.description = "all pages in the last share with room",
	.ops = &ops,
};
