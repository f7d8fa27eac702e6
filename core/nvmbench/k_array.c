/* SPDX-License-Identifier: MIT */
/*
 * Array Random (Table 3.3): insert or delete an element at a random
 * position of a persistent array of 512 8-byte elements, shifting the
 * elements behind it; the element count sits in a line of its own.  A
 * transaction writes the lines from the position to the end of the used
 * part, and the count's line.  An insertion is chosen with probability
 * (512 - n) / 128, a deletion otherwise, which holds the count n near 448
 * (seven eighths full) whatever the random numbers: transactions then
 * write 2 to 58 lines, about 40 % of them more than 32, which makes Array
 * Random the benchmark of the large write sets that section 3.6.4
 * describes (docs/nvm.md, calibration to Figure 3.1).
 */
#include <string.h>

#include "kernels.h"

#define CAP 512
#define CENTER 448		/* where the element count settles */

struct array {
	long n;
	long pad[7];		/* the count has its line */
	long a[CAP];
};

static void *array_setup(struct kheap *h, struct krng *r)
{
	struct array *x = kheap_array(h, sizeof(*x));

	if (!x)
		return NULL;
	x->n = CENTER;
	for (long i = 0; i < x->n; i++)
		x->a[i] = (long)krng_next(r);
	return x;
}

static int array_tx(void *root, struct krec *rec, struct krng *r)
{
	struct array *x = root;
	long n = KR(rec, x->n), pos;

	if (krng_below(r, 2 * (CAP - CENTER)) < CAP - n) {
		pos = krng_below(r, n + 1);
		krec_read(rec, &x->a[pos], (size_t)(n - pos) * sizeof(long));
		krec_write(rec, &x->a[pos + 1], (size_t)(n - pos) * sizeof(long));
		memmove(&x->a[pos + 1], &x->a[pos], (size_t)(n - pos) * sizeof(long));
		KW(rec, x->a[pos], (long)krng_next(r));
		KW(rec, x->n, n + 1);
	} else {
		pos = krng_below(r, n);
		krec_read(rec, &x->a[pos + 1], (size_t)(n - pos - 1) * sizeof(long));
		krec_write(rec, &x->a[pos], (size_t)(n - pos - 1) * sizeof(long));
		memmove(&x->a[pos], &x->a[pos + 1], (size_t)(n - pos - 1) * sizeof(long));
		KW(rec, x->n, n - 1);
	}
	return 0;
}

const struct kernel_desc kernel_array = {
	.name = "array",
	.title = "Array Random",
	.heap_bytes = 64 << 10,
	.setup = array_setup,
	.tx = array_tx,
};
