/* SPDX-License-Identifier: MIT */
/* A broken page-allocation plugin: writes to an unmapped address in place(). */
#include <stdint.h>

#include <dlasim/page_alloc.h>

static volatile uintptr_t unmapped = 16;	/* read at run time: no folding */

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	/* An unmapped page, not NULL: a sanitizer would report a null store
	 * before it faults. */
	volatile int *nowhere = (volatile int *)unmapped;

	(void)host;
	(void)ans;
	*nowhere = (int)req->pages;
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
