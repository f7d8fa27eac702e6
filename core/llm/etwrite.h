/* SPDX-License-Identifier: MIT */
/*
 * A Chakra execution trace written node by node (docs/chakra.md): a
 * length-prefixed GlobalMetadata, then one length-prefixed Node each,
 * through protobuf-c and core/mcdla/chakra_et.proto.  Each node waits
 * for the writer's `last` node (data dependency) unless said otherwise.
 */
#ifndef LLM_ETWRITE_H
#define LLM_ETWRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum llm_et_coll { LLM_ET_ALLREDUCE, LLM_ET_ALLGATHER, LLM_ET_REDUCESCATTER, LLM_ET_ALLTOALL };

struct llm_et {
	FILE *f;
	int err;		/* errno of the first failed write, 0: none */
	uint64_t next_id;
	uint64_t last;		/* the node the next one waits for */
	bool has_last;
	uint64_t extra;		/* a second node the next one waits for */
	bool has_extra;
	int rank;
};

/* Open `path` and write the GlobalMetadata; -1 with errno set. */
int llm_et_open(struct llm_et *w, const char *path, int rank);
/* Close; -1 with errno set if any write or the close failed. */
int llm_et_close(struct llm_et *w);

/* process_group:init: `json` lists the groups as PyTorch's converter does. */
void llm_et_groups(struct llm_et *w, const char *json);
/* Compute of `flops` in type `dtype`, moving `bytes` from memory. */
void llm_et_comp(struct llm_et *w, const char *name, double flops, double bytes,
		 const char *dtype);
/* A collective of `bytes` (the whole buffer) on process group `pg`. */
void llm_et_coll(struct llm_et *w, const char *name, enum llm_et_coll op, double bytes,
		 const char *pg);
/* A send to rank `dst`: returns its id; the next node does not wait for
 * it (a send is asynchronous). */
uint64_t llm_et_send(struct llm_et *w, const char *name, double bytes, int dst, int tag);
void llm_et_recv(struct llm_et *w, const char *name, double bytes, int src, int tag);
/* Make the next node also wait for node `id`. */
void llm_et_also_wait(struct llm_et *w, uint64_t id);

#endif
