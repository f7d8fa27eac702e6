/* SPDX-License-Identifier: MIT */
/* The <prop> elements of a platform's host, link or zone, or of a device
 * file: key and value, in document order. */
#ifndef DL_PROPS_H
#define DL_PROPS_H

struct dl_prop {
	char *key;
	char *value;
};

struct dl_props {
	struct dl_prop *v;
	int n;
};

#endif
