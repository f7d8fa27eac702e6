/* SPDX-License-Identifier: MIT */
/*
 * A transformer workload (.llm, docs/llm.md): one `key value` per line,
 * '#' comments.  Required: layers, hidden, heads, seq, vocab, ffn;
 * optional: name, kv_heads (heads), gated_ffn (0), experts (1), topk (1),
 * dtype (bf16).
 */
#ifndef LLM_MODEL_H
#define LLM_MODEL_H

#include <stdbool.h>

enum llm_dtype { LLM_FP32, LLM_BF16, LLM_FP16, LLM_FP8 };

struct llm_model {
	char name[64];
	long layers, hidden, heads, kv_heads, seq, vocab, ffn;
	bool gated_ffn;		/* SwiGLU-style MLP: three h x f matrices */
	long experts, topk;	/* mixture of experts; 1, 1: dense */
	enum llm_dtype dtype;
};

int llm_model_read(struct llm_model *m, const char *file);
/* Bytes of one element of type t. */
double llm_dtype_bytes(enum llm_dtype t);
const char *llm_dtype_name(enum llm_dtype t);
int llm_dtype_parse(const char *s, enum llm_dtype *t);

#endif
