/* SPDX-License-Identifier: MIT */
#include "logarea.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

#define BLOCK 64

static bool is_live(const struct dlasim_la_ctx *la, long blk)
{
	return la->live[blk >> 3] & (1u << (blk & 7));
}

static void set_live(struct dlasim_la_ctx *la, long blk, bool on)
{
	if (on)
		la->live[blk >> 3] |= (unsigned char)(1u << (blk & 7));
	else
		la->live[blk >> 3] &= (unsigned char)~(1u << (blk & 7));
}

/* ---- services ---- */

static int svc_banks(const struct dlasim_la_ctx *la)
{
	return la->nvm.banks;
}

static int svc_bank_pending(const struct dlasim_la_ctx *la, int bank)
{
	return bank >= 0 && bank < la->nvm.banks ? la->nvm.bank_pending(la->nvm.arg, bank) : 0;
}

static int svc_bank_of(const struct dlasim_la_ctx *la, long addr)
{
	return la->nvm.bank_of(la->nvm.arg, addr);
}

static void svc_area(const struct dlasim_la_ctx *la, long *first, long *bytes)
{
	*first = la->first;
	*bytes = la->bytes;
}

static long svc_bank_blocks(const struct dlasim_la_ctx *la, int bank)
{
	return bank >= 0 && bank < la->nvm.banks ? la->bank_nblocks[bank] : 0;
}

static long svc_block(const struct dlasim_la_ctx *la, int bank, long i)
{
	if (bank < 0 || bank >= la->nvm.banks || i < 0 || i >= la->bank_nblocks[bank])
		return -1;
	return la->first + (long)la->bank_block[bank][i] * BLOCK;
}

bool la_ops_ok(const void *ops, const char **why)
{
	const struct dlasim_la_ops *o = ops;

	if (o->size < sizeof(*o))
		*why = "its dlasim_la_ops is smaller than version 1's";
	else if (!o->alloc)
		*why = "alloc is required";
	else if (o->header_blocks != 1 && o->header_blocks != 2)
		*why = "header_blocks must be 1 or 2";
	else
		return true;
	return false;
}

const struct dlasim_log_alloc_services nvm_la_services = {
	.size = sizeof(struct dlasim_log_alloc_services),
	.banks = svc_banks,
	.bank_pending = svc_bank_pending,
	.bank_of = svc_bank_of,
	.area = svc_area,
	.bank_blocks = svc_bank_blocks,
	.block = svc_block,
};

/* ---- the area ---- */

int la_init(struct dlasim_la_ctx *la, const struct dlasim_la_ops *ops, void *state,
	    const struct la_nvm *nvm, long first, long bytes)
{
	long *fill = NULL;

	*la = (struct dlasim_la_ctx){ .ops = ops, .state = state, .nvm = *nvm,
				      .first = first, .bytes = bytes, .nblocks = bytes / BLOCK };
	if (first % BLOCK || bytes % BLOCK || la->nblocks < 1 || la->nblocks > INT32_MAX)
		return dl_err("internal error: log area [%ld, +%ld) is not whole blocks", first, bytes);
	la->live = calloc((size_t)(la->nblocks + 7) / 8, 1);
	la->pos = malloc((size_t)la->nblocks * sizeof(*la->pos));
	la->bank_block = calloc((size_t)nvm->banks, sizeof(*la->bank_block));
	la->bank_nblocks = calloc((size_t)nvm->banks, sizeof(*la->bank_nblocks));
	fill = calloc((size_t)nvm->banks, sizeof(*fill));
	if (!la->live || !la->pos || !la->bank_block || !la->bank_nblocks || !fill)
		goto oom;
	for (long b = 0; b < la->nblocks; b++) {
		int bank = nvm->bank_of(nvm->arg, first + b * BLOCK);

		if (bank < 0 || bank >= nvm->banks) {
			free(fill);
			la_free(la);
			return dl_err("internal error: address %#lx maps to bank %d of %d",
				      first + b * BLOCK, bank, nvm->banks);
		}
		la->pos[b] = (int)la->bank_nblocks[bank]++;
	}
	for (int k = 0; k < nvm->banks; k++) {
		la->bank_block[k] = malloc((size_t)(la->bank_nblocks[k] ? la->bank_nblocks[k] : 1) *
					   sizeof(**la->bank_block));
		if (!la->bank_block[k])
			goto oom;
	}
	for (long b = 0; b < la->nblocks; b++) {
		int bank = nvm->bank_of(nvm->arg, first + b * BLOCK);

		la->bank_block[bank][fill[bank]++] = (int)b;
	}
	free(fill);
	return 0;
oom:
	free(fill);
	la_free(la);
	return dl_err("out of memory");
}

void la_free(struct dlasim_la_ctx *la)
{
	for (int k = 0; la->bank_block && k < la->nvm.banks; k++)
		free(la->bank_block[k]);
	free(la->bank_block);
	free(la->bank_nblocks);
	free(la->pos);
	free(la->live);
	la->bank_block = NULL;
	la->bank_nblocks = NULL;
	la->pos = NULL;
	la->live = NULL;
}

int la_start(struct dlasim_la_ctx *la)
{
	if (!la->ops->start || la->ops->start(la->state, la) == DLASIM_OK)
		return 0;
	snprintf(la->why, sizeof(la->why), "start() failed");
	return -1;
}

int la_slot_blocks(const struct dlasim_la_ctx *la, enum dlasim_la_kind kind)
{
	return kind == DLASIM_LA_HEADER ? la->ops->header_blocks : 1;
}

/* The b-th block of the slot at `addr` in its bank, -1 past the bank's
 * end; addr must be a block of the area. */
long la_slot_block(const struct dlasim_la_ctx *la, long addr, int b)
{
	long blk = (addr - la->first) / BLOCK;
	int bank = la->nvm.bank_of(la->nvm.arg, addr);

	return svc_block(la, bank, la->pos[blk] + b);
}

long la_alloc(struct dlasim_la_ctx *la, enum dlasim_la_kind kind)
{
	int bank = -1, nb = la_slot_blocks(la, kind);
	long addr = la->ops->alloc(la->state, la, kind, &bank);
	const char *what = kind == DLASIM_LA_HEADER ? "header" : "entry";

	if (addr == -1)
		return -1;
	if (addr < la->first || addr >= la->first + la->bytes || addr % BLOCK) {
		snprintf(la->why, sizeof(la->why),
			 "alloc() gave a log %s at %#lx, not a 64 B block of the log area [%#lx, %#lx)",
			 what, addr, la->first, la->first + la->bytes);
		return -2;
	}
	if (la->nvm.bank_of(la->nvm.arg, addr) != bank) {
		snprintf(la->why, sizeof(la->why),
			 "alloc() gave a log %s at %#lx in bank %d, but that address is in bank %d",
			 what, addr, bank, la->nvm.bank_of(la->nvm.arg, addr));
		return -2;
	}
	for (int b = 0; b < nb; b++) {
		long a = la_slot_block(la, addr, b);

		if (a < 0) {
			snprintf(la->why, sizeof(la->why),
				 "alloc() gave a log header at %#lx, the last block of bank %d: no room for its %d blocks",
				 addr, bank, nb);
			return -2;
		}
		if (is_live(la, (a - la->first) / BLOCK)) {
			snprintf(la->why, sizeof(la->why),
				 "alloc() gave a log %s at %#lx, but block %#lx is in use", what, addr, a);
			return -2;
		}
	}
	for (int b = 0; b < nb; b++)
		set_live(la, (la_slot_block(la, addr, b) - la->first) / BLOCK, true);
	la->allocs++;
	return addr;
}

void la_release(struct dlasim_la_ctx *la, long addr, enum dlasim_la_kind kind)
{
	for (int b = 0; b < la_slot_blocks(la, kind); b++)
		set_live(la, (la_slot_block(la, addr, b) - la->first) / BLOCK, false);
	if (la->ops->release)
		la->ops->release(la->state, la, addr, kind);
}
