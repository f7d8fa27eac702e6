/* SPDX-License-Identifier: MIT */
/*
 * TATP UPDATE_LOCATION (Table 3.3, "update locations"; TATP description
 * 1.0): with 100 000 subscribers (population 1), pick a subscriber number
 * non-uniformly (s_id = (rand(0, 65535) | rand(1, P)) % P + 1), find its
 * row through a hash index on sub_nbr and set its vlr_location.  A row
 * (64 B) and an index bucket (16 B) hold what the transaction touches.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"

#define SUBSCRIBERS 100000
#define BUCKETS (1L << 17)

struct subscriber {
	int s_id;
	char sub_nbr[16];
	unsigned short bits;
	unsigned char hex[5];
	unsigned char byte2[10];
	int msc_location, vlr_location;
	char pad[16];
};

_Static_assert(sizeof(struct subscriber) == 64, "a subscriber row is one line");

struct slot {
	long nbr;			/* sub_nbr as a number, 0 = empty */
	long s_id;
};

struct tatp {
	struct subscriber *sub;
	struct slot *index;		/* open addressing */
};

static long slot_of(long nbr)
{
	return (long)(((unsigned long)nbr * 0x9e3779b97f4a7c15ul) >> 47) & (BUCKETS - 1);
}

static void *tatp_setup(struct kheap *h, struct krng *r)
{
	struct tatp *t = kheap_array(h, sizeof(*t));

	if (!t || !(t->sub = kheap_array(h, SUBSCRIBERS * sizeof(*t->sub))) ||
	    !(t->index = kheap_array(h, BUCKETS * sizeof(*t->index))))
		return NULL;
	for (long s = 1; s <= SUBSCRIBERS; s++) {
		struct subscriber *row = &t->sub[s - 1];
		long i = slot_of(s);

		row->s_id = (int)s;
		snprintf(row->sub_nbr, sizeof(row->sub_nbr), "%015d", (int)s);
		row->vlr_location = (int)krng_next(r);
		while (t->index[i].nbr)
			i = (i + 1) & (BUCKETS - 1);
		t->index[i] = (struct slot){ s, s };
	}
	return t;
}

static int tatp_tx(void *root, struct krec *rec, struct krng *r)
{
	struct tatp *t = root;
	long nbr = (krng_range(r, 0, 65535) | krng_range(r, 1, SUBSCRIBERS)) % SUBSCRIBERS + 1;
	long i = slot_of(nbr);
	struct subscriber *row;

	while (KR(rec, t->index[i].nbr) != nbr)
		i = (i + 1) & (BUCKETS - 1);
	row = &t->sub[KR(rec, t->index[i].s_id) - 1];
	krec_read(rec, row->sub_nbr, sizeof(row->sub_nbr));
	KW(rec, row->vlr_location, (int)krng_next(r));
	return 0;
}

const struct kernel_desc kernel_tatp = {
	.name = "tatp",
	.title = "TATP",
	.heap_bytes = 16 << 20,
	.setup = tatp_setup,
	.tx = tatp_tx,
};
