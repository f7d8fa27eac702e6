/* SPDX-License-Identifier: MIT */
/*
 * A page-allocation plugin that places like `local` and logs: a long
 * warning on every allocation (runs of a study in parallel must pass such
 * lines on whole, never mixed with each other's), or with option "error"
 * one error-level line on its first allocation, after which it goes on (a
 * reason no failure takes must still reach the user, once, as given).
 */
#include <stdbool.h>
#include <string.h>

#include <dlasim/page_alloc.h>

#define LONG_LINE 3000

static int place(void *state, const struct dlasim_host_api *host,
		 const struct dlasim_page_request *req, struct dlasim_page_answer *ans)
{
	bool *error_once = state;
	char filler[LONG_LINE + 1];

	if (*error_once) {
		host->log(DLASIM_LOG_ERROR, "chatty", "device %d: not a real error", req->device);
		*error_once = false;
	} else if (!error_once[1]) {
		memset(filler, 'x', LONG_LINE);
		filler[LONG_LINE] = '\0';
		host->log(DLASIM_LOG_WARNING, "chatty", "device %d <%s> end", req->device, filler);
	}
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

/* state[0]: the error is still to be logged; state[1]: the "error" mode. */
static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	static bool mode[2];

	(void)host;
	(void)err;
	(void)errlen;
	mode[0] = mode[1] = options && strcmp(options, "error") == 0;
	*state = mode;
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
	.name = "chatty",
	.description = "places like local, logging a 3000-character warning each time (or, with ':error', one error line)",
	.init = init,
	.ops = &ops,
};
