/* SPDX-License-Identifier: MIT */
/*
 * Log-entry allocation plugins (DLASIM_KIND_LOG_ALLOC).
 *
 * Whenever the persistent memory controller writes a log entry (64 B) or
 * a record header (header_blocks x 64 B, all in one bank), it asks
 * the plugin for an NVM address in the log area; when the transaction the
 * slot belongs to no longer needs its log (its lines are all home), the
 * host hands the slot back through release().
 *
 * The log area is the top of the NVM (docs/nvm.md gives its size).  The
 * host describes it two ways: as one address range (area(), for a
 * sequential log) and bank by bank under the run's address interleaving
 * (block(bank, i) is the i-th 64 B block of that bank inside the area).
 * A header of two blocks is the block alloc() returns and the next block
 * of the same bank (block(bank, i + 1)).
 *
 * The host checks every answer: the address lies in the log area, is 64 B
 * aligned, is not in use (nor is a header's second block), and lies in the
 * bank the plugin names.  A wrong answer stops the run with one message
 * naming the plugin.  alloc() returning -1 means "no free slot now": the
 * log write waits until a slot is released.
 *
 * Callbacks run inside SimGrid actors and must not block.  Structs are
 * append-only and start with their size.  Guide: docs/nvm-plugins.md.
 */
#ifndef DLASIM_LOG_ALLOC_H
#define DLASIM_LOG_ALLOC_H

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_LOG_ALLOC_OPS_VERSION 1u

enum dlasim_la_kind {
	DLASIM_LA_ENTRY = 0,	/* one 64 B log entry */
	DLASIM_LA_HEADER = 1,	/* a record header: header_blocks x 64 B */
};

struct dlasim_la_ctx;		/* the controller's log area */

struct dlasim_la_ops {
	size_t size;		/* sizeof(struct dlasim_la_ops) of the plugin */
	/* 64 B blocks of a record header: 1 (log entry collation: seven
	 * addresses in one block) or 2 (entries anywhere: seven addresses,
	 * a next-record pointer and a count, in two blocks of one bank). */
	int header_blocks;
	/* Called once before the run.  NULL: nothing to prepare. */
	int (*start)(void *state, struct dlasim_la_ctx *ctx);
	/* The address of a free slot of `kind`, its bank in *bank; or -1
	 * when none is free now. */
	long (*alloc)(void *state, struct dlasim_la_ctx *ctx, enum dlasim_la_kind kind, int *bank);
	/* A slot alloc() gave is free again. */
	void (*release)(void *state, struct dlasim_la_ctx *ctx, long addr, enum dlasim_la_kind kind);
};

struct dlasim_log_alloc_services {
	size_t size;
	int (*banks)(const struct dlasim_la_ctx *ctx);
	/* Reads and writes queued or in service at a bank (the per-bank
	 * pending-operation counter of the memory controller). */
	int (*bank_pending)(const struct dlasim_la_ctx *ctx, int bank);
	int (*bank_of)(const struct dlasim_la_ctx *ctx, long addr);
	/* The log area: [*first, *first + *bytes). */
	void (*area)(const struct dlasim_la_ctx *ctx, long *first, long *bytes);
	/* 64 B blocks of the log area in `bank`, and the address of the i-th
	 * (0 <= i < bank_blocks), in increasing address order. */
	long (*bank_blocks)(const struct dlasim_la_ctx *ctx, int bank);
	long (*block)(const struct dlasim_la_ctx *ctx, int bank, long i);
};

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_LOG_ALLOC_H */
