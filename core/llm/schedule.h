/* SPDX-License-Identifier: MIT */
/*
 * Pipeline schedules as pure functions (docs/llm.md, "Schedules"): the
 * ordered operations one stage runs in an iteration.  1F1B (Narayanan et
 * al., SC'21, Section 2.2.1) and the interleaved 1F1B of Section 2.2.2,
 * where each device holds v model chunks: chunk c of stage j is virtual
 * stage c p + j, so a micro-batch passes every device v times.
 */
#ifndef LLM_SCHEDULE_H
#define LLM_SCHEDULE_H

#include <stdbool.h>

enum llm_schedule { LLM_SCHED_1F1B, LLM_SCHED_INTERLEAVED };

struct llm_op {
	long mb;		/* micro-batch, 0 .. m - 1 */
	long chunk;		/* model chunk of the device, 0 .. v - 1 */
	bool backward;
};

const char *llm_schedule_name(enum llm_schedule s);
int llm_schedule_parse(const char *name, enum llm_schedule *s);

/* Forward passes stage j runs before its first backward (Megatron-LM's
 * num_warmup_microbatches): 1F1B min(p - j - 1, m); interleaved
 * min((p - j - 1) 2 + (v - 1) p, m v), all of them when m = p. */
long llm_schedule_warmup(enum llm_schedule s, long p, long v, long m, long j);

/* Stage j's 2 m v operations in order into out[2 m v]; v is 1 for 1F1B,
 * and the interleaved schedule needs m a multiple of p. */
void llm_schedule_ops(enum llm_schedule s, long p, long v, long m, long j, struct llm_op *out);

#endif
