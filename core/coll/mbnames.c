/* SPDX-License-Identifier: MIT */
#include "mbnames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/mailbox.h>

#include "kernel/grow.h"

struct call_name {
	unsigned name;
	int left;		/* ranks that have left the call */
	sg_mailbox_t *mb;	/* mailboxes it used (repeats allowed) */
	int nmb, cap;
};

void dl_mbnames_init(struct dl_mbnames *n)
{
	memset(n, 0, sizeof(*n));
}

void dl_mbnames_free(struct dl_mbnames *n)
{
	for (int i = 0; i < n->ncalls; i++)
		free(n->call[i].mb);
	free(n->call);
	free(n->free);
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

int dl_mbnames_use(struct dl_mbnames *n, unsigned seq, sg_mailbox_t mb)
{
	struct call_name *c = &n->call[seq];

	if (dl_grow((void **)&c->mb, &c->cap, c->nmb + 1, sizeof(*c->mb)))
		return -1;
	c->mb[c->nmb++] = mb;
	return 0;
}

/*
 * The first mailbox of call `seq` with a transfer still in it, or -1.
 * sg_mailbox_listen() is a simcall: other actors run meanwhile and may
 * enter calls and grow n->call, so no pointer into it is held across.
 */
static int first_nonempty(const struct dl_mbnames *n, unsigned seq)
{
	for (int i = 0; i < n->call[seq].nmb; i++)
		if (sg_mailbox_listen(sg_mailbox_get_name(n->call[seq].mb[i])))
			return i;
	return -1;
}

int dl_mbnames_leave(struct dl_mbnames *n, unsigned seq, int ranks, struct dl_mbplace *stray)
{
	struct call_name *c;
	int i;

	if (++n->call[seq].left < ranks)
		return 0;
	if ((i = first_nonempty(n, seq)) >= 0) {
		const char *name = sg_mailbox_get_name(n->call[seq].mb[i]);

		*stray = (struct dl_mbplace){ -1, -1, -1 };
		sscanf(name, DL_MBNAME_FORMAT, &(unsigned){ 0 }, &stray->rank, &stray->channel,
		       &stray->tag);
		return -1;	/* the name is never handed on */
	}
	c = &n->call[seq];
	/* If memory runs out the name is simply not reused. */
	if (!dl_grow((void **)&n->free, &n->free_cap, n->nfree + 1, sizeof(*n->free)))
		n->free[n->nfree++] = c->name;
	free(c->mb);
	c->mb = NULL;
	c->nmb = c->cap = 0;
	return 0;
}
