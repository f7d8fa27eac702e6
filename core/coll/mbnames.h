/* SPDX-License-Identifier: MIT */
/*
 * Names of the mailboxes of collective calls.  Every call needs mailboxes
 * of its own (a message of one call must never meet a receive of
 * another), and SimGrid never frees a mailbox, so one name per call grows
 * memory with the number of calls (a quarter of the peak at 4096 devices
 * for one VGG-E iteration).  A call's name is taken back once every rank
 * has left the call and its mailboxes are empty: no message of it is in
 * flight, so the next call to get the name cannot meet one.  A mailbox
 * left with something in it holds a transfer that no rank of the call
 * matched, which no later call may match either: a plugin error.
 *
 * Mailboxes are kept by name and place, so that a name handed on finds
 * its mailboxes without formatting a name or asking SimGrid (a simcall).
 * Whether one is empty is counted, not asked: a SimGrid mailbox queues
 * either sends or receives, never both (a send meets the first receive
 * waiting, and the reverse), so it holds |sends - receives| transfers.
 */
#ifndef DL_COLL_MBNAMES_H
#define DL_COLL_MBNAMES_H

#include <stddef.h>

#include <simgrid/forward.h>

struct call_name;

/* A mailbox's name: the call's name, then the receiving rank, channel
 * and tag, as DL_MBNAME_FORMAT would print them. */
#define DL_MBNAME_FORMAT "coll.%u.%d.%d.%d"
#define DL_MBNAME_MAX 64

/* Where a transfer goes: the receiving rank's mailbox of a channel and tag. */
struct dl_mbplace {
	int rank, channel, tag;
};

/* A mailbox: its name and place, SimGrid's handle, and the transfers
 * posted to it less those taken from it (dl_mbnames_post()). */
struct dl_mbox {
	unsigned name;
	struct dl_mbplace at;
	sg_mailbox_t mb;
	long balance;
};

struct dl_mbnames {
	struct call_name *call;	/* by call number */
	int ncalls, cap;
	unsigned *free;		/* names taken back, a stack */
	int nfree, free_cap;
	unsigned next;		/* the first name never given */
	struct dl_mbox *box;	/* every mailbox made, in order */
	int nbox, box_cap;
	int *index;		/* 1 + index in box[] by name and place; 0: empty */
	size_t index_cap;
};

/* The name of the mailbox of call name `name` at `at`, in buf.  Not
 * printf: names are made on actors' stacks, and glibc's printf takes
 * kilobytes of one (a page more for each of 65,536 actors). */
char *dl_mbname(char buf[DL_MBNAME_MAX], unsigned name, const struct dl_mbplace *at);

void dl_mbnames_init(struct dl_mbnames *n);
void dl_mbnames_free(struct dl_mbnames *n);

/* The name of call `seq` (every rank makes the calls in the same order;
 * the first to enter one gives it its name); -1 when memory runs out. */
long dl_mbnames_enter(struct dl_mbnames *n, unsigned seq);
/* The mailbox of call `seq` (named `name` by dl_mbnames_enter()) at `at`,
 * made if new, and noted as used by the call: its index in n->box, or -1
 * when memory runs out.  Making one is a simcall, during which other
 * actors may add mailboxes: hold no pointer into n->box across a call. */
int dl_mbnames_box(struct dl_mbnames *n, unsigned seq, unsigned name,
		   const struct dl_mbplace *at);
/* A send (+1) or a receive (-1) posted to mailbox `box`. */
static inline void dl_mbnames_post(struct dl_mbnames *n, int box, int dir)
{
	n->box[box].balance += dir;
}
/* One of the call's `ranks` ranks has left it.  When the last one has:
 * 0, or -1 with *stray where a transfer was left unmatched. */
int dl_mbnames_leave(struct dl_mbnames *n, unsigned seq, int ranks, struct dl_mbplace *stray);

#endif
