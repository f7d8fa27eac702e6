/* SPDX-License-Identifier: MIT */
/*
 * Chakra execution traces as workloads (docs/chakra.md): one .et file
 * that every device runs, or a directory of per-rank files NAME.R.et.  A
 * trace is decoded with protobuf-c against chakra_et.proto and checked
 * whole before anything runs: node types and attributes, dependencies,
 * that no node waits on one that can only come after it, and that the
 * ranks agree on their collectives and point-to-point messages.
 */
#ifndef MC_CHAKRA_H
#define MC_CHAKRA_H

#include <stdbool.h>
#include <stdint.h>

#include <dlasim/coll.h>

#include "lib/dtype.h"

/* Where a node runs: each engine of a device takes its nodes in trace
 * order, each when its dependencies are done. */
enum mc_et_engine {
	MC_ET_COMPUTE,		/* compute nodes (and metadata nodes, no time) */
	MC_ET_COLLECTIVE,	/* collectives, through the collective plugin */
	MC_ET_SEND,		/* point-to-point sends */
	MC_ET_RECV,		/* point-to-point receives */
	MC_ET_STORE,		/* memory stores to the backing store */
	MC_ET_LOAD,		/* memory loads from it */
	MC_ET_CPU,		/* host (CPU) operators: their recorded durations */
	MC_ET_ENGINES
};

struct mc_et_node {
	uint64_t id;
	char *name;
	enum mc_et_engine engine;
	bool nop;		/* metadata node: done when its dependencies are */
	int *dep;		/* indices of the nodes it waits for */
	int ndeps;
	/* compute */
	double flops;		/* num_ops, 0 if absent */
	double bytes;		/* tensor_size (compute, memory) or comm_size */
	double duration_s;	/* duration_micros */
	bool cpu;		/* is_cpu_op: runs on the host, not the device */
	/* communication */
	enum dlasim_coll_op op;
	bool barrier;		/* BARRIER: a collective of no bytes */
	char *pg;		/* collective: pg_name, NULL if none */
	int group;		/* collective: index in mc_et.group, -1: every rank */
	int peer;		/* send: comm_dst, receive: comm_src */
	int self;		/* send: comm_src, receive: comm_dst; -1 if absent */
	int tag;		/* comm_tag */
	/* memory */
	int store;		/* load: the store among its dependencies, or -1 */
	int loads;		/* store: loads reading it */
	/* compute: attribute dtype, the type its num_ops are of (docs/chakra.md) */
	bool typed;
	enum dl_dtype dtype;
};

/* A process group as the PyTorch converter writes them (METADATA node
 * process_group:init): its pg_name and its ranks, in order. */
struct mc_et_group {
	char *name;
	int *rank;
	int n;
};

struct mc_et_rank {
	char *file;
	struct mc_et_node *node;
	int nnodes;
	struct mc_et_group *group;	/* defined in this file */
	int ngroups;
};

struct mc_et {
	char *path;
	char name[64];		/* the trace's name for results */
	struct mc_et_rank *rank;
	int nranks;		/* 1: one file every device runs */
	bool memory;		/* any memory node */
	struct mc_et_group *group;	/* named by collectives */
	int ngroups;
};

/* Is `path` a Chakra workload (a .et file or a directory)? */
bool mc_et_is_trace(const char *path);

/* Read and check the trace at `path` for `devices` ranks; one message
 * naming the file (and node) on error. */
int mc_et_read(struct mc_et **out, const char *path, int devices);
void mc_et_free(struct mc_et *et);

/* The nodes rank r runs (a shared file serves every rank). */
static inline const struct mc_et_rank *mc_et_rank_of(const struct mc_et *et, int r)
{
	return &et->rank[et->nranks == 1 ? 0 : r];
}

#endif
