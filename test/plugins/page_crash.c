/* SPDX-License-Identifier: MIT */
/* A broken page-allocation plugin: dereferences a null pointer in place(). */
#include <dlasim/page_alloc.h>

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	volatile int *nowhere = (volatile int *)state;

	(void)host;
	(void)ans;
	*nowhere = (int)req->pages;	/* state is NULL: no init() */
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
	.name = "crash",
	.description = "crashes (SIGSEGV) in place()",
	.ops = &ops,
};
