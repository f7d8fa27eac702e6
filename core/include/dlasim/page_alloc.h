/* SPDX-License-Identifier: MIT */
/*
 * Page-allocation plugins (DLASIM_KIND_PAGE_ALLOC).
 *
 * A device's backing store is made of one or more shares: the memory-node
 * halves a device owns (its left and right neighbours on an MC-DLA ring),
 * a whole memory-node, or a CPU socket's memory.  Each share is an array
 * of pages numbered from 0.  When the device driver allocates D bytes of
 * remote memory (cudaMallocRemote), it asks the plugin where the
 * ceil(D / page) pages go; the plugin answers with extents (runs of
 * consecutive pages in one share).  Every later transfer of that buffer
 * moves, to or from each share, the bytes of the pages the buffer has
 * there, all shares at once.
 *
 * The host checks every answer before using it and stops the simulation
 * with a message naming the plugin if an extent names a share that does
 * not exist, runs past a share's capacity, overlaps pages already in use
 * or another extent of the same answer, or if the extents do not map
 * exactly the requested number of pages.
 *
 * place() runs inside the device driver's actor and may use the host's
 * now(); it must not block.
 */
#ifndef DLASIM_PAGE_ALLOC_H
#define DLASIM_PAGE_ALLOC_H

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_PAGE_OPS_VERSION 1u

/* One share of a device's backing store, as the plugin sees it. */
struct dlasim_page_share {
	const char *host;		/* host serving it, e.g. "m3.0" or "cpu0" */
	const char *memory_node;	/* memory-node it belongs to, or the host */
	long capacity_pages;		/* pages it can hold */
	long used_pages;		/* pages currently allocated in it */
	double bandwidth_Bps;		/* route bottleneck from the device */
};

/* One remote allocation. */
struct dlasim_page_request {
	size_t size;			/* sizeof(struct dlasim_page_request) */
	int device;			/* rank of the allocating device */
	double bytes;			/* D, > 0 */
	double page_bytes;		/* page size */
	long pages;			/* ceil(D / page_bytes): pages to map */
	int nshares;
	const struct dlasim_page_share *share;	/* [nshares], in the order of
						 * the device's dlasim.backing
						 * property (left first) */
};

/* Pages [first, first + pages) of share `share`. */
struct dlasim_page_extent {
	int share;
	long first;
	long pages;
};

/* Filled by place(): extents in the order the buffer's pages are mapped. */
struct dlasim_page_answer {
	size_t size;			/* sizeof(struct dlasim_page_answer) */
	int max_extents;		/* room in extent[] */
	int nextents;			/* written by the plugin */
	struct dlasim_page_extent *extent;
};

struct dlasim_page_ops {
	size_t size;	/* sizeof(struct dlasim_page_ops) of the plugin */
	/* Map req->pages pages, using host->page services; return
	 * DLASIM_OK or DLASIM_ERR (after logging why, e.g. every share is
	 * full). */
	int (*place)(void *state, const struct dlasim_host_api *host,
		     const struct dlasim_page_request *req, struct dlasim_page_answer *ans);
	/* Optional: the allocation `ans` has been freed. */
	void (*release)(void *state, const struct dlasim_host_api *host,
			const struct dlasim_page_request *req,
			const struct dlasim_page_answer *ans);
};

struct dlasim_page_services {
	size_t size;
	/*
	 * First page of a free run of `pages` pages in share `share` that
	 * overlaps neither live allocations nor the extents already in
	 * `ans`; -1 if there is none (or `share` does not exist).  `req` must
	 * be the request handed to place().
	 */
	long (*first_free)(const struct dlasim_page_request *req,
			   const struct dlasim_page_answer *ans, int share,
			   long pages);
};

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_PAGE_ALLOC_H */
