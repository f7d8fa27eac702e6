/* SPDX-License-Identifier: MIT */
#include "mbnames.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/mailbox.h>

#include "lib/grow.h"
#include "lib/pairmap.h"

struct call_name {
	unsigned name;
	int left;		/* ranks that have left the call */
	int *box;		/* mailboxes it used, indices in box[] (repeats allowed) */
	int nbox, cap;
};

void dl_mbnames_init(struct dl_mbnames *n)
{
	memset(n, 0, sizeof(*n));
}

void dl_mbnames_free(struct dl_mbnames *n)
{
	for (int i = 0; i < n->ncalls; i++)
		free(n->call[i].box);
	free(n->call);
	free(n->free);
	free(n->box);
	free(n->index);
	memset(n, 0, sizeof(*n));
}

long dl_mbnames_enter(struct dl_mbnames *n, unsigned seq)
{
	struct call_name *c;

	if (seq < (unsigned)n->ncalls)
		return n->call[seq].name;
	/* The first rank to make call `seq`: calls are numbered in order. */
	if (seq != (unsigned)n->ncalls || dl_grow((void **)&n->call, &n->cap, n->ncalls + 1,
						    sizeof(*n->call)))
		return -1;
	c = &n->call[n->ncalls++];
	memset(c, 0, sizeof(*c));
	c->name = n->nfree ? n->free[--n->nfree] : n->next++;
	return c->name;
}

/* ---- mailboxes by name and place ---- */

/* v in decimal at s, which has room for 11 characters; the end. */
static char *put_int(char *s, long v)
{
	char digits[24];
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;
	int n = 0;

	if (v < 0)
		*s++ = '-';
	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n)
		*s++ = digits[--n];
	return s;
}

char *dl_mbname(char buf[DL_MBNAME_MAX], unsigned name, const struct dl_mbplace *at)
{
	char *s = buf;

	memcpy(s, "coll", 4);
	s += 4;
	*s++ = '.';
	s = put_int(s, name);
	*s++ = '.';
	s = put_int(s, at->rank);
	*s++ = '.';
	s = put_int(s, at->channel);
	*s++ = '.';
	s = put_int(s, at->tag);
	*s = '\0';
	return buf;
}

static size_t box_hash(unsigned name, const struct dl_mbplace *at)
{
	uint64_t a = (uint64_t)name << 32 | (uint32_t)at->rank;
	uint64_t b = (uint64_t)(uint32_t)at->channel << 32 | (uint32_t)at->tag;

	return (size_t)dl_hash64(a ^ dl_hash64(b));
}

static bool box_is(const struct dl_mbox *x, unsigned name, const struct dl_mbplace *at)
{
	return x->name == name && x->at.rank == at->rank && x->at.channel == at->channel &&
	       x->at.tag == at->tag;
}

/* The slot of index[] holding the box at `at`, or the empty one where it
 * would go (index_cap > 0). */
static size_t slot(const struct dl_mbnames *n, unsigned name, const struct dl_mbplace *at)
{
	size_t mask = n->index_cap - 1, i = box_hash(name, at) & mask;

	while (n->index[i] && !box_is(&n->box[n->index[i] - 1], name, at))
		i = (i + 1) & mask;
	return i;
}

static int find_box(const struct dl_mbnames *n, unsigned name, const struct dl_mbplace *at)
{
	return n->index_cap ? n->index[slot(n, name, at)] - 1 : -1;
}

/* Room in index[] for one more box, at most half full. */
static int grow_index(struct dl_mbnames *n)
{
	size_t cap = n->index_cap ? 2 * n->index_cap : 256;
	int *old = n->index;

	if ((size_t)(n->nbox + 1) * 2 <= n->index_cap)
		return 0;
	if (!(n->index = calloc(cap, sizeof(*n->index)))) {
		n->index = old;
		return -1;
	}
	n->index_cap = cap;
	for (int b = 0; b < n->nbox; b++)
		n->index[slot(n, n->box[b].name, &n->box[b].at)] = b + 1;
	free(old);
	return 0;
}

static int add_box(struct dl_mbnames *n, unsigned name, const struct dl_mbplace *at,
		   sg_mailbox_t mb)
{
	if (grow_index(n) || dl_grow((void **)&n->box, &n->box_cap, n->nbox + 1, sizeof(*n->box)))
		return -1;
	n->box[n->nbox] = (struct dl_mbox){ name, *at, mb, 0 };
	n->index[slot(n, name, at)] = n->nbox + 1;
	return n->nbox++;
}

int dl_mbnames_box(struct dl_mbnames *n, unsigned seq, unsigned name,
		   const struct dl_mbplace *at)
{
	struct call_name *c;
	char buf[DL_MBNAME_MAX];
	int b = find_box(n, name, at);

	if (b < 0) {
		sg_mailbox_t mb = sg_mailbox_by_name(dl_mbname(buf, name, at));

		/* Another actor may have made it during the simcall. */
		if ((b = find_box(n, name, at)) < 0 && (b = add_box(n, name, at, mb)) < 0)
			return -1;
	}
	c = &n->call[seq];
	if (dl_grow((void **)&c->box, &c->cap, c->nbox + 1, sizeof(*c->box)))
		return -1;
	c->box[c->nbox++] = b;
	return b;
}

int dl_mbnames_leave(struct dl_mbnames *n, unsigned seq, int ranks, struct dl_mbplace *stray)
{
	struct call_name *c = &n->call[seq];

	if (++c->left < ranks)
		return 0;
	for (int i = 0; i < c->nbox; i++) {
		if (n->box[c->box[i]].balance) {
			*stray = n->box[c->box[i]].at;
			return -1;	/* the name is never handed on */
		}
	}
	/* If memory runs out the name is simply not reused. */
	if (!dl_grow((void **)&n->free, &n->free_cap, n->nfree + 1, sizeof(*n->free)))
		n->free[n->nfree++] = c->name;
	free(c->box);
	c->box = NULL;
	c->nbox = c->cap = 0;
	return 0;
}
