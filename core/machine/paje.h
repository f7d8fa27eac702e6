/* SPDX-License-Identifier: MIT */
/*
 * The platform SimGrid loads when a Paje trace is asked for.  SimGrid 3.32
 * names a SPLITDUPLEX link's two directions X_UP and X_DOWN but traces
 * only a container named X: the usage of either direction is dropped, and
 * drawing the topology aborts.  The copy declares the two directions as
 * two SHARED links X_UP and X_DOWN (what SimGrid builds inside anyway) and
 * spells out the reverse of every symmetrical route that crosses one, so
 * the model is the same and both directions appear in the trace.
 */
#ifndef DL_PAJE_H
#define DL_PAJE_H

#include <stddef.h>

#include "platform.h"

/*
 * Write that copy of xml[0..xml_len) (p's file as read and checked) to a
 * new temporary file (name in `path`); returns 0, or reports and returns
 * -1.  The caller unlinks it once SimGrid has loaded it.
 */
int dl_paje_platform(const struct dl_platform *p, const char *xml, size_t xml_len, char *path,
		     size_t len);

#endif
