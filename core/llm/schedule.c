/* SPDX-License-Identifier: MIT */
/* The order of a pipeline stage's forward and backward passes. */
#include "schedule.h"

#include <string.h>

const char *llm_schedule_name(enum llm_schedule s)
{
	return s == LLM_SCHED_INTERLEAVED ? "interleaved" : "1f1b";
}

int llm_schedule_parse(const char *name, enum llm_schedule *s)
{
	if (strcmp(name, "1f1b") == 0)
		*s = LLM_SCHED_1F1B;
	else if (strcmp(name, "interleaved") == 0)
		*s = LLM_SCHED_INTERLEAVED;
	else
		return -1;
	return 0;
}

long llm_schedule_warmup(enum llm_schedule s, long p, long v, long m, long j)
{
	long warm;

	if (s == LLM_SCHED_1F1B)
		return p - j - 1 < m ? p - j - 1 : m;
	if (m == p)
		return m * v;
	warm = (p - j - 1) * 2 + (v - 1) * p;
	return warm < m * v ? warm : m * v;
}

/*
 * The k-th forward (or backward) of a stage in the interleaved schedule
 * (Megatron-LM's get_model_chunk_id): p micro-batches through chunk 0,
 * the same p through chunk 1, ..., then the next p; backward visits the
 * chunks last first.
 */
static struct llm_op nth(enum llm_schedule s, long p, long v, long k, bool backward)
{
	struct llm_op op = { .mb = k, .chunk = 0, .backward = backward };

	if (s == LLM_SCHED_INTERLEAVED) {
		op.chunk = k % (p * v) / p;
		op.mb = k / (p * v) * p + k % p;
		if (backward)
			op.chunk = v - 1 - op.chunk;
	}
	return op;
}

void llm_schedule_ops(enum llm_schedule s, long p, long v, long m, long j, struct llm_op *out)
{
	long total = m * (s == LLM_SCHED_INTERLEAVED ? v : 1);
	long warm = llm_schedule_warmup(s, p, v, m, j), n = 0, k;

	if (s == LLM_SCHED_1F1B)
		v = 1;
	for (k = 0; k < warm; k++)
		out[n++] = nth(s, p, v, k, false);
	for (k = 0; k < total - warm; k++) {
		out[n++] = nth(s, p, v, warm + k, false);
		out[n++] = nth(s, p, v, k, true);
	}
	for (k = total - warm; k < total; k++)
		out[n++] = nth(s, p, v, k, true);
}
