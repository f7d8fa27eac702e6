/* SPDX-License-Identifier: MIT */
/* Reading and checking Chakra execution traces (docs/chakra.md). */
#define _GNU_SOURCE
#include "chakra.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/diag.h"
#include "chakra_et.pb-c.h"
#include "chakra_attr.h"
#include "chakra_ops.h"


#define MAX_RANKS 65536

bool mc_et_is_trace(const char *path)
{
	struct stat st;
	size_t n = strlen(path);

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	return n > 3 && strcmp(path + n - 3, ".et") == 0;
}

/* ---- the file: a length-prefixed GlobalMetadata, then Nodes ---- */

static int read_whole(const char *file, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(file, "rb");
	long n;

	*buf = NULL;
	if (!f)
		return dl_err("%s: %s", file, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return dl_err("%s: cannot read: %s", file, strerror(errno));
	}
	*buf = malloc(n ? (size_t)n : 1);
	if (!*buf || fread(*buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(*buf);
		*buf = NULL;
		return dl_err("%s: cannot read", file);
	}
	fclose(f);
	*len = (size_t)n;
	return 0;
}

/* The varint length before a message; 0 on success. */
static int message_length(const uint8_t *p, size_t left, uint64_t *len, size_t *used)
{
	*len = 0;
	for (size_t i = 0; i < left && i < 10; i++) {
		*len |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*used = i + 1;
			return 0;
		}
	}
	return -1;
}

/* ---- attributes (chakra_attr.c) ---- */

/* Errors about node n of a file: "FILE: node ID 'NAME': ...". */
static int node_err(const char *file, const pb_node *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int node_err(const char *file, const pb_node *n, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dl_err("%s: node %llu '%s': %s", file, (unsigned long long)n->id, n->name, msg);
}

/* attribute `name` as a number in [min, max]: 1 found, 0 absent, -1 bad. */
static int get_number(const char *file, const pb_node *n, const char *name, double min,
		      double max, double *v)
{
	const pb_attr *a = mc_et_find_attr(n, name);

	if (!a)
		return 0;
	if (!mc_et_attr_value(a, v))
		return node_err(file, n, "attribute %s is not a number", name);
	if (!(*v >= min && *v <= max))
		return node_err(file, n, "attribute %s = %g is out of range [%g, %g]", name, *v, min, max);
	return 1;
}

/* The node types of Chakra's schema, by number. */
static const char *const type_names[] = {
	"INVALID_NODE", "METADATA_NODE", "MEM_LOAD_NODE", "MEM_STORE_NODE", "COMP_NODE",
	"COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE",
};

/* attribute `name` as a string: its value, or NULL if absent or no string. */
static const char *get_string(const pb_node *n, const char *name)
{
	const pb_attr *a = mc_et_find_attr(n, name);

	if (!a || a->value_case != DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_STRING_VAL)
		return NULL;
	return a->string_val;
}

static const char *const coll_names[] = {
	"ALL_REDUCE", "REDUCE", "ALL_GATHER", "GATHER", "SCATTER", "BROADCAST", "ALL_TO_ALL",
	"REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER",
};

static int read_collective(const char *file, const pb_node *n, struct mc_et_node *x)
{
	double type;
	int r = get_number(file, n, "comm_type", 0, 1e9, &type);

	if (r <= 0)
		return r < 0 ? -1 : node_err(file, n, "a collective needs attribute comm_type");
	switch ((int)type) {
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE: x->op = DLASIM_COLL_ALLREDUCE; break;
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_GATHER: x->op = DLASIM_COLL_ALLGATHER; break;
	/* A reduce-scatter in equal blocks is dlasim's reduce-scatter. */
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER:
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER_BLOCK:
		x->op = DLASIM_COLL_REDUCESCATTER;
		break;
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__BROADCAST: x->op = DLASIM_COLL_BROADCAST; break;
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_TO_ALL: x->op = DLASIM_COLL_ALLTOALL; break;
	/* A barrier: an all-reduce of no bytes, latencies only. */
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__BARRIER:
		x->op = DLASIM_COLL_ALLREDUCE;
		x->barrier = true;
		break;
	default:
		if (type >= 0 && type < sizeof(coll_names) / sizeof(coll_names[0]))
			return node_err(file, n, "collective %s: dlasim runs ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER(_BLOCK), BROADCAST, ALL_TO_ALL and BARRIER, not the rooted REDUCE, GATHER and SCATTER (nor does ASTRA-sim)",
					coll_names[(int)type]);
		return node_err(file, n, "comm_type %g is no Chakra collective", type);
	}
	return 0;
}

/* The bytes of a node: attribute `attr`, else `fallback` (NULL: none),
 * at least `min`.  Chakra's converters write comm_size on communication
 * nodes; its generator writes tensor_size on sends and receives. */
static int read_size(const char *file, const pb_node *n, const char *attr, const char *fallback,
		     double min, double *bytes)
{
	int r = get_number(file, n, attr, min, 1e18, bytes);

	if (r == 0 && fallback)
		r = get_number(file, n, fallback, min, 1e18, bytes);
	if (r == 0)
		return node_err(file, n, "%s needs attribute %s%s%s (bytes)", type_names[n->type], attr,
				fallback ? " or " : "", fallback ? fallback : "");
	return r < 0 ? -1 : 0;
}

/* A send's comm_dst or a receive's comm_src (`attr`, required), the other
 * end (`own`, optional: this rank, as ASTRA-sim reads it) and comm_tag. */
static int read_peer(const char *file, const pb_node *n, const char *attr, const char *own,
		     struct mc_et_node *x)
{
	double v, self = -1, tag = 0;
	int r = get_number(file, n, attr, 0, MAX_RANKS - 1, &v);

	if (r == 0)
		return node_err(file, n, "%s needs attribute %s (the %s rank)", type_names[n->type], attr,
				x->engine == MC_ET_SEND ? "receiving" : "sending");
	if (r < 0 || get_number(file, n, own, 0, MAX_RANKS - 1, &self) < 0 ||
	    get_number(file, n, "comm_tag", -2147483648.0, 4294967295.0, &tag) < 0)
		return -1;
	x->peer = (int)v;
	x->self = (int)self;
	/* ASTRA-sim reads tags as uint32; they only need to be equal. */
	x->tag = (int)(int64_t)tag;
	return 0;
}

/* ---- process groups ---- */

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return p;
}

/* After a key: the ':' and the value's start, or NULL. */
static const char *after_key(const char *p)
{
	p = skip_space(p);
	return *p == ':' ? skip_space(p + 1) : NULL;
}

static int add_group(struct mc_et_rank *rk, const char *name, size_t len, const int *rank, int n)
{
	struct mc_et_group *v = realloc(rk->group, (rk->ngroups + 1) * sizeof(*v));
	struct mc_et_group *g;

	if (!v)
		return dl_err("out of memory");
	rk->group = v;
	g = &v[rk->ngroups];
	g->name = strndup(name, len);
	g->rank = malloc((n ? n : 1) * sizeof(int));
	g->n = n;
	if (!g->name || !g->rank) {
		free(g->name);
		free(g->rank);
		return dl_err("out of memory");
	}
	memcpy(g->rank, rank, n * sizeof(int));
	rk->ngroups++;
	return 0;
}

#define MAX_GROUP_RANKS 1024

/* A JSON list of ranks at p ("[0, 2]"): how many, or -1 if it is none;
 * *after is where it ends. */
static int read_ranks(const char *p, const char **after, int *rank)
{
	int count = 0;

	if (*p != '[')
		return -1;
	for (p = skip_space(p + 1); *p != ']'; p = skip_space(p)) {
		char *stop;
		long r = strtol(p, &stop, 10);

		if (stop == p || r < 0 || r >= MAX_RANKS || count == MAX_GROUP_RANKS)
			return -1;
		rank[count++] = (int)r;
		p = skip_space(stop);
		if (*p == ',')
			p++;
	}
	*after = p;
	return count;
}

/* One group of the list: "pg_name": NAME ... "ranks": [R, ...] (before
 * `end`, the next group, if any); the position after it, or NULL after a
 * message. */
static const char *parse_group(const char *file, const pb_node *n, const char *p,
			       const char *end, struct mc_et_rank *rk)
{
	const char *name, *q;
	int rank[MAX_GROUP_RANKS], count;

	if (!(p = after_key(p))) {
		node_err(file, n, "process_group:init: a pg_name without a value");
		return NULL;
	}
	if (*p == '"') {
		name = p + 1;
		q = strchr(name, '"');
	} else {
		for (name = q = p; *q >= '0' && *q <= '9'; q++)
			;
	}
	if (!q || q == name) {
		node_err(file, n, "process_group:init: a pg_name that is no string or number");
		return NULL;
	}
	p = strstr(q, "\"ranks\"");
	if (!p || (end && p > end) || !(p = after_key(p + 7))) {
		node_err(file, n, "process group '%.*s' without a list of ranks", (int)(q - name), name);
		return NULL;
	}
	if ((count = read_ranks(p, &p, rank)) < 0) {
		node_err(file, n, "process group '%.*s': ranks are a list of up to %d ranks from 0 to %d",
			 (int)(q - name), name, MAX_GROUP_RANKS, MAX_RANKS - 1);
		return NULL;
	}
	return add_group(rk, name, (size_t)(q - name), rank, count) ? NULL : p;
}

/*
 * The process groups of a METADATA node process_group:init, as the PyTorch
 * converter writes them: its inputs' values hold the execution trace's
 * JSON list of {"pg_name": ..., "ranks": [...], ...} (backslashes of a
 * quoted string are ignored).  An empty list of ranks is every rank.
 */
static int read_groups(const char *file, const pb_node *n, struct mc_et_rank *rk)
{
	const char *v = n->inputs && n->inputs->values ? n->inputs->values : "";
	char *text = malloc(strlen(v) + 1), *o = text;
	const char *p;
	int ret = 0;

	if (!text)
		return dl_err("out of memory");
	for (; *v; v++)
		if (*v != '\\')
			*o++ = *v;
	*o = '\0';
	for (p = strstr(text, "\"pg_name\""); p; p = strstr(p, "\"pg_name\"")) {
		const char *next = strstr(p + 9, "\"pg_name\"");

		if (!(p = parse_group(file, n, p + 9, next, rk))) {
			ret = -1;
			break;
		}
	}
	free(text);
	return ret;
}

/* A compute node's data type: attribute dtype, a string (docs/chakra.md). */
static int read_dtype(const char *file, const pb_node *n, struct mc_et_node *x)
{
	const pb_attr *a = mc_et_find_attr(n, "dtype");

	if (!a)
		return 0;
	if (a->value_case != DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_STRING_VAL ||
	    dl_dtype_parse(a->string_val, &x->dtype))
		return node_err(file, n, "attribute dtype is not the string fp32, bf16, fp16 or fp8");
	x->typed = true;
	return 0;
}

static int read_node(const char *file, const pb_node *n, struct mc_et_rank *rk,
		     struct mc_et_node *x)
{
	const char *pg;
	double v;

	x->id = n->id;
	x->store = -1;
	x->duration_s = (double)n->duration_micros * 1e-6;
	if (!(x->name = strdup(n->name ? n->name : "")))
		return dl_err("out of memory");
	x->group = -1;
	x->self = -1;
	switch (n->type) {
	/* ASTRA-sim skips invalid nodes: done when their dependencies are. */
	case DLASIM_CHAKRA__NODE_TYPE__INVALID_NODE:
		x->engine = MC_ET_COMPUTE;
		x->nop = true;
		return 0;
	case DLASIM_CHAKRA__NODE_TYPE__METADATA_NODE:
		x->engine = MC_ET_COMPUTE;
		x->nop = true;
		return n->name && strstr(n->name, "process_group:init") ? read_groups(file, n, rk) : 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMP_NODE:
		x->engine = MC_ET_COMPUTE;
		if (get_number(file, n, "num_ops", 0, 1e30, &x->flops) < 0 ||
		    get_number(file, n, "tensor_size", 0, 1e30, &x->bytes) < 0 ||
		    get_number(file, n, "is_cpu_op", 0, 1, &v) < 0 || read_dtype(file, n, x))
			return -1;
		x->cpu = mc_et_find_attr(n, "is_cpu_op") && v != 0;
		/* ASTRA-sim replays host operators, one at a time. */
		if (x->cpu)
			x->engine = MC_ET_CPU;
		return 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE:
		x->engine = MC_ET_COLLECTIVE;
		if (read_collective(file, n, x) ||
		    read_size(file, n, "comm_size", "tensor_size", x->barrier ? 0 : 1, &x->bytes))
			return -1;
		if (x->barrier)
			x->bytes = 0;
		pg = get_string(n, "pg_name");
		/* "" and "0" are the default group of every rank (ASTRA-sim). */
		if (pg && *pg && strcmp(pg, "0") && !(x->pg = strdup(pg)))
			return dl_err("out of memory");
		return 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE:
		x->engine = MC_ET_SEND;
		return read_size(file, n, "comm_size", "tensor_size", 1, &x->bytes) ||
		       read_peer(file, n, "comm_dst", "comm_src", x) ? -1 : 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_RECV_NODE:
		x->engine = MC_ET_RECV;
		return read_size(file, n, "comm_size", "tensor_size", 1, &x->bytes) ||
		       read_peer(file, n, "comm_src", "comm_dst", x) ? -1 : 0;
	case DLASIM_CHAKRA__NODE_TYPE__MEM_STORE_NODE:
		x->engine = MC_ET_STORE;
		return read_size(file, n, "tensor_size", NULL, 1, &x->bytes);
	case DLASIM_CHAKRA__NODE_TYPE__MEM_LOAD_NODE:
		x->engine = MC_ET_LOAD;
		return read_size(file, n, "tensor_size", NULL, 1, &x->bytes);
	default:
		return node_err(file, n, "unknown node type %d (Chakra's schema has types 0 to 7, INVALID_NODE to COMM_COLL_NODE)",
				(int)n->type);
	}
}

/* ---- dependencies ---- */

struct id_index {
	uint64_t id;
	int index;
};

static int by_id(const void *a, const void *b)
{
	uint64_t x = ((const struct id_index *)a)->id, y = ((const struct id_index *)b)->id;

	return (x > y) - (x < y);
}

static int lookup(const struct id_index *ids, int n, uint64_t id)
{
	struct id_index key = { id, 0 }, *hit = bsearch(&key, ids, n, sizeof(*ids), by_id);

	return hit ? hit->index : -1;
}

static int add_deps(const char *file, const pb_node *n, struct mc_et_rank *rk,
		    const struct id_index *ids, int i)
{
	struct mc_et_node *x = &rk->node[i];
	size_t total = n->n_data_deps + n->n_ctrl_deps;

	x->dep = malloc((total ? total : 1) * sizeof(int));
	if (!x->dep)
		return dl_err("out of memory");
	for (size_t k = 0; k < total; k++) {
		uint64_t id = k < n->n_data_deps ? n->data_deps[k] : n->ctrl_deps[k - n->n_data_deps];
		int d = lookup(ids, rk->nnodes, id);

		if (d < 0)
			return node_err(file, n, "depends on node %llu, which the trace does not have",
					(unsigned long long)id);
		if (d == i)
			return node_err(file, n, "depends on itself");
		x->dep[x->ndeps++] = d;
		/* A load reads the store it depends on directly. */
		if (k < n->n_data_deps && x->engine == MC_ET_LOAD &&
		    rk->node[d].engine == MC_ET_STORE && x->store < 0) {
			x->store = d;
			rk->node[d].loads++;
		}
	}
	return 0;
}

/*
 * Every node must be able to start: its dependencies done and, for a
 * collective, the collectives before it done (they run in trace order;
 * the other engines take whichever node is ready first).  Kahn's
 * algorithm over both kinds of edges; what is left is waiting on itself.
 */
static int check_order(const struct mc_et_rank *rk)
{
	int n = rk->nnodes, *indeg = calloc(n ? n : 1, sizeof(int));
	int *stack = malloc((n ? n : 1) * sizeof(int)), *next = malloc((n ? n : 1) * sizeof(int));
	int *nsucc = calloc(n + 1, sizeof(int)), **succ = calloc(n ? n : 1, sizeof(int *));
	int last[MC_ET_ENGINES], top = 0, done = 0, ret = -1;

	if (!indeg || !stack || !next || !nsucc || !succ) {
		dl_err("out of memory");
		goto out;
	}
	for (int e = 0; e < MC_ET_ENGINES; e++)
		last[e] = -1;
	/* next[i]: the node after i on its engine */
	for (int i = n - 1; i >= 0; i--) {
		next[i] = -1;
		if (rk->node[i].engine != MC_ET_COLLECTIVE)
			continue;
		next[i] = last[rk->node[i].engine];
		last[rk->node[i].engine] = i;
		if (next[i] >= 0)
			indeg[next[i]]++;
	}
	for (int i = 0; i < n; i++)
		for (int k = 0; k < rk->node[i].ndeps; k++)
			nsucc[rk->node[i].dep[k]]++;
	for (int i = 0; i < n; i++) {
		if (!(succ[i] = malloc((nsucc[i] ? nsucc[i] : 1) * sizeof(int)))) {
			dl_err("out of memory");
			goto out;
		}
		nsucc[i] = 0;
	}
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < rk->node[i].ndeps; k++) {
			int d = rk->node[i].dep[k];

			succ[d][nsucc[d]++] = i;
			indeg[i]++;
		}
	}
	for (int i = 0; i < n; i++)
		if (!indeg[i])
			stack[top++] = i;
	while (top) {
		int i = stack[--top];

		done++;
		if (next[i] >= 0 && !--indeg[next[i]])
			stack[top++] = next[i];
		for (int k = 0; k < nsucc[i]; k++)
			if (!--indeg[succ[i][k]])
				stack[top++] = succ[i][k];
	}
	ret = 0;
	for (int i = 0; i < n && done < n; i++) {
		if (indeg[i]) {
			ret = dl_err("%s: node %llu '%s' can never start: it waits, through its dependencies, on itself or on a collective that comes after it (docs/chakra.md)",
				     rk->file, (unsigned long long)rk->node[i].id, rk->node[i].name);
			break;
		}
	}
out:
	for (int i = 0; succ && i < n; i++)
		free(succ[i]);
	free(succ);
	free(nsucc);
	free(next);
	free(stack);
	free(indeg);
	return ret;
}

/* ---- one file ---- */

static int collect_ids(const char *file, pb_node **pb, int n, struct id_index **out)
{
	struct id_index *ids = malloc((n ? n : 1) * sizeof(*ids));

	*out = ids;
	if (!ids)
		return dl_err("out of memory");
	for (int i = 0; i < n; i++)
		ids[i] = (struct id_index){ pb[i]->id, i };
	qsort(ids, n, sizeof(*ids), by_id);
	for (int i = 1; i < n; i++)
		if (ids[i].id == ids[i - 1].id)
			return node_err(file, pb[ids[i].index], "a second node with this id");
	return 0;
}

/* A host operator with neither a duration nor counts (a trace recorded
 * from PyTorch's execution graph 1.0.1): timed on the device model from
 * its tensors, once per nest of operators (chakra_ops.c). */
static bool untimed(const struct mc_et_node *x)
{
	return x->engine == MC_ET_CPU && x->duration_s == 0 && x->flops == 0 && x->bytes == 0;
}

static int time_operators(struct mc_et_rank *rk, pb_node **pb, int n)
{
	struct mc_et_work *work = calloc(n ? n : 1, sizeof(*work));
	bool *open = calloc(n ? n : 1, sizeof(*open));
	int ret = -1;

	if (!work || !open) {
		dl_err("out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++)
		open[i] = untimed(&rk->node[i]);
	if (mc_et_operator_work(pb, open, n, work))
		goto out;
	for (int i = 0; i < n; i++) {
		if (!work[i].timed)
			continue;
		if (!(work[i].flops <= 1e30 && work[i].bytes <= 1e30)) {
			node_err(rk->file, pb[i], "its tensors make %g flops and %g bytes (at most 1e30)",
				 work[i].flops, work[i].bytes);
			goto out;
		}
		rk->node[i].flops = work[i].flops;
		rk->node[i].bytes = work[i].bytes;
		rk->node[i].cpu = false;
		rk->node[i].engine = MC_ET_COMPUTE;
	}
	ret = 0;
out:
	free(work);
	free(open);
	return ret;
}

static int build_rank(struct mc_et_rank *rk, pb_node **pb, int n)
{
	struct id_index *ids = NULL;
	int ret = -1;

	rk->node = calloc(n ? n : 1, sizeof(*rk->node));
	if (!rk->node)
		return dl_err("out of memory");
	rk->nnodes = n;
	for (int i = 0; i < n; i++)
		if (read_node(rk->file, pb[i], rk, &rk->node[i]))
			goto out;
	if (time_operators(rk, pb, n) || collect_ids(rk->file, pb, n, &ids))
		goto out;
	for (int i = 0; i < n; i++)
		if (add_deps(rk->file, pb[i], rk, ids, i))
			goto out;
	ret = check_order(rk);
out:
	free(ids);
	return ret;
}

/* Decode every Node after the GlobalMetadata. */
static int decode(const char *file, const uint8_t *buf, size_t len, pb_node ***out, int *count)
{
	size_t at = 0;
	int n = 0, cap = 0, k = 0;
	pb_node **v = NULL;

	*out = NULL;
	*count = 0;
	while (at < len) {
		uint64_t mlen;
		size_t used;

		if (message_length(buf + at, len - at, &mlen, &used) || mlen > len - at - used) {
			dl_err("%s: message %d at byte %zu: truncated (a Chakra ET file is length-prefixed protobuf messages)",
			       file, k, at);
			goto fail;
		}
		at += used;
		if (k++ == 0) {
			DlasimChakra__GlobalMetadata *m =
				dlasim_chakra__global_metadata__unpack(NULL, mlen, buf + at);

			if (!m) {
				dl_err("%s: the first message is no Chakra GlobalMetadata", file);
				goto fail;
			}
			dlasim_chakra__global_metadata__free_unpacked(m, NULL);
		} else {
			if (n == cap) {
				pb_node **nv = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*v));

				if (!nv) {
					dl_err("out of memory");
					goto fail;
				}
				v = nv;
			}
			if (!(v[n] = dlasim_chakra__node__unpack(NULL, mlen, buf + at))) {
				dl_err("%s: message %d at byte %zu is no Chakra Node", file, k - 1, at - used);
				goto fail;
			}
			n++;
		}
		at += mlen;
	}
	if (k == 0) {
		dl_err("%s: empty file: no Chakra GlobalMetadata", file);
		goto fail;
	}
	*out = v;
	*count = n;
	return 0;
fail:
	for (int i = 0; i < n; i++)
		dlasim_chakra__node__free_unpacked(v[i], NULL);
	free(v);
	return -1;
}

static int read_rank(struct mc_et_rank *rk, const char *file)
{
	uint8_t *buf;
	size_t len = 0;
	pb_node **pb = NULL;
	int n = 0, ret = -1;

	if (!(rk->file = strdup(file)))
		return dl_err("out of memory");
	if (read_whole(file, &buf, &len))
		return -1;
	if (decode(file, buf, len, &pb, &n) == 0)
		ret = build_rank(rk, pb, n);
	for (int i = 0; i < n; i++)
		dlasim_chakra__node__free_unpacked(pb[i], NULL);
	free(pb);
	free(buf);
	return ret;
}

/* ---- a directory of NAME.R.et ---- */

/*
 * R of "NAME.R.et": 1 with *rank set; 0 for a file named otherwise; -1
 * for an R that looks like a number but is no rank dlasim holds (a sign,
 * a space, past MAX_RANKS or past a long): refused, not skipped.
 */
static int rank_of(const char *name, long *rank)
{
	size_t n = strlen(name), len;
	const char *dot, *tok;
	char *end;
	long r;

	if (n < 4 || strcmp(name + n - 3, ".et") != 0)
		return 0;
	for (dot = name + n - 4; dot > name && *dot != '.'; dot--)
		;
	if (*dot != '.' || dot == name + n - 4)
		return 0;
	tok = dot + 1;
	len = (size_t)(name + n - 3 - tok);
	if (!strchr("+-0123456789 \t", *tok))
		return 0;
	if (strspn(tok, "0123456789") != len)
		return -1;
	errno = 0;
	r = strtol(tok, &end, 10);
	if (errno == ERANGE || r >= MAX_RANKS)
		return -1;
	*rank = r;
	return 1;
}

static int list_ranks(const char *dir, char ***files, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	int n = 0;

	*files = NULL;
	*count = 0;
	if (!d)
		return dl_err("%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		long r;
		int is_rank = rank_of(e->d_name, &r);

		if (is_rank < 0) {
			dl_err("%s: %s: the rank of NAME.R.et is a number from 0 to %d", dir, e->d_name,
			       MAX_RANKS - 1);
			goto fail;
		}
		if (!is_rank)
			continue;
		if (r >= n) {
			char **nv = realloc(v, (r + 1) * sizeof(*v));

			if (!nv)
				goto oom;
			memset(nv + n, 0, (r + 1 - n) * sizeof(*v));
			v = nv;
			n = (int)r + 1;
		}
		if (v[r]) {
			dl_err("%s: two traces of rank %ld (%s and %s)", dir, r, v[r], e->d_name);
			goto fail;
		}
		if (asprintf(&v[r], "%s/%s", dir, e->d_name) < 0) {
			v[r] = NULL;
			goto oom;
		}
	}
	closedir(d);
	d = NULL;
	if (!n) {
		dl_err("%s: no per-rank trace NAME.R.et in the directory", dir);
		goto fail;
	}
	for (int r = 0; r < n; r++) {
		if (!v[r]) {
			dl_err("%s: no trace of rank %d (ranks 0 to %d expected, as NAME.R.et)", dir, r,
			       n - 1);
			goto fail;
		}
	}
	*files = v;
	*count = n;
	return 0;
oom:
	dl_err("out of memory");
fail:
	if (d)
		closedir(d);
	for (int r = 0; r < n; r++)
		free(v[r]);
	free(v);
	return -1;
}

/* ---- across ranks ---- */

/* ---- process groups across ranks ---- */

static int find_group(const struct mc_et *et, const char *name)
{
	for (int g = 0; g < et->ngroups; g++)
		if (strcmp(et->group[g].name, name) == 0)
			return g;
	return -1;
}

static bool same_ranks(const struct mc_et_group *a, const struct mc_et_group *b)
{
	return a->n == b->n && (!a->n || memcmp(a->rank, b->rank, a->n * sizeof(int)) == 0);
}

/* A group's ranks are devices of the platform, each once; none: all. */
static int check_group(const char *file, struct mc_et_group *g, int devices)
{
	for (int i = 0; i < g->n; i++) {
		if (g->rank[i] >= devices)
			return dl_err("%s: process group '%s' names rank %d, the platform has %d devices (ranks 0 to %d)",
				      file, g->name, g->rank[i], devices, devices - 1);
		for (int j = 0; j < i; j++)
			if (g->rank[j] == g->rank[i])
				return dl_err("%s: process group '%s' names rank %d twice", file, g->name,
					      g->rank[i]);
	}
	if (g->n)
		return 0;
	free(g->rank);
	if (!(g->rank = malloc(devices * sizeof(int))))
		return dl_err("out of memory");
	for (g->n = 0; g->n < devices; g->n++)
		g->rank[g->n] = g->n;
	return 0;
}

/* One list of the groups the files define; a name means the same ranks
 * in every file. */
static int merge_groups(struct mc_et *et, int devices)
{
	for (int r = 0; r < et->nranks; r++) {
		struct mc_et_rank *rk = &et->rank[r];

		for (int i = 0; i < rk->ngroups; i++) {
			struct mc_et_group *g = &rk->group[i], *v;
			int k = find_group(et, g->name);

			if (check_group(rk->file, g, devices))
				return -1;
			if (k >= 0) {
				if (!same_ranks(&et->group[k], g))
					return dl_err("%s: process group '%s' has other ranks than in an earlier file",
						      rk->file, g->name);
				continue;
			}
			if (!(v = realloc(et->group, (et->ngroups + 1) * sizeof(*v))))
				return dl_err("out of memory");
			et->group = v;
			v[et->ngroups] = *g;
			/* the list owns it now */
			*g = (struct mc_et_group){ 0 };
			et->ngroups++;
		}
	}
	return 0;
}

static bool in_group(const struct mc_et_group *g, int rank)
{
	for (int i = 0; i < g->n; i++)
		if (g->rank[i] == rank)
			return true;
	return false;
}

/* Every collective's pg_name names a group that holds the ranks running it. */
static int resolve_groups(struct mc_et *et, int devices)
{
	for (int r = 0; r < et->nranks; r++) {
		struct mc_et_rank *rk = &et->rank[r];

		for (int i = 0; i < rk->nnodes; i++) {
			struct mc_et_node *x = &rk->node[i];
			const struct mc_et_group *g;

			if (x->engine != MC_ET_COLLECTIVE || !x->pg)
				continue;
			if ((x->group = find_group(et, x->pg)) < 0)
				return dl_err("%s: node %llu '%s': pg_name '%s' names no process group (no METADATA node process_group:init defines it)",
					      rk->file, (unsigned long long)x->id, x->name, x->pg);
			g = &et->group[x->group];
			if (et->nranks == 1 && g->n != devices)
				return dl_err("%s: node %llu '%s': process group '%s' has %d of the %d ranks, but every device runs this trace (give one file per rank)",
					      rk->file, (unsigned long long)x->id, x->name, x->pg, g->n, devices);
			if (et->nranks > 1 && !in_group(g, r))
				return dl_err("%s: node %llu '%s': rank %d runs a collective of process group '%s', which does not hold it",
					      rk->file, (unsigned long long)x->id, x->name, r, x->pg);
		}
	}
	return 0;
}

/* The next collective of group g at or after node i, or nnodes. */
static int next_collective(const struct mc_et_rank *rk, int i, int g)
{
	while (i < rk->nnodes && (rk->node[i].engine != MC_ET_COLLECTIVE || rk->node[i].group != g))
		i++;
	return i;
}

/* Collectives: the ranks of a group call the group's in the same order. */
static int check_group_order(const struct mc_et *et, int devices, int g)
{
	int first = g < 0 ? 0 : et->group[g].rank[0], n = g < 0 ? devices : et->group[g].n;
	const struct mc_et_rank *r0 = mc_et_rank_of(et, first);

	for (int m = 1; m < n && et->nranks > 1; m++) {
		int who = g < 0 ? m : et->group[g].rank[m];
		const struct mc_et_rank *rk = mc_et_rank_of(et, who);
		int i = 0, j = 0;

		for (int k = 0;; k++, i++, j++) {
			i = next_collective(r0, i, g);
			j = next_collective(rk, j, g);
			if (i == r0->nnodes && j == rk->nnodes)
				break;
			if (i == r0->nnodes || j == rk->nnodes)
				return dl_err("%s: %s collectives%s%s than rank %d (%s): the ranks of a group run the same ones in the same order",
					      rk->file, i == r0->nnodes ? "more" : "fewer",
					      g < 0 ? "" : " of process group ", g < 0 ? "" : et->group[g].name,
					      first, r0->file);
			if (r0->node[i].op != rk->node[j].op || r0->node[i].bytes != rk->node[j].bytes ||
			    r0->node[i].barrier != rk->node[j].barrier)
				return dl_err("%s: node %llu '%s': collective %d differs from rank %d's node %llu '%s' (%s): the ranks of a group run the same ones in the same order",
					      rk->file, (unsigned long long)rk->node[j].id, rk->node[j].name,
					      k, first, (unsigned long long)r0->node[i].id, r0->node[i].name,
					      r0->file);
		}
	}
	return 0;
}

static int check_collectives(const struct mc_et *et, int devices)
{
	for (int g = -1; g < et->ngroups; g++)
		if (check_group_order(et, devices, g))
			return -1;
	return 0;
}

/* Point-to-point: peers exist; the sends from a to b with a tag match the
 * receives of b from a with that tag, in number and sizes, in order. */
static int check_messages(const struct mc_et *et, int devices)
{
	for (int a = 0; a < devices; a++) {
		const struct mc_et_rank *ra = mc_et_rank_of(et, a);

		for (int i = 0; i < ra->nnodes; i++) {
			const struct mc_et_node *s = &ra->node[i];
			const struct mc_et_rank *rb;
			int nth = 0, seen = 0;

			if (s->engine != MC_ET_SEND && s->engine != MC_ET_RECV)
				continue;
			if (s->self >= 0 && s->self != a && et->nranks > 1)
				return dl_err("%s: node %llu '%s' (rank %d): comm_%s %d is not this rank", ra->file,
					      (unsigned long long)s->id, s->name, a,
					      s->engine == MC_ET_SEND ? "src" : "dst", s->self);
			if (s->peer >= devices || s->peer == a)
				return dl_err("%s: node %llu '%s' (rank %d): peer rank %d is %s", ra->file,
					      (unsigned long long)s->id, s->name, a, s->peer,
					      s->peer == a ? "itself" : "not on the platform");
			if (s->engine != MC_ET_SEND)
				continue;
			for (int k = 0; k < i; k++)
				nth += ra->node[k].engine == MC_ET_SEND && ra->node[k].peer == s->peer &&
				       ra->node[k].tag == s->tag;
			rb = mc_et_rank_of(et, s->peer);
			for (int k = 0; k < rb->nnodes; k++) {
				const struct mc_et_node *q = &rb->node[k];

				if (q->engine != MC_ET_RECV || q->peer != a || q->tag != s->tag ||
				    seen++ != nth)
					continue;
				if (q->bytes != s->bytes)
					return dl_err("%s: node %llu '%s' sends %.0f bytes to rank %d, whose matching receive node %llu '%s' (%s) expects %.0f",
						      ra->file, (unsigned long long)s->id, s->name, s->bytes, s->peer,
						      (unsigned long long)q->id, q->name, rb->file, q->bytes);
				break;
			}
			if (seen <= nth)
				return dl_err("%s: node %llu '%s' (rank %d) sends to rank %d with tag %d, which has no matching receive (%s)",
					      ra->file, (unsigned long long)s->id, s->name, a, s->peer, s->tag,
					      rb->file);
		}
	}
	return 0;
}

static int count_receives(const struct mc_et *et, int devices)
{
	/* Every receive has its send: count both sides per (a, b, tag). */
	for (int b = 0; b < devices; b++) {
		const struct mc_et_rank *rb = mc_et_rank_of(et, b);

		for (int k = 0; k < rb->nnodes; k++) {
			const struct mc_et_node *q = &rb->node[k];
			const struct mc_et_rank *ra;
			int sends = 0, recvs = 0;

			if (q->engine != MC_ET_RECV)
				continue;
			ra = mc_et_rank_of(et, q->peer);
			for (int i = 0; i < ra->nnodes; i++)
				sends += ra->node[i].engine == MC_ET_SEND && ra->node[i].peer == b &&
					 ra->node[i].tag == q->tag;
			for (int i = 0; i < rb->nnodes; i++)
				recvs += rb->node[i].engine == MC_ET_RECV && rb->node[i].peer == q->peer &&
					 rb->node[i].tag == q->tag;
			if (recvs > sends)
				return dl_err("%s: node %llu '%s' (rank %d) receives from rank %d with tag %d, which sends only %d such message(s) (%s)",
					      rb->file, (unsigned long long)q->id, q->name, b, q->peer, q->tag,
					      sends, ra->file);
		}
	}
	return 0;
}

int mc_et_read(struct mc_et **out, const char *path, int devices)
{
	struct mc_et *et = calloc(1, sizeof(*et));
	char **files = NULL, *base;
	struct stat st;
	int nfiles = 0, ret = -1;

	*out = NULL;
	if (!et || !(et->path = strdup(path))) {
		free(et);
		return dl_err("out of memory");
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (list_ranks(path, &files, &nfiles))
			goto out;
		if (nfiles != devices) {
			dl_err("%s: per-rank traces of %d ranks, the platform has %d devices", path, nfiles,
			       devices);
			goto out;
		}
	} else {
		nfiles = 1;
		if (!(files = malloc(sizeof(*files))) || !(files[0] = strdup(path))) {
			dl_err("out of memory");
			goto out;
		}
	}
	et->rank = calloc(nfiles, sizeof(*et->rank));
	if (!et->rank) {
		dl_err("out of memory");
		goto out;
	}
	et->nranks = nfiles;
	for (int r = 0; r < nfiles; r++)
		if (read_rank(&et->rank[r], files[r]))
			goto out;
	if (merge_groups(et, devices) || resolve_groups(et, devices) ||
	    check_collectives(et, devices) || check_messages(et, devices) ||
	    count_receives(et, devices))
		goto out;
	for (int r = 0; r < nfiles; r++)
		for (int i = 0; i < et->rank[r].nnodes; i++)
			et->memory |= et->rank[r].node[i].engine == MC_ET_STORE ||
				      et->rank[r].node[i].engine == MC_ET_LOAD;
	base = strrchr(path, '/');
	snprintf(et->name, sizeof(et->name), "%s", base && base[1] ? base + 1 : path);
	ret = 0;
	*out = et;
out:
	for (int r = 0; r < nfiles && files; r++)
		free(files[r]);
	free(files);
	if (ret)
		mc_et_free(et);
	return ret;
}

void mc_et_free(struct mc_et *et)
{
	if (!et)
		return;
	for (int r = 0; r < et->nranks; r++) {
		for (int i = 0; i < et->rank[r].nnodes; i++) {
			free(et->rank[r].node[i].name);
			free(et->rank[r].node[i].dep);
			free(et->rank[r].node[i].pg);
		}
		for (int g = 0; g < et->rank[r].ngroups; g++) {
			free(et->rank[r].group[g].name);
			free(et->rank[r].group[g].rank);
		}
		free(et->rank[r].group);
		free(et->rank[r].node);
		free(et->rank[r].file);
	}
	for (int g = 0; g < et->ngroups; g++) {
		free(et->group[g].name);
		free(et->group[g].rank);
	}
	free(et->group);
	free(et->rank);
	free(et->path);
	free(et);
}
