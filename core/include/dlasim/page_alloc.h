/* SPDX-License-Identifier: MIT */
/* Page-allocation plugins (DLASIM_KIND_PAGE_ALLOC). */
#ifndef DLASIM_PAGE_ALLOC_H
#define DLASIM_PAGE_ALLOC_H

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_PAGE_OPS_VERSION 1u

struct dlasim_page_ops {
	size_t size;	/* sizeof(struct dlasim_page_ops) of the plugin */
};

struct dlasim_page_services {
	size_t size;
};

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_PAGE_ALLOC_H */
