/* SPDX-License-Identifier: MIT */
/*
 * A page-allocation plugin that places like `local` but logs an error on
 * its first allocation and goes on: a reason no failure takes must still
 * reach the user, once, as the plugin gave it.
 */
#include <dlasim/page_alloc.h>

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	static int calls;

	(void)state;
	if (!calls++)
		host->log(DLASIM_LOG_ERROR, "grumble", "device %d: not a real error", req->device);
	for (int s = 0; s < req->nshares; s++) {
		long first = host->page->first_free(req, ans, s, req->pages);

		if (first < 0)
			continue;
		ans->extent[0] = (struct dlasim_page_extent){ s, first, req->pages };
		ans->nextents = 1;
		return DLASIM_OK;
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
	.name = "grumble",
	.description = "places like local, logging one error-level line and going on",
	.ops = &ops,
};
