/* SPDX-License-Identifier: MIT */
/*
 * A page-allocation plugin that places like `local` but logs a long
 * warning on every allocation: runs of a study in parallel must pass such
 * lines on whole, never mixed with each other's.
 */
#include <string.h>

#include <dlasim/page_alloc.h>

#define LONG_LINE 3000

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	char filler[LONG_LINE + 1];

	(void)state;
	memset(filler, 'x', LONG_LINE);
	filler[LONG_LINE] = '\0';
	host->log(DLASIM_LOG_WARNING, "chatty", "device %d <%s> end", req->device, filler);
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
	.name = "chatty",
	.description = "places like local, logging a 3000-character warning each time",
	.ops = &ops,
};
