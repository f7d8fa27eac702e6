/* SPDX-License-Identifier: MIT */
/*
 * TPC-C NEW_ORDER (Table 3.3, "add new orders"; TPC-C 5.11, clause 2.4) on
 * one warehouse with its 10 districts, 30 000 customers, 100 000 items and
 * 100 000 stock rows.  A transaction picks a district, a customer
 * (NURand(1023)) and 5 to 15 distinct items (NURand(8191)); it reads the
 * warehouse, district, customer and item rows, takes the district's next
 * order number, updates each item's stock row (quantity, year-to-date,
 * order count: one line) and appends an order, a new-order and one
 * order-line row per item.  The appended tables are rings (the DELIVERY
 * transaction, not modelled, would consume them).  Rows are sized as the
 * specification's (clause 1.3), rounded to 16 B.
 */
#include <stdio.h>

#include "kernels.h"

#define DISTRICTS 10
#define CUSTOMERS 3000		/* per district */
#define ITEMS 100000
#define RING 8192		/* orders kept; order lines: 16 per order */

struct warehouse {
	double tax, ytd;
	char rest[80];			/* name, address */
};

struct district {
	long next_o_id;
	double tax, ytd;
	char rest[72];			/* name, address */
};

struct customer {
	double discount, balance, ytd_payment;
	char credit[8], last[16];
	char rest[608];			/* the other columns of a 655 B row */
};

struct item {
	double price;
	long im_id;
	char name[24], data[48];
};

struct stock {
	long quantity, ytd, order_cnt, remote_cnt;	/* updated: one line */
	char dist[DISTRICTS][24];
	char data[48];
};

struct order {
	long id, d_id, c_id, entry_d, ol_cnt, all_local;
};

struct new_order {
	long o_id, d_id;
};

struct order_line {
	long o_id, d_id, number, i_id, quantity;
	double amount;
	long delivery_d;
	char dist_info[24];
};

struct tpcc {
	struct warehouse *w;
	struct district *d;
	struct customer *c;
	struct item *item;
	struct stock *stock;
	struct order *order;
	struct new_order *new_order;
	struct order_line *line;
	long orders, lines;		/* rows appended so far */
	long c_load;			/* NURand run-time constants (clause 2.1.6) */
	long c_item;
};

/* NURand(A, x, y) of clause 2.1.6. */
static long nurand(struct krng *r, long a, long c, long x, long y)
{
	return ((krng_range(r, 0, a) | krng_range(r, x, y)) + c) % (y - x + 1) + x;
}

static void *tpcc_setup(struct kheap *h, struct krng *r)
{
	struct tpcc *t = kheap_array(h, sizeof(*t));

	if (!t)
		return NULL;
	t->w = kheap_array(h, sizeof(*t->w));
	t->d = kheap_array(h, DISTRICTS * sizeof(*t->d));
	t->c = kheap_array(h, DISTRICTS * CUSTOMERS * sizeof(*t->c));
	t->item = kheap_array(h, ITEMS * sizeof(*t->item));
	t->stock = kheap_array(h, ITEMS * sizeof(*t->stock));
	t->order = kheap_array(h, RING * sizeof(*t->order));
	t->new_order = kheap_array(h, RING * sizeof(*t->new_order));
	t->line = kheap_array(h, 16L * RING * sizeof(*t->line));
	if (!t->w || !t->d || !t->c || !t->item || !t->stock || !t->order || !t->new_order ||
	    !t->line)
		return NULL;
	t->w->tax = 0.1;
	for (int d = 0; d < DISTRICTS; d++) {
		t->d[d].next_o_id = 3001;
		t->d[d].tax = 0.1;
	}
	for (long i = 0; i < ITEMS; i++) {
		t->item[i].price = 1 + (double)krng_below(r, 10000) / 100;
		t->stock[i].quantity = krng_range(r, 10, 100);
	}
	t->c_load = krng_range(r, 0, 1023);
	t->c_item = krng_range(r, 0, 8191);
	return t;
}

static int tpcc_tx(void *root, struct krec *rec, struct krng *r)
{
	struct tpcc *t = root;
	long d = krng_below(r, DISTRICTS);
	long c = d * CUSTOMERS + nurand(r, 1023, t->c_load, 1, CUSTOMERS) - 1;
	long ol_cnt = krng_range(r, 5, 15), items[15];
	struct district *dist = &t->d[d];
	long o_id = KR(rec, dist->next_o_id);
	struct order *o = &t->order[t->orders % RING];
	struct new_order *no = &t->new_order[t->orders % RING];

	for (long i = 0; i < ol_cnt; i++) {
		bool dup;

		do {
			items[i] = nurand(r, 8191, t->c_item, 1, ITEMS) - 1;
			dup = false;
			for (long j = 0; j < i; j++)
				dup |= items[j] == items[i];
		} while (dup);
	}
	krec_read(rec, &t->w->tax, sizeof(t->w->tax));
	krec_read(rec, &dist->tax, sizeof(dist->tax));
	KW(rec, dist->next_o_id, o_id + 1);
	krec_read(rec, &t->c[c].discount, sizeof(t->c[c].discount));
	krec_read(rec, t->c[c].credit, sizeof(t->c[c].credit) + sizeof(t->c[c].last));
	KW(rec, o->id, o_id);
	KW(rec, o->d_id, d);
	KW(rec, o->c_id, c);
	KW(rec, o->entry_d, t->orders);
	KW(rec, o->ol_cnt, ol_cnt);
	KW(rec, o->all_local, 1);
	KW(rec, no->o_id, o_id);
	KW(rec, no->d_id, d);
	for (long i = 0; i < ol_cnt; i++) {
		struct item *it = &t->item[items[i]];
		struct stock *s = &t->stock[items[i]];
		struct order_line *ol = &t->line[t->lines++ % (16L * RING)];
		long qty = krng_range(r, 1, 10), sq = KR(rec, s->quantity);
		double amount = qty * KR(rec, it->price);

		krec_read(rec, it->name, sizeof(it->name) + sizeof(it->data));
		KW(rec, s->quantity, sq >= qty + 10 ? sq - qty : sq - qty + 91);
		KW(rec, s->ytd, KR(rec, s->ytd) + qty);
		KW(rec, s->order_cnt, KR(rec, s->order_cnt) + 1);
		krec_read(rec, s->dist[d], sizeof(s->dist[d]));
		KW(rec, ol->o_id, o_id);
		KW(rec, ol->d_id, d);
		KW(rec, ol->number, i + 1);
		KW(rec, ol->i_id, items[i]);
		KW(rec, ol->quantity, qty);
		KW(rec, ol->amount, amount);
		KW(rec, ol->delivery_d, 0);
		krec_write(rec, ol->dist_info, sizeof(ol->dist_info));
	}
	t->orders++;
	return 0;
}

/* Every order took its district's next number, once. */
static bool tpcc_check(const void *root, char *why, size_t len)
{
	const struct tpcc *t = root;
	long taken = 0;

	for (int d = 0; d < DISTRICTS; d++)
		taken += t->d[d].next_o_id - 3001;
	if (taken != t->orders) {
		snprintf(why, len, "%ld order numbers taken for %ld orders", taken, t->orders);
		return false;
	}
	return true;
}

const struct kernel_desc kernel_tpcc = {
	.name = "tpcc",
	.title = "TPCC",
	.heap_bytes = 96 << 20,
	.setup = tpcc_setup,
	.tx = tpcc_tx,
	.check = tpcc_check,
};
