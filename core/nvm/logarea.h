/* SPDX-License-Identifier: MIT */
/*
 * The log area of the NVM and the log-allocation plugin that hands out
 * its slots (<dlasim/log_alloc.h>): the area's geometry bank by bank, the
 * slots in use, and the host's check of every address the plugin gives.
 */
#ifndef DL_NVM_LOGAREA_H
#define DL_NVM_LOGAREA_H

#include <stdbool.h>

#include <dlasim/log_alloc.h>

/* The NVM as the log area sees it. */
struct la_nvm {
	void *arg;
	int banks;
	int (*bank_of)(void *arg, long addr);
	int (*bank_pending)(void *arg, int bank);
};

struct dlasim_la_ctx {
	const struct dlasim_la_ops *ops;
	void *state;			/* the plugin's */
	struct la_nvm nvm;
	long first, bytes;		/* [first, first + bytes) */
	long nblocks;
	unsigned char *live;		/* a bit per block */
	int **bank_block;		/* per bank: block numbers, ascending */
	long *bank_nblocks;
	int *pos;			/* a block's index in its bank's list */
	char why[256];			/* the last wrong answer */
	long allocs;			/* slots handed out */
};

/* The services plugins of this kind receive, and the loader's check of
 * their ops. */
extern const struct dlasim_log_alloc_services nvm_la_services;
bool la_ops_ok(const void *ops, const char **why);

int la_init(struct dlasim_la_ctx *la, const struct dlasim_la_ops *ops, void *state,
	    const struct la_nvm *nvm, long first, long bytes);
void la_free(struct dlasim_la_ctx *la);
/* Call the plugin's start(): 0, or -1 with la->why set. */
int la_start(struct dlasim_la_ctx *la);
/* A slot of `kind`: its address, -1 if none is free now, -2 if the
 * plugin's answer is wrong (la->why says why). */
long la_alloc(struct dlasim_la_ctx *la, enum dlasim_la_kind kind);
void la_release(struct dlasim_la_ctx *la, long addr, enum dlasim_la_kind kind);
/* Block b (0-based) of a slot starting at `addr`: the slot's b-th block
 * in its bank. */
long la_slot_block(const struct dlasim_la_ctx *la, long addr, int b);
/* Blocks of a slot of `kind`. */
int la_slot_blocks(const struct dlasim_la_ctx *la, enum dlasim_la_kind kind);

#endif
