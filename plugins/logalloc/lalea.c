/* SPDX-License-Identifier: MIT */
/*
 * lalea: load-aware log entry allocation (dissertation section 4.3,
 * Figures 4.2 and 4.3).
 *
 * Each bank's part of the log area holds an entry region (64 B slots) and
 * a header region (two-block slots: seven entry addresses, a pointer to
 * the transaction's next record and a count, since entries of one record
 * now lie anywhere).  Free slots wait in a FIFO per bank and kind (FLE and
 * FH); a request takes the head of the FIFO of the bank with the fewest
 * pending operations (ties: the lowest bank), and a released slot goes to
 * the tail of its FIFO.  Options: fle=N (1024 entry slots per bank),
 * fh=N (256 header slots per bank).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/log_alloc.h>

struct fifo {
	long *addr;
	int head, len, cap;
};

struct lalea {
	const struct dlasim_log_alloc_services *la;
	int banks;
	int fle, fh;
	struct fifo *q[2];	/* [kind][bank] */
};

static void push(struct fifo *f, long addr)
{
	f->addr[(f->head + f->len++) % f->cap] = addr;
}

static long pop(struct fifo *f)
{
	long addr = f->addr[f->head];

	f->head = (f->head + 1) % f->cap;
	f->len--;
	return addr;
}

static int lalea_start(void *st, struct dlasim_la_ctx *ctx)
{
	struct lalea *s = st;
	int cap[2] = { s->fle, s->fh };

	s->banks = s->la->banks(ctx);
	for (int kind = 0; kind < 2; kind++) {
		s->q[kind] = calloc((size_t)s->banks, sizeof(struct fifo));
		if (!s->q[kind])
			return DLASIM_ERR;
		for (int b = 0; b < s->banks; b++) {
			struct fifo *f = &s->q[kind][b];

			f->cap = cap[kind];
			f->addr = malloc((size_t)f->cap * sizeof(*f->addr));
			if (!f->addr || s->la->bank_blocks(ctx, b) < s->fle + 2L * s->fh)
				return DLASIM_ERR;
		}
	}
	/* Entry region first, then the header region, in each bank. */
	for (int b = 0; b < s->banks; b++) {
		for (int i = 0; i < s->fle; i++)
			push(&s->q[DLASIM_LA_ENTRY][b], s->la->block(ctx, b, i));
		for (int i = 0; i < s->fh; i++)
			push(&s->q[DLASIM_LA_HEADER][b], s->la->block(ctx, b, s->fle + 2L * i));
	}
	return DLASIM_OK;
}

static long lalea_alloc(void *st, struct dlasim_la_ctx *ctx, enum dlasim_la_kind kind, int *bank)
{
	struct lalea *s = st;
	int best = -1, best_load = 0;

	for (int b = 0; b < s->banks; b++) {
		int load = s->la->bank_pending(ctx, b);

		if (s->q[kind][b].len && (best < 0 || load < best_load)) {
			best = b;
			best_load = load;
		}
	}
	if (best < 0)
		return -1;
	*bank = best;
	return pop(&s->q[kind][best]);
}

static void lalea_release(void *st, struct dlasim_la_ctx *ctx, long addr, enum dlasim_la_kind kind)
{
	struct lalea *s = st;

	push(&s->q[kind][s->la->bank_of(ctx, addr)], addr);
}

static int lalea_init(const struct dlasim_host_api *host, const char *options, void **state,
		      char *err, size_t errlen)
{
	struct lalea *s;
	char key[32], value[64];
	double v;
	int r;

	if (!DLASIM_HAS_MEMBER(host, struct dlasim_host_api, log_alloc) || !host->log_alloc) {
		snprintf(err, errlen, "this dlasim has no log-allocation services");
		return DLASIM_ERR;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	s->la = host->log_alloc;
	s->fle = 1024;		/* FLE FIFO of 1024 addresses per bank (4.3) */
	s->fh = 256;		/* FH FIFO of 256 addresses per bank (4.3) */
	while ((r = host->next_option(&options, key, sizeof(key), value, sizeof(value))) > 0) {
		int *field = strcmp(key, "fle") == 0 ? &s->fle : strcmp(key, "fh") == 0 ? &s->fh : NULL;

		if (!field) {
			snprintf(err, errlen, "unknown option '%s' (fle, fh)", key);
			goto fail;
		}
		if (host->parse_number(value, 1, &v) || v != (int)v || v > 1 << 20) {
			snprintf(err, errlen, "%s=%s: not an integer in [1, 1048576]", key, value);
			goto fail;
		}
		*field = (int)v;
	}
	if (r < 0) {
		snprintf(err, errlen, "%s", value);
		goto fail;
	}
	*state = s;
	return DLASIM_OK;
fail:
	free(s);
	return DLASIM_ERR;
}

static void lalea_fini(void *st)
{
	struct lalea *s = st;

	for (int kind = 0; kind < 2; kind++) {
		for (int b = 0; s->q[kind] && b < s->banks; b++)
			free(s->q[kind][b].addr);
		free(s->q[kind]);
	}
	free(s);
}

static const struct dlasim_la_ops lalea_ops = {
	.size = sizeof(struct dlasim_la_ops),
	.header_blocks = 2,
	.start = lalea_start,
	.alloc = lalea_alloc,
	.release = lalea_release,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_LOG_ALLOC,
	.ops_version = DLASIM_LOG_ALLOC_OPS_VERSION,
	.name = "lalea",
	.description = "LALEA: each log slot in the bank with the fewest pending operations",
	.init = lalea_init,
	.fini = lalea_fini,
	.ops = &lalea_ops,
};
