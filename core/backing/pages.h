/* SPDX-License-Identifier: MIT */
/*
 * Host side of the page-allocation plugin kind (<dlasim/page_alloc.h>):
 * the shares of every device's backing store, their occupancy, and the
 * check of every answer a plugin gives (docs/page-allocation.md).
 */
#ifndef BK_PAGES_H
#define BK_PAGES_H

#include <dlasim/page_alloc.h>

#include "machine/platform.h"

/* A host serving backing memory (memory-node half, memory-node, socket). */
struct bk_store {
	int host;		/* platform host index */
	const char *memory_node;
	long capacity_pages;
	long *first, *count;	/* live runs, sorted by first page */
	int nruns, cap;
	int packed;		/* runs [0, packed) fill pages from 0 without a gap */
	long used_pages;
};

struct bk_pages {
	struct dl_plugin *plugin;
	const struct dlasim_page_ops *ops;
	struct dl_platform *p;
	double page_bytes;
	struct bk_store *store;
	int nstores;
	int **dev_store;	/* per rank: store index of each share */
	int *dev_nshares;
};

/* An allocation: its pages, and the bytes each share holds. */
struct bk_alloc {
	struct dlasim_page_extent *extent;
	int nextents;
	double *share_bytes;	/* [nshares of the device] */
	int rank;
	double bytes;
};

/* Read every device's dlasim.backing, then load plugin `spec`. */
int bk_pages_open(struct bk_pages **out, struct dl_platform *p, const char *spec,
		  const char *option, double page_bytes);
void bk_pages_close(struct bk_pages *pg);
/* Before any platform is read: is `spec` a page-allocation plugin dlasim
 * can load?  0, or -1 after a message. */
int bk_pages_check(const char *spec, const char *option);

/* Inside an actor: allocate `bytes` of rank's backing store.  A plugin
 * failure or a bad answer is reported and stops the simulation. */
struct bk_alloc *bk_pages_alloc(struct bk_pages *pg, int rank, double bytes);
void bk_pages_free(struct bk_pages *pg, struct bk_alloc *a);

#endif
