/* SPDX-License-Identifier: MIT */
/*
 * bw_aware: an allocation is cut into as many page-aligned chunks of equal
 * size (within one page) as the device has shares, and chunk k goes to
 * share k: on an MC-DLA ring, half to the memory-node on the left and half
 * to the one on the right, so a transfer uses every link of the device at
 * once, Latency = (D/2) / (N*B/2) (Figure 10, BW_AWARE).
 */
#include <dlasim/page_alloc.h>

static int bw_place(void *state, const struct dlasim_host_api *host,
		    const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	int n = req->nshares < ans->max_extents ? req->nshares : ans->max_extents;

	(void)state;
	ans->nextents = 0;
	for (int s = 0; s < n; s++) {
		/* Earlier shares take the extra page of an odd count. */
		long pages = req->pages / n + (s < req->pages % n);
		long first;

		if (pages == 0)
			continue;
		first = host->page->first_free(req, ans, s, pages);
		if (first < 0) {
			host->log(DLASIM_LOG_ERROR, "bw_aware",
				  "device %d: share %s has no run of %ld free pages",
				  req->device, req->share[s].host, pages);
			return DLASIM_ERR;
		}
		ans->extent[ans->nextents++] = (struct dlasim_page_extent){ s, first, pages };
	}
	return DLASIM_OK;
}

static const struct dlasim_page_ops bw_ops = {
	.size = sizeof(struct dlasim_page_ops),
	.place = bw_place,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PAGE_ALLOC,
	.ops_version = DLASIM_PAGE_OPS_VERSION,
	.name = "bw_aware",
	.description = "allocation split evenly over the left and right memory shares (Figure 10, BW_AWARE)",
	.ops = &bw_ops,
};
