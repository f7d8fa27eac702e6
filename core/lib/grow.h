/* SPDX-License-Identifier: MIT */
/* Arrays that grow as elements are appended. */
#ifndef DL_GROW_H
#define DL_GROW_H

#include <stddef.h>

/* Make room in *v (of *cap elements of `size` bytes) for `need` elements,
 * doubling from 16; 0, or -1 (nothing changed) when memory runs out.  No
 * message: some callers may not print (a signal's cleanup list). */
int dl_grow(void **v, int *cap, int need, size_t size);

#endif
