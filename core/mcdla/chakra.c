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

typedef DlasimChakra__Node pb_node;
typedef DlasimChakra__Attribute pb_attr;

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

/* ---- attributes ---- */

static const pb_attr *find_attr(const pb_node *n, const char *name)
{
	for (size_t i = 0; i < n->n_attr; i++)
		if (n->attr[i]->name && strcmp(n->attr[i]->name, name) == 0)
			return n->attr[i];
	return NULL;
}

/* A number from any numeric member of the one-of; false if none. */
static bool attr_number(const pb_attr *a, double *v)
{
	switch (a->value_case) {
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_DOUBLE_VAL: *v = a->double_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_FLOAT_VAL: *v = a->float_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_INT32_VAL: *v = a->int32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_INT64_VAL: *v = (double)a->int64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_UINT32_VAL: *v = a->uint32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_UINT64_VAL: *v = (double)a->uint64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_SINT32_VAL: *v = a->sint32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_SINT64_VAL: *v = (double)a->sint64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_FIXED32_VAL: *v = a->fixed32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_FIXED64_VAL: *v = (double)a->fixed64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_SFIXED32_VAL: *v = a->sfixed32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_SFIXED64_VAL: *v = (double)a->sfixed64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE__VALUE_BOOL_VAL: *v = a->bool_val; return true;
	default: return false;
	}
}

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
	const pb_attr *a = find_attr(n, name);

	if (!a)
		return 0;
	if (!attr_number(a, v))
		return node_err(file, n, "attribute %s is not a number", name);
	if (!(*v >= min && *v <= max))
		return node_err(file, n, "attribute %s = %g is out of range [%g, %g]", name, *v, min, max);
	return 1;
}

static const char *const type_names[] = {
	"INVALID_NODE", "METADATA_NODE", "MEM_LOAD_NODE", "MEM_STORE_NODE", "COMP_NODE",
	"COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE", "STORAGE_NODE", "BATCH_NODE",
	"CHECKPOINT_NODE",
};

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
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER: x->op = DLASIM_COLL_REDUCESCATTER; break;
	case DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__BROADCAST: x->op = DLASIM_COLL_BROADCAST; break;
	default:
		if (type >= 0 && type < sizeof(coll_names) / sizeof(coll_names[0]))
			return node_err(file, n, "collective %s: dlasim's collective plugins run ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER and BROADCAST",
					coll_names[(int)type]);
		return node_err(file, n, "comm_type %g is no Chakra collective", type);
	}
	return 0;
}

/* comm_size or tensor_size, required, in bytes > 0. */
static int read_size(const char *file, const pb_node *n, const char *attr, double *bytes)
{
	int r = get_number(file, n, attr, 1, 1e18, bytes);

	if (r == 0)
		return node_err(file, n, "%s needs attribute %s (bytes)", type_names[n->type], attr);
	return r < 0 ? -1 : 0;
}

static int read_peer(const char *file, const pb_node *n, const char *attr, struct mc_et_node *x)
{
	double v, tag = 0;
	int r = get_number(file, n, attr, 0, MAX_RANKS - 1, &v);

	if (r == 0)
		return node_err(file, n, "%s needs attribute %s (a rank)", type_names[n->type], attr);
	if (r < 0 || get_number(file, n, "comm_tag", -2147483648.0, 2147483647.0, &tag) < 0)
		return -1;
	x->peer = (int)v;
	x->tag = (int)tag;
	return 0;
}

static int read_node(const char *file, const pb_node *n, struct mc_et_node *x)
{
	double v;

	x->id = n->id;
	x->store = -1;
	x->duration_s = (double)n->duration_micros * 1e-6;
	if (!(x->name = strdup(n->name ? n->name : "")))
		return dl_err("out of memory");
	switch (n->type) {
	case DLASIM_CHAKRA__NODE_TYPE__METADATA_NODE:
		x->engine = MC_ET_COMPUTE;
		x->nop = true;
		return 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMP_NODE:
		x->engine = MC_ET_COMPUTE;
		if (get_number(file, n, "num_ops", 0, 1e30, &x->flops) < 0 ||
		    get_number(file, n, "tensor_size", 0, 1e30, &x->bytes) < 0 ||
		    get_number(file, n, "is_cpu_op", 0, 1, &v) < 0)
			return -1;
		x->cpu = find_attr(n, "is_cpu_op") && v != 0;
		return 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE:
		x->engine = MC_ET_COLLECTIVE;
		return read_collective(file, n, x) || read_size(file, n, "comm_size", &x->bytes) ? -1 : 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE:
		x->engine = MC_ET_SEND;
		return read_size(file, n, "comm_size", &x->bytes) || read_peer(file, n, "comm_dst", x) ? -1 : 0;
	case DLASIM_CHAKRA__NODE_TYPE__COMM_RECV_NODE:
		x->engine = MC_ET_RECV;
		return read_size(file, n, "comm_size", &x->bytes) || read_peer(file, n, "comm_src", x) ? -1 : 0;
	case DLASIM_CHAKRA__NODE_TYPE__MEM_STORE_NODE:
		x->engine = MC_ET_STORE;
		return read_size(file, n, "tensor_size", &x->bytes);
	case DLASIM_CHAKRA__NODE_TYPE__MEM_LOAD_NODE:
		x->engine = MC_ET_LOAD;
		return read_size(file, n, "tensor_size", &x->bytes);
	default:
		if (n->type >= 0 && (size_t)n->type < sizeof(type_names) / sizeof(type_names[0]))
			return node_err(file, n, "node type %s is not one dlasim runs (docs/chakra.md)",
					type_names[n->type]);
		return node_err(file, n, "unknown node type %d", (int)n->type);
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
 * Every node must be able to start: its dependencies done and the nodes
 * before it on its engine done.  Kahn's algorithm over both kinds of
 * edges; what is left is waiting on itself.
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
			ret = dl_err("%s: node %llu '%s' can never start: it waits, through its dependencies, on itself or on a node that comes after it on its engine (docs/chakra.md)",
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

static int build_rank(struct mc_et_rank *rk, pb_node **pb, int n)
{
	struct id_index *ids = NULL;
	int ret = -1;

	rk->node = calloc(n ? n : 1, sizeof(*rk->node));
	if (!rk->node)
		return dl_err("out of memory");
	rk->nnodes = n;
	for (int i = 0; i < n; i++)
		if (read_node(rk->file, pb[i], &rk->node[i]))
			goto out;
	if (collect_ids(rk->file, pb, n, &ids))
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

/* R of "NAME.R.et", or -1. */
static long rank_of(const char *name)
{
	size_t n = strlen(name);
	const char *dot;
	char *end;
	long r;

	if (n < 4 || strcmp(name + n - 3, ".et") != 0)
		return -1;
	for (dot = name + n - 4; dot > name && *dot != '.'; dot--)
		;
	if (*dot != '.' || dot == name + n - 4)
		return -1;
	r = strtol(dot + 1, &end, 10);
	return end == name + n - 3 && r >= 0 && r < MAX_RANKS ? r : -1;
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
		long r = rank_of(e->d_name);

		if (r < 0)
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

/* Collectives: every rank calls the same ones in the same order. */
static int check_collectives(const struct mc_et *et)
{
	const struct mc_et_rank *r0 = &et->rank[0];

	for (int r = 1; r < et->nranks; r++) {
		const struct mc_et_rank *rk = &et->rank[r];
		int i = 0, j = 0, k = 0;

		for (;; k++) {
			while (i < r0->nnodes && r0->node[i].engine != MC_ET_COLLECTIVE)
				i++;
			while (j < rk->nnodes && rk->node[j].engine != MC_ET_COLLECTIVE)
				j++;
			if (i == r0->nnodes && j == rk->nnodes)
				break;
			if (i == r0->nnodes || j == rk->nnodes)
				return dl_err("%s: %s collectives than rank 0 (%s): every rank runs the same ones in the same order",
					      rk->file, i == r0->nnodes ? "more" : "fewer", r0->file);
			if (r0->node[i].op != rk->node[j].op || r0->node[i].bytes != rk->node[j].bytes)
				return dl_err("%s: node %llu '%s': collective %d differs from rank 0's node %llu '%s' (%s): every rank runs the same ones in the same order",
					      rk->file, (unsigned long long)rk->node[j].id, rk->node[j].name,
					      k, (unsigned long long)r0->node[i].id, r0->node[i].name, r0->file);
			i++;
			j++;
		}
	}
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
	if (check_collectives(et) || check_messages(et, devices) || count_receives(et, devices))
		goto out;
	for (int r = 0; r < nfiles; r++)
		for (int i = 0; i < et->rank[r].nnodes; i++)
			et->memory |= et->rank[r].node[i].engine >= MC_ET_STORE;
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
		}
		free(et->rank[r].node);
		free(et->rank[r].file);
	}
	free(et->rank);
	free(et->path);
	free(et);
}
