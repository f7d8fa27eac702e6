/* SPDX-License-Identifier: MIT */
/*
 * local: every page of an allocation in one share, the first one (in the
 * device's dlasim.backing order) with a free run large enough; named after
 * Linux's local NUMA allocation (Figure 10, LOCAL).  A transfer then uses
 * only the links to that share: Latency = D / (N*B/2) on an MC-DLA ring.
 */
#include <dlasim/page_alloc.h>

static int local_place(void *state, const struct dlasim_host_api *host,
		       const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	(void)state;
	for (int s = 0; s < req->nshares; s++) {
		long first = host->page->first_free(req, ans, s, req->pages);

		if (first < 0)
			continue;
		ans->extent[0] = (struct dlasim_page_extent){ s, first, req->pages };
		ans->nextents = 1;
		return DLASIM_OK;
	}
	host->log(DLASIM_LOG_ERROR, "local", "device %d: no share has %ld free pages",
		  req->device, req->pages);
	return DLASIM_ERR;
}

static const struct dlasim_page_ops local_ops = {
	.size = sizeof(struct dlasim_page_ops),
	.place = local_place,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PAGE_ALLOC,
	.ops_version = DLASIM_PAGE_OPS_VERSION,
	.name = "local",
	.description = "all pages of an allocation in one memory share (Figure 10, LOCAL)",
	.ops = &local_ops,
};
