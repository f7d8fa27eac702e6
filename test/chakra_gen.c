/* SPDX-License-Identifier: MIT */
/*
 * chakra_gen: writes the Chakra execution traces dlasim ships and tests
 * with (docs/chakra.md), through protobuf-c and dlasim's own schema
 * (core/mcdla/chakra_et.proto): a length-prefixed GlobalMetadata, then
 * one length-prefixed Node per node.
 *
 *   chakra_gen chain OUT.et          compute, all-reduce, compute
 *   chakra_gen typed OUT.et TYPE FLOPS  one compute node of FLOPS whose
 *                                    attribute dtype is TYPE
 *   chakra_gen overlap OUT.et        an all-reduce beside independent compute
 *   chakra_gen memory OUT.et         compute, store, load, compute
 *   chakra_gen pipeline DIR N        DIR/pipeline.R.et, R = 0..N-1: receive,
 *                                    compute, send along the ranks
 *   chakra_gen swap DIR              two ranks that deadlock (each receives first)
 *   chakra_gen ring DIR N BYTES      DIR/ring.R.et: a ring all-reduce of BYTES
 *                                    written as sends and receives, in the
 *                                    shape of ASTRA-sim's custom-collective
 *                                    example (each receive waits for the
 *                                    rank's own send of the step)
 *   chakra_gen reorder OUT.et        two compute nodes, the first waiting
 *                                    for the second
 *   chakra_gen alltoall OUT.et BYTES one ALL_TO_ALL collective
 *   chakra_gen groups DIR BYTES      DIR/groups.R.et, 8 ranks: process
 *                                    groups of the even and of the odd
 *                                    ranks as the PyTorch converter writes
 *                                    them, an all-reduce and an all-to-all
 *                                    in each, a barrier
 *   chakra_gen transformer OUT.et [LAYERS HIDDEN HEADS SEQ BATCH]
 *                                    data-parallel training of GPT-style
 *                                    blocks, every layer's activations
 *                                    stored after forward, loaded for backward
 *   chakra_gen bad KIND OUT.et       a broken trace: cycle, coll-order,
 *                                    storage-node (type 8), gather, group-rank,
 *                                    group-no-ranks,
 *                                    unknown-group, no-comm-size,
 *                                    missing-dep, duplicate-id, truncated
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chakra_et.pb-c.h"

typedef DlasimChakra__Node node_t;

#define MAX_ATTRS 8
#define MAX_DEPS 8

struct gen {
	FILE *f;
	uint64_t next_id;
};

/* One node under construction: the message and the storage it points to. */
struct node {
	node_t n;
	DlasimChakra__AttributeProto attr[MAX_ATTRS], *attrp[MAX_ATTRS];
	uint64_t data[MAX_DEPS], ctrl[MAX_DEPS];
};

static void write_message(struct gen *g, const ProtobufCMessage *m)
{
	size_t len = protobuf_c_message_get_packed_size(m);
	uint8_t *buf = malloc(len ? len : 1), v[10];
	size_t k = 0, x = len;

	if (!buf) {
		perror("chakra_gen");
		exit(1);
	}
	protobuf_c_message_pack(m, buf);
	do {
		v[k++] = (uint8_t)((x & 0x7f) | (x > 0x7f ? 0x80 : 0));
		x >>= 7;
	} while (x);
	if (fwrite(v, 1, k, g->f) != k || fwrite(buf, 1, len, g->f) != len) {
		perror("chakra_gen: write");
		exit(1);
	}
	free(buf);
}

static void begin(struct gen *g, const char *path)
{
	DlasimChakra__GlobalMetadata m = DLASIM_CHAKRA__GLOBAL_METADATA__INIT;
	DlasimChakra__AttributeProto a = DLASIM_CHAKRA__ATTRIBUTE_PROTO__INIT, *ap = &a;

	if (!(g->f = fopen(path, "wb"))) {
		fprintf(stderr, "chakra_gen: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	g->next_id = 0;
	m.version = "0.0.4";
	a.name = "generator";
	a.value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	a.string_val = "dlasim test/chakra_gen";
	m.n_attr = 1;
	m.attr = &ap;
	write_message(g, &m.base);
}

static void end(struct gen *g)
{
	if (fclose(g->f)) {
		perror("chakra_gen: close");
		exit(1);
	}
}

static void node_init(struct gen *g, struct node *x, const char *name, DlasimChakra__NodeType type)
{
	memset(x, 0, sizeof(*x));
	dlasim_chakra__node__init(&x->n);
	x->n.id = g->next_id++;
	x->n.name = (char *)name;
	x->n.type = type;
	x->n.attr = x->attrp;
	x->n.data_deps = x->data;
	x->n.ctrl_deps = x->ctrl;
}

static DlasimChakra__AttributeProto *add_attr(struct node *x, const char *name)
{
	DlasimChakra__AttributeProto *a = &x->attr[x->n.n_attr];

	dlasim_chakra__attribute_proto__init(a);
	a->name = (char *)name;
	x->attrp[x->n.n_attr++] = a;
	return a;
}

/* The attribute types Chakra's own tools write. */
static void attr_i64(struct node *x, const char *name, int64_t v)
{
	DlasimChakra__AttributeProto *a = add_attr(x, name);

	a->value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_INT64_VAL;
	a->int64_val = v;
}

static void attr_u64(struct node *x, const char *name, uint64_t v)
{
	DlasimChakra__AttributeProto *a = add_attr(x, name);

	a->value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_UINT64_VAL;
	a->uint64_val = v;
}

static void attr_str(struct node *x, const char *name, const char *v)
{
	DlasimChakra__AttributeProto *a = add_attr(x, name);

	a->value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	a->string_val = (char *)v;
}

static void attr_i32(struct node *x, const char *name, int32_t v)
{
	DlasimChakra__AttributeProto *a = add_attr(x, name);

	a->value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_INT32_VAL;
	a->int32_val = v;
}

static void dep(struct node *x, uint64_t id)
{
	x->data[x->n.n_data_deps++] = id;
}

static void ctrl(struct node *x, uint64_t id)
{
	x->ctrl[x->n.n_ctrl_deps++] = id;
}

static uint64_t emit(struct gen *g, struct node *x)
{
	write_message(g, &x->n.base);
	return x->n.id;
}

/* ---- node makers: each returns the node's id ---- */

static uint64_t comp(struct gen *g, const char *name, double flops, double bytes, int ndeps,
		     const uint64_t *deps)
{
	struct node x;

	node_init(g, &x, name, DLASIM_CHAKRA__NODE_TYPE__COMP_NODE);
	attr_i64(&x, "num_ops", (int64_t)flops);
	attr_u64(&x, "tensor_size", (uint64_t)bytes);
	for (int i = 0; i < ndeps; i++)
		dep(&x, deps[i]);
	return emit(g, &x);
}

static uint64_t coll(struct gen *g, const char *name, DlasimChakra__CollectiveCommType type,
		     double bytes, int ndeps, const uint64_t *deps)
{
	struct node x;

	node_init(g, &x, name, DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE);
	attr_i64(&x, "comm_type", type);
	attr_i64(&x, "comm_size", (int64_t)bytes);
	for (int i = 0; i < ndeps; i++)
		dep(&x, deps[i]);
	return emit(g, &x);
}

static uint64_t mem(struct gen *g, const char *name, DlasimChakra__NodeType type, double bytes,
		    int ndeps, const uint64_t *deps, int nctrl, const uint64_t *ctrls)
{
	struct node x;

	node_init(g, &x, name, type);
	attr_u64(&x, "tensor_size", (uint64_t)bytes);
	for (int i = 0; i < ndeps; i++)
		dep(&x, deps[i]);
	for (int i = 0; i < nctrl; i++)
		ctrl(&x, ctrls[i]);
	return emit(g, &x);
}

static uint64_t p2p(struct gen *g, const char *name, DlasimChakra__NodeType type, int peer,
		    double bytes, int ndeps, const uint64_t *deps)
{
	struct node x;

	node_init(g, &x, name, type);
	attr_i64(&x, "comm_size", (int64_t)bytes);
	attr_i32(&x, type == DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE ? "comm_dst" : "comm_src", peer);
	attr_i32(&x, "comm_tag", 7);
	for (int i = 0; i < ndeps; i++)
		dep(&x, deps[i]);
	return emit(g, &x);
}

/* 2.56e11 flops: 1 ms at the device's 1.28e14 MAC/s (Table II). */
#define ONE_MS_FLOPS 2.56e11

static void gen_chain(const char *out)
{
	struct gen g;
	uint64_t a, b;

	begin(&g, out);
	a = comp(&g, "fwd", ONE_MS_FLOPS, 0, 0, NULL);
	b = coll(&g, "grad_allreduce", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE, 1.2e9, 1, &a);
	comp(&g, "update", ONE_MS_FLOPS, 0, 1, &b);
	end(&g);
}

/* One compute node of `flops` FLOPs whose attribute dtype is `type`. */
static void gen_typed(const char *out, const char *type, double flops)
{
	struct gen g;
	struct node x;

	begin(&g, out);
	node_init(&g, &x, "typed", DLASIM_CHAKRA__NODE_TYPE__COMP_NODE);
	attr_i64(&x, "num_ops", (int64_t)flops);
	attr_u64(&x, "tensor_size", 1024);
	attr_str(&x, "dtype", type);
	emit(&g, &x);
	end(&g);
}

static void gen_overlap(const char *out)
{
	struct gen g;
	uint64_t a, r, b, deps[2];

	begin(&g, out);
	a = comp(&g, "first", ONE_MS_FLOPS, 0, 0, NULL);
	r = coll(&g, "allreduce", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE, 1.2e9, 1, &a);
	b = comp(&g, "beside", 10 * ONE_MS_FLOPS, 0, 1, &a);
	deps[0] = r;
	deps[1] = b;
	comp(&g, "after", ONE_MS_FLOPS, 0, 2, deps);
	end(&g);
}

static void gen_memory(const char *out)
{
	struct gen g;
	uint64_t a, s, l;

	begin(&g, out);
	a = comp(&g, "fwd", ONE_MS_FLOPS, 0, 0, NULL);
	s = mem(&g, "stash", DLASIM_CHAKRA__NODE_TYPE__MEM_STORE_NODE, 7.5e8, 1, &a, 0, NULL);
	l = mem(&g, "fetch", DLASIM_CHAKRA__NODE_TYPE__MEM_LOAD_NODE, 7.5e8, 1, &s, 0, NULL);
	comp(&g, "bwd", ONE_MS_FLOPS, 0, 1, &l);
	end(&g);
}

static void gen_pipeline(const char *dir, int n)
{
	char path[4096];

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "chakra_gen: %s: %s\n", dir, strerror(errno));
		exit(1);
	}
	for (int r = 0; r < n; r++) {
		struct gen g;
		uint64_t last = 0;
		int has = 0;

		snprintf(path, sizeof(path), "%s/pipeline.%d.et", dir, r);
		begin(&g, path);
		if (r > 0) {
			last = p2p(&g, "recv_activations", DLASIM_CHAKRA__NODE_TYPE__COMM_RECV_NODE, r - 1,
				   7.5e8, 0, NULL);
			has = 1;
		}
		last = comp(&g, "stage", ONE_MS_FLOPS, 0, has, &last);
		if (r < n - 1)
			p2p(&g, "send_activations", DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE, r + 1, 7.5e8, 1,
			    &last);
		end(&g);
	}
}

/* Two ranks that each wait to receive before they send: a deadlock no
 * static check sees (each message has its receive). */
static void gen_swap(const char *dir)
{
	char path[4096];

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "chakra_gen: %s: %s\n", dir, strerror(errno));
		exit(1);
	}
	for (int r = 0; r < 2; r++) {
		struct gen g;
		uint64_t a;

		snprintf(path, sizeof(path), "%s/swap.%d.et", dir, r);
		begin(&g, path);
		a = p2p(&g, "recv", DLASIM_CHAKRA__NODE_TYPE__COMM_RECV_NODE, 1 - r, 1e6, 0, NULL);
		p2p(&g, "send", DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE, 1 - r, 1e6, 1, &a);
		end(&g);
	}
}

static void make_dir(const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "chakra_gen: %s: %s\n", dir, strerror(errno));
		exit(1);
	}
}

/* A send or receive of step `step` (tag), waiting for node `after` (or
 * nothing when after < 0). */
static int64_t ring_p2p(struct gen *g, DlasimChakra__NodeType type, int peer, double bytes,
			int step, int64_t after)
{
	struct node x;
	char name[64];

	snprintf(name, sizeof(name), "%s_step%d",
		 type == DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE ? "send" : "recv", step);
	node_init(g, &x, name, type);
	attr_i64(&x, "comm_size", (int64_t)bytes);
	attr_i32(&x, type == DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE ? "comm_dst" : "comm_src", peer);
	attr_i32(&x, "comm_tag", step);
	if (after >= 0)
		dep(&x, (uint64_t)after);
	return (int64_t)emit(g, &x);
}

/* 2 (N-1) steps of BYTES/N: send to r+1, then receive from r-1. */
static void gen_ring(const char *dir, int n, double bytes)
{
	char path[4096];

	make_dir(dir);
	for (int r = 0; r < n; r++) {
		struct gen g;
		int64_t last = -1;

		snprintf(path, sizeof(path), "%s/ring.%d.et", dir, r);
		begin(&g, path);
		for (int k = 0; k < 2 * (n - 1); k++) {
			last = ring_p2p(&g, DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE, (r + 1) % n,
					bytes / n, k, last);
			last = ring_p2p(&g, DLASIM_CHAKRA__NODE_TYPE__COMM_RECV_NODE, (r + n - 1) % n,
					bytes / n, k, last);
		}
		end(&g);
	}
}

/* Two compute nodes, the first waiting for the second: ASTRA-sim issues
 * whichever is ready, so the second runs first. */
static void gen_reorder(const char *out)
{
	struct gen g;
	struct node x;

	begin(&g, out);
	node_init(&g, &x, "first", DLASIM_CHAKRA__NODE_TYPE__COMP_NODE);
	attr_i64(&x, "num_ops", (int64_t)ONE_MS_FLOPS);
	dep(&x, 1);
	emit(&g, &x);
	comp(&g, "second", ONE_MS_FLOPS, 0, 0, NULL);
	end(&g);
}

static void gen_alltoall(const char *out, double bytes)
{
	struct gen g;

	begin(&g, out);
	coll(&g, "moe_dispatch", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_TO_ALL, bytes, 0, NULL);
	end(&g);
}

/* The process groups as the PyTorch converter writes them: the execution
 * trace's JSON list, as Python prints a list of one string. */
#define GROUPS_JSON \
	"['[{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"backend_config\": \"cuda:nccl\", \"pg_size\": 8, \"ranks\": []}, " \
	"{\"pg_name\": \"1\", \"pg_desc\": \"even\", \"backend_config\": \"cuda:nccl\", \"pg_size\": 4, \"ranks\": [0, 2, 4, 6]}, " \
	"{\"pg_name\": \"2\", \"pg_desc\": \"odd\", \"backend_config\": \"cuda:nccl\", \"pg_size\": 4, \"ranks\": [1, 3, 5, 7]}]']"

static uint64_t group_metadata(struct gen *g, const char *json)
{
	DlasimChakra__IOInfo in = DLASIM_CHAKRA__IOINFO__INIT;
	struct node x;

	node_init(g, &x, "## process_group:init ##", DLASIM_CHAKRA__NODE_TYPE__METADATA_NODE);
	in.values = (char *)json;
	x.n.inputs = &in;
	return emit(g, &x);
}

static uint64_t group_coll(struct gen *g, const char *name, DlasimChakra__CollectiveCommType type,
			   double bytes, const char *pg, uint64_t after)
{
	struct node x;

	node_init(g, &x, name, DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE);
	attr_i64(&x, "comm_type", type);
	attr_i64(&x, "comm_size", (int64_t)bytes);
	if (pg)
		attr_str(&x, "pg_name", pg);
	dep(&x, after);
	return emit(g, &x);
}

static void gen_groups(const char *dir, double bytes)
{
	char path[4096];

	make_dir(dir);
	for (int r = 0; r < 8; r++) {
		struct gen g;
		uint64_t a;

		snprintf(path, sizeof(path), "%s/groups.%d.et", dir, r);
		begin(&g, path);
		a = group_metadata(&g, GROUPS_JSON);
		a = group_coll(&g, "allreduce_in_group", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE,
			       bytes, r % 2 ? "2" : "1", a);
		a = group_coll(&g, "alltoall_in_group", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_TO_ALL,
			       bytes, r % 2 ? "2" : "1", a);
		group_coll(&g, "barrier", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__BARRIER, 0, "0", a);
		end(&g);
	}
}

/*
 * GPT-style transformer blocks, data-parallel, fp32 (4 bytes, as dlasim's
 * device model): per layer of hidden size h, a heads, sequence s, batch b
 * (B = b s tokens) the forward GEMMs are QKV (B x 3h x h), attention
 * (2 b s^2 h multiply-adds), projection (B x h x h) and the MLP (B x 4h x h
 * twice); a node's num_ops counts two flops per multiply-add and its
 * tensor_size the operands and result.  After a layer's forward its
 * activations (10 B h + b a s^2 elements) are stored; its backward loads
 * them once the layer above has computed its input gradients, computes
 * dX (the forward's flops) and dW (the GEMMs' flops again), and
 * all-reduces the 12 h^2 weight gradients.
 */
static void gen_transformer(const char *out, int layers, double h, double heads, double s,
			    double b)
{
	double tok = b * s, e = 4;
	double f_qkv = 2 * tok * 3 * h * h, f_att = 4 * b * s * s * h;
	double f_proj = 2 * tok * h * h, f_mlp = 2 * tok * 4 * h * h;
	double gemm = f_qkv + f_proj + 2 * f_mlp, fwd = gemm + f_att;
	double stash = e * (10 * tok * h + b * heads * s * s);
	double fwd_bytes = e * (tok * h + 3 * h * h + 3 * tok * h) +
			   e * (4 * tok * h + 2 * b * heads * s * s) +
			   e * (2 * tok * h + h * h) + 2 * e * (5 * tok * h + 4 * h * h);
	uint64_t *store = calloc(layers, sizeof(uint64_t)), *first_bwd = calloc(layers, sizeof(uint64_t));
	uint64_t prev = 0, x;
	struct gen g;
	char name[64];

	if (!store || !first_bwd) {
		perror("chakra_gen");
		exit(1);
	}
	begin(&g, out);
	for (int l = 0; l < layers; l++) {
		int has = l > 0;

		snprintf(name, sizeof(name), "layer%d.qkv", l);
		x = comp(&g, name, f_qkv, e * (tok * h + 3 * h * h + 3 * tok * h), has, &prev);
		snprintf(name, sizeof(name), "layer%d.attention", l);
		x = comp(&g, name, f_att, e * (4 * tok * h + 2 * b * heads * s * s), 1, &x);
		snprintf(name, sizeof(name), "layer%d.proj", l);
		x = comp(&g, name, f_proj, e * (2 * tok * h + h * h), 1, &x);
		snprintf(name, sizeof(name), "layer%d.mlp_up", l);
		x = comp(&g, name, f_mlp, e * (5 * tok * h + 4 * h * h), 1, &x);
		snprintf(name, sizeof(name), "layer%d.mlp_down", l);
		prev = comp(&g, name, f_mlp, e * (5 * tok * h + 4 * h * h), 1, &x);
		snprintf(name, sizeof(name), "layer%d.store_activations", l);
		store[l] = mem(&g, name, DLASIM_CHAKRA__NODE_TYPE__MEM_STORE_NODE, stash, 1, &prev, 0, NULL);
	}
	for (int l = layers - 1; l >= 0; l--) {
		uint64_t when = l == layers - 1 ? prev : first_bwd[l + 1], load, deps[2];

		snprintf(name, sizeof(name), "layer%d.load_activations", l);
		load = mem(&g, name, DLASIM_CHAKRA__NODE_TYPE__MEM_LOAD_NODE, stash, 1, &store[l], 1, &when);
		snprintf(name, sizeof(name), "layer%d.backward_input", l);
		deps[0] = load;
		deps[1] = prev;
		first_bwd[l] = prev = comp(&g, name, fwd, fwd_bytes, 2, deps);
		snprintf(name, sizeof(name), "layer%d.backward_weight", l);
		x = comp(&g, name, gemm, fwd_bytes, 1, &prev);
		snprintf(name, sizeof(name), "layer%d.grad_allreduce", l);
		coll(&g, name, DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE, e * 12 * h * h, 1, &x);
		prev = x;
	}
	end(&g);
	free(store);
	free(first_bwd);
}

static void gen_bad(const char *kind, const char *out)
{
	struct gen g;
	struct node x;
	uint64_t a;

	begin(&g, out);
	if (strcmp(kind, "cycle") == 0) {
		node_init(&g, &x, "a", DLASIM_CHAKRA__NODE_TYPE__COMP_NODE);
		dep(&x, 1);
		emit(&g, &x);
		node_init(&g, &x, "b", DLASIM_CHAKRA__NODE_TYPE__COMP_NODE);
		dep(&x, 0);
		emit(&g, &x);
	} else if (strcmp(kind, "coll-order") == 0) {
		/* The first collective waits for the second: collectives run
		 * in trace order. */
		node_init(&g, &x, "first", DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE);
		attr_i64(&x, "comm_type", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE);
		attr_i64(&x, "comm_size", 1000000);
		dep(&x, 1);
		emit(&g, &x);
		coll(&g, "second", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE, 1e6, 0, NULL);
	} else if (strcmp(kind, "storage-node") == 0) {
		node_init(&g, &x, "read_dataset", 8);
		emit(&g, &x);
	} else if (strcmp(kind, "gather") == 0) {
		coll(&g, "gather", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__GATHER, 1e6, 0, NULL);
	} else if (strcmp(kind, "group-rank") == 0) {
		a = group_metadata(&g, "['[{\"pg_name\": \"3\", \"ranks\": [0, 9]}]']");
		group_coll(&g, "allreduce", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE, 1e6, "3", a);
	} else if (strcmp(kind, "group-no-ranks") == 0) {
		a = group_metadata(&g, "['[{\"pg_name\": \"4\", \"pg_size\": 2}]']");
		group_coll(&g, "allreduce", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE, 1e6, "4", a);
	} else if (strcmp(kind, "unknown-group") == 0) {
		a = comp(&g, "fwd", ONE_MS_FLOPS, 0, 0, NULL);
		group_coll(&g, "allreduce", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE, 1e6, "5", a);
	} else if (strcmp(kind, "no-comm-size") == 0) {
		node_init(&g, &x, "allreduce", DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE);
		attr_i64(&x, "comm_type", DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE);
		emit(&g, &x);
	} else if (strcmp(kind, "missing-dep") == 0) {
		a = 41;
		comp(&g, "orphan", ONE_MS_FLOPS, 0, 1, &a);
	} else if (strcmp(kind, "duplicate-id") == 0) {
		comp(&g, "one", ONE_MS_FLOPS, 0, 0, NULL);
		g.next_id = 0;
		comp(&g, "two", ONE_MS_FLOPS, 0, 0, NULL);
	} else if (strcmp(kind, "truncated") == 0) {
		comp(&g, "whole", ONE_MS_FLOPS, 0, 0, NULL);
		fputc(0x40, g.f);	/* a 64-byte message follows... */
		fputc(0x08, g.f);	/* ...but only one byte of it does */
	} else {
		fprintf(stderr, "chakra_gen: unknown bad kind '%s'\n", kind);
		exit(2);
	}
	end(&g);
}

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "";

	if (strcmp(kind, "chain") == 0 && argc == 3)
		gen_chain(argv[2]);
	else if (strcmp(kind, "typed") == 0 && argc == 5)
		gen_typed(argv[2], argv[3], atof(argv[4]));
	else if (strcmp(kind, "overlap") == 0 && argc == 3)
		gen_overlap(argv[2]);
	else if (strcmp(kind, "memory") == 0 && argc == 3)
		gen_memory(argv[2]);
	else if (strcmp(kind, "pipeline") == 0 && argc == 4)
		gen_pipeline(argv[2], atoi(argv[3]));
	else if (strcmp(kind, "swap") == 0 && argc == 3)
		gen_swap(argv[2]);
	else if (strcmp(kind, "ring") == 0 && argc == 5)
		gen_ring(argv[2], atoi(argv[3]), atof(argv[4]));
	else if (strcmp(kind, "reorder") == 0 && argc == 3)
		gen_reorder(argv[2]);
	else if (strcmp(kind, "alltoall") == 0 && argc == 4)
		gen_alltoall(argv[2], atof(argv[3]));
	else if (strcmp(kind, "groups") == 0 && argc == 4)
		gen_groups(argv[2], atof(argv[3]));
	else if (strcmp(kind, "transformer") == 0 && argc == 3)
		gen_transformer(argv[2], 24, 1024, 16, 1024, 8);
	else if (strcmp(kind, "transformer") == 0 && argc == 8)
		gen_transformer(argv[2], atoi(argv[3]), atof(argv[4]), atof(argv[5]), atof(argv[6]),
				atof(argv[7]));
	else if (strcmp(kind, "bad") == 0 && argc == 4)
		gen_bad(argv[2], argv[3]);
	else {
		fprintf(stderr, "usage: chakra_gen chain|overlap|memory|reorder OUT.et | typed OUT.et TYPE FLOPS |\n"
				"       pipeline DIR N | swap DIR |\n"
				"       ring DIR N BYTES | alltoall OUT.et BYTES | groups DIR BYTES |\n"
				"       transformer OUT.et [LAYERS HIDDEN HEADS SEQ BATCH] | bad KIND OUT.et\n");
		return 2;
	}
	return 0;
}
