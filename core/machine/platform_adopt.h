/* SPDX-License-Identifier: MIT */
/* The annotated copy of a SimGrid platform (`dlasim platform adopt`). */
#ifndef DL_PLATFORM_ADOPT_H
#define DL_PLATFORM_ADOPT_H

#include <stddef.h>
#include <stdio.h>

struct dl_platform;

/*
 * Write the annotated copy of platform `p`, whose bytes `buf` (`len` of
 * them) dl_platform_read_bytes() gave: the file as it is, with
 * dlasim.role="device" on every host and <cluster> when it has no roles,
 * and dlasim.ring.0 (the device order) in its root when it declares no
 * ring (docs/platforms.md).  Reports a device name a ring cannot hold.
 */
int dl_platform_write_adopted(const struct dl_platform *p, const char *buf, size_t len, FILE *f);

#endif
