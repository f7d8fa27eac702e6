/* SPDX-License-Identifier: MIT */
/*
 * seq: the conventional log, one contiguous circular region (the whole log
 * area) filled in address order, headers beside their entries (log entry
 * collation: a one-block header holds the seven entries' addresses).
 * Start here: the smallest log-allocation plugin.
 *
 * Under page interleaving 64 consecutive blocks (4 KB) lie in one bank, so
 * the log writes of all cores queue at one bank at a time: the imbalance
 * LALEA removes.  When the next block is still in use (the log wrapped
 * onto entries not yet released), alloc() says none is free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/log_alloc.h>

struct seq {
	const struct dlasim_log_alloc_services *la;
	long first, blocks, next;	/* next: block to hand out */
	unsigned char *live;		/* one byte per block */
};

static int seq_start(void *st, struct dlasim_la_ctx *ctx)
{
	struct seq *s = st;
	long bytes;

	s->la->area(ctx, &s->first, &bytes);
	s->blocks = bytes / 64;
	s->live = calloc((size_t)s->blocks, 1);
	return s->live ? DLASIM_OK : DLASIM_ERR;
}

static long seq_alloc(void *st, struct dlasim_la_ctx *ctx, enum dlasim_la_kind kind, int *bank)
{
	struct seq *s = st;
	long addr = s->first + s->next * 64;

	if (s->live[s->next])
		return -1;
	s->live[s->next] = 1;
	s->next = (s->next + 1) % s->blocks;
	*bank = s->la->bank_of(ctx, addr);
	return addr;
}

static void seq_release(void *st, struct dlasim_la_ctx *ctx, long addr, enum dlasim_la_kind kind)
{
	struct seq *s = st;

	s->live[(addr - s->first) / 64] = 0;
}

static int seq_init(const struct dlasim_host_api *host, const char *options, void **state,
		    char *err, size_t errlen)
{
	struct seq *s;

	if (!DLASIM_HAS_MEMBER(host, struct dlasim_host_api, log_alloc) || !host->log_alloc) {
		snprintf(err, errlen, "this dlasim has no log-allocation services");
		return DLASIM_ERR;
	}
	if (options && *options) {
		snprintf(err, errlen, "seq takes no options");
		return DLASIM_ERR;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	s->la = host->log_alloc;
	*state = s;
	return DLASIM_OK;
}

static void seq_fini(void *st)
{
	struct seq *s = st;

	free(s->live);
	free(s);
}

static const struct dlasim_la_ops seq_ops = {
	.size = sizeof(struct dlasim_la_ops),
	.header_blocks = 1,
	.start = seq_start,
	.alloc = seq_alloc,
	.release = seq_release,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_LOG_ALLOC,
	.ops_version = DLASIM_LOG_ALLOC_OPS_VERSION,
	.name = "seq",
	.description = "one contiguous circular log, entries and one-block headers in address order",
	.init = seq_init,
	.fini = seq_fini,
	.ops = &seq_ops,
};
