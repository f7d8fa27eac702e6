/* SPDX-License-Identifier: MIT */
/*
 * The pipeline schedules (core/llm/schedule.c): every stage runs each
 * forward and backward of each micro-batch and chunk once, the warm-up
 * counts are Megatron-LM's (counted here by hand), and the stages, run
 * in their orders with instantaneous transfers, never wait on an
 * operation that has not run; their makespan is the paper's
 * (m + p - 1)(t_f + t_b) for 1F1B and (m + (p - 1)/v)(t_f + t_b) for the
 * interleaved schedule (Narayanan et al., SC'21, Sections 2.2.1-2.2.2).
 */
#include "check.h"

#include <stdlib.h>

#include "llm/schedule.h"

struct run {
	enum llm_schedule s;
	long p, v, m;
	struct llm_op *ops;		/* stage j's at ops[j * 2 m v] */
	double *fwd_end, *bwd_end;	/* [mb][virtual stage], < 0: not run */
};

static long vstages(const struct run *r)
{
	return r->p * r->v;
}

static long nops(const struct run *r)
{
	return 2 * r->m * r->v;
}

static struct run plan(enum llm_schedule s, long p, long v, long m)
{
	struct run r = { .s = s, .p = p, .v = v, .m = m };
	long n = m * vstages(&r);

	r.ops = calloc(p * nops(&r), sizeof(*r.ops));
	r.fwd_end = malloc(n * sizeof(double));
	r.bwd_end = malloc(n * sizeof(double));
	for (long k = 0; k < n; k++)
		r.fwd_end[k] = r.bwd_end[k] = -1;
	for (long j = 0; j < p; j++)
		llm_schedule_ops(s, p, v, m, j, &r.ops[j * nops(&r)]);
	return r;
}

static void unplan(struct run *r)
{
	free(r->ops);
	free(r->fwd_end);
	free(r->bwd_end);
}

/* Each (micro-batch, chunk, direction) exactly once per stage. */
static bool each_once(const struct run *r, long j)
{
	long n = r->m * r->v;
	int *seen = calloc(2 * n, sizeof(int));
	bool ok = true;

	for (long k = 0; k < nops(r); k++) {
		const struct llm_op *o = &r->ops[j * nops(r) + k];

		if (o->mb < 0 || o->mb >= r->m || o->chunk < 0 || o->chunk >= r->v)
			ok = false;
		else
			seen[o->backward * n + o->mb * r->v + o->chunk]++;
	}
	for (long k = 0; k < 2 * n; k++)
		ok = ok && seen[k] == 1;
	free(seen);
	return ok;
}

/* When the operation's input is ready, < 0 if it has not been produced:
 * a forward needs the previous virtual stage's forward, a backward the
 * next one's backward (the last, its own forward). */
static double ready(const struct run *r, const struct llm_op *o, long j)
{
	long vs = o->chunk * r->p + j, n = vstages(r);

	if (!o->backward)
		return vs == 0 ? 0 : r->fwd_end[o->mb * n + vs - 1];
	if (vs == n - 1)
		return r->fwd_end[o->mb * n + vs];
	return r->bwd_end[o->mb * n + vs + 1];
}

/* Runs the stages in their orders, a forward of a chunk taking tf / v and
 * a backward tb / v; returns the makespan, or -1 if the stages deadlock. */
static double makespan(struct run *r, double tf, double tb)
{
	long *next = calloc(r->p, sizeof(long)), left = r->p * nops(r);
	double *clock = calloc(r->p, sizeof(double)), end = 0;
	bool progress = true;

	while (left && progress) {
		progress = false;
		for (long j = 0; j < r->p; j++) {
			while (next[j] < nops(r)) {
				const struct llm_op *o = &r->ops[j * nops(r) + next[j]];
				double t = ready(r, o, j);
				long at = o->mb * vstages(r) + o->chunk * r->p + j;

				if (t < 0)
					break;
				clock[j] = (t > clock[j] ? t : clock[j]) + (o->backward ? tb : tf) / r->v;
				(o->backward ? r->bwd_end : r->fwd_end)[at] = clock[j];
				end = clock[j] > end ? clock[j] : end;
				next[j]++, left--, progress = true;
			}
		}
	}
	free(next);
	free(clock);
	return left ? -1 : end;
}

static void one_f_one_b(void)
{
	/* Warm-up p - j - 1, fewer when the micro-batches run out. */
	CHECK(llm_schedule_warmup(LLM_SCHED_1F1B, 4, 1, 8, 0) == 3);
	CHECK(llm_schedule_warmup(LLM_SCHED_1F1B, 4, 1, 8, 3) == 0);
	CHECK(llm_schedule_warmup(LLM_SCHED_1F1B, 4, 1, 2, 0) == 2);
	for (long p = 1; p <= 6; p++)
		for (long m = 1; m <= 12; m++) {
			struct run r = plan(LLM_SCHED_1F1B, p, 1, m);
			double t = makespan(&r, 1, 3);

			for (long j = 0; j < p; j++)
				CHECK(each_once(&r, j));
			/* With m >= p the steady state keeps every stage
			 * busy: (m + p - 1)(t_f + t_b). */
			if (m >= p)
				CHECK_CLOSE(t, (m + p - 1) * 4.0, 1e-12);
			else
				CHECK(t > 0);
			unplan(&r);
		}
}

static void interleaved_order(void)
{
	struct llm_op o[2 * 8 * 2];

	/* p 4, v 2, m 8: (4 - 0 - 1) 2 + (2 - 1) 4 = 10 warm-up forwards on
	 * stage 0, 4 on stage 3; all 16 when m = p. */
	CHECK(llm_schedule_warmup(LLM_SCHED_INTERLEAVED, 4, 2, 8, 0) == 10);
	CHECK(llm_schedule_warmup(LLM_SCHED_INTERLEAVED, 4, 2, 8, 3) == 4);
	CHECK(llm_schedule_warmup(LLM_SCHED_INTERLEAVED, 4, 2, 4, 1) == 8);
	/* Micro-batches 0-3 through chunk 0, then through chunk 1, then 4-7. */
	llm_schedule_ops(LLM_SCHED_INTERLEAVED, 4, 2, 8, 0, o);
	CHECK(o[0].mb == 0 && o[0].chunk == 0 && !o[0].backward);
	CHECK(o[3].mb == 3 && o[3].chunk == 0);
	CHECK(o[4].mb == 0 && o[4].chunk == 1);
	CHECK(o[8].mb == 4 && o[8].chunk == 0);
	/* After the warm-up, the first backward: micro-batch 0, last chunk. */
	CHECK(o[10].mb == 6 && o[10].chunk == 0 && !o[10].backward);
	CHECK(o[11].mb == 0 && o[11].chunk == 1 && o[11].backward);
	CHECK(o[31].mb == 7 && o[31].chunk == 0 && o[31].backward);
}

static void interleaved(void)
{
	for (long p = 2; p <= 6; p++)
		for (long v = 1; v <= 4; v++)
			for (long m = p; m <= 4 * p; m += p) {
				struct run r = plan(LLM_SCHED_INTERLEAVED, p, v, m);
				double t = makespan(&r, 1, 3);

				for (long j = 0; j < p; j++)
					CHECK(each_once(&r, j));
				CHECK(t > 0);
				CHECK_CLOSE(t, (m + (p - 1.0) / v) * 4.0, 1e-12);
				unplan(&r);
			}
}

int main(void)
{
	RUN(one_f_one_b);
	RUN(interleaved_order);
	RUN(interleaved);
	CHECK_EXIT();
}
