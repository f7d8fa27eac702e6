/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the platform reader share (platform.c reads and
 * checks the elements; platform_roles.c, platform_rings.c and
 * platform_bind.c work on what it read).  Not for use outside
 * core/machine: platform.h is the interface.
 */
#ifndef DL_PLATFORM_PARTS_H
#define DL_PLATFORM_PARTS_H

#include <stddef.h>

struct dl_platform;
struct dl_props;

/* platform_props.c */
const char *dl_props_get(const struct dl_props *props, const char *key);
/* dl_grow(), said when memory runs out. */
int dl_platform_grow(void **v, int *cap, int need, size_t size);

/* platform_roles.c: "FILE:LINE: message" on the platform's file, -1. */
int dl_platform_file_fail(const struct dl_platform *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int dl_platform_assign_roles(struct dl_platform *p);
int dl_platform_read_nodes(struct dl_platform *p);

/* platform_devices.c: every device host's description is well formed. */
int dl_platform_check_devices(const struct dl_platform *p);

/* platform_rings.c */
int dl_platform_read_rings(struct dl_platform *p);

#endif
