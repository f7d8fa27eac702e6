/* SPDX-License-Identifier: MIT */
/* Chakra nodes, length-prefixed, into one rank's trace file. */
#include "etwrite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chakra_et.pb-c.h"

#define MAX_ATTRS 6

typedef DlasimChakra__AttributeProto pb_attr;

struct node {
	DlasimChakra__Node n;
	pb_attr attr[MAX_ATTRS], *attrp[MAX_ATTRS];
	uint64_t deps[2];
};

static void put(struct llm_et *w, const ProtobufCMessage *m)
{
	size_t len = protobuf_c_message_get_packed_size(m), k = 0, x = len;
	uint8_t *buf, v[10];

	if (w->err)
		return;
	if (!(buf = malloc(len ? len : 1))) {
		w->err = ENOMEM;
		return;
	}
	protobuf_c_message_pack(m, buf);
	do {
		v[k++] = (uint8_t)((x & 0x7f) | (x > 0x7f ? 0x80 : 0));
		x >>= 7;
	} while (x);
	if (fwrite(v, 1, k, w->f) != k || fwrite(buf, 1, len, w->f) != len)
		w->err = errno ? errno : EIO;
	free(buf);
}

int llm_et_open(struct llm_et *w, const char *path, int rank)
{
	DlasimChakra__GlobalMetadata m = DLASIM_CHAKRA__GLOBAL_METADATA__INIT;
	pb_attr a = DLASIM_CHAKRA__ATTRIBUTE_PROTO__INIT, *ap = &a;

	memset(w, 0, sizeof(*w));
	w->rank = rank;
	if (!(w->f = fopen(path, "wb")))
		return -1;
	m.version = "0.0.4";
	a.name = "generator";
	a.value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	a.string_val = "dlasim llm --emit-et";
	m.n_attr = 1;
	m.attr = &ap;
	put(w, &m.base);
	return 0;
}

int llm_et_close(struct llm_et *w)
{
	int err = w->err;

	if (fflush(w->f) && !err)
		err = errno;
	if (fclose(w->f) && !err)
		err = errno;
	w->f = NULL;
	errno = err;
	return err ? -1 : 0;
}

static void start(struct llm_et *w, struct node *x, const char *name, DlasimChakra__NodeType type)
{
	memset(x, 0, sizeof(*x));
	dlasim_chakra__node__init(&x->n);
	x->n.id = w->next_id++;
	x->n.name = (char *)name;
	x->n.type = type;
	x->n.attr = x->attrp;
	x->n.data_deps = x->deps;
	if (w->has_last)
		x->deps[x->n.n_data_deps++] = w->last;
	if (w->has_extra)
		x->deps[x->n.n_data_deps++] = w->extra;
	w->has_extra = false;
}

static pb_attr *attr(struct node *x, const char *name)
{
	pb_attr *a = &x->attr[x->n.n_attr];

	dlasim_chakra__attribute_proto__init(a);
	a->name = (char *)name;
	x->attrp[x->n.n_attr++] = a;
	return a;
}

static void attr_int(struct node *x, const char *name, int64_t v)
{
	pb_attr *a = attr(x, name);

	a->value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_INT64_VAL;
	a->int64_val = v;
}

static void attr_str(struct node *x, const char *name, const char *v)
{
	pb_attr *a = attr(x, name);

	a->value_case = DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	a->string_val = (char *)v;
}

/* Writes the node; it becomes the one the next waits for. */
static uint64_t finish(struct llm_et *w, struct node *x, bool chain)
{
	put(w, &x->n.base);
	if (chain) {
		w->last = x->n.id;
		w->has_last = true;
	}
	return x->n.id;
}

void llm_et_also_wait(struct llm_et *w, uint64_t id)
{
	w->extra = id;
	w->has_extra = true;
}

void llm_et_groups(struct llm_et *w, const char *json)
{
	DlasimChakra__IOInfo in = DLASIM_CHAKRA__IOINFO__INIT;
	struct node x;

	start(w, &x, "process_group:init", DLASIM_CHAKRA__NODE_TYPE__METADATA_NODE);
	in.values = (char *)json;
	x.n.inputs = &in;
	finish(w, &x, true);
}

/* Counts are integers in Chakra's attributes. */
static int64_t whole(double v)
{
	return (int64_t)(v + 0.5);
}

void llm_et_comp(struct llm_et *w, const char *name, double flops, double bytes,
		 const char *dtype)
{
	struct node x;

	start(w, &x, name, DLASIM_CHAKRA__NODE_TYPE__COMP_NODE);
	attr_int(&x, "num_ops", whole(flops));
	attr_int(&x, "tensor_size", whole(bytes));
	attr_str(&x, "dtype", dtype);
	finish(w, &x, true);
}

static const DlasimChakra__CollectiveCommType coll_type[] = {
	[LLM_ET_ALLREDUCE] = DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_REDUCE,
	[LLM_ET_ALLGATHER] = DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_GATHER,
	[LLM_ET_REDUCESCATTER] = DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER,
	[LLM_ET_ALLTOALL] = DLASIM_CHAKRA__COLLECTIVE_COMM_TYPE__ALL_TO_ALL,
};

void llm_et_coll(struct llm_et *w, const char *name, enum llm_et_coll op, double bytes,
		 const char *pg)
{
	struct node x;

	start(w, &x, name, DLASIM_CHAKRA__NODE_TYPE__COMM_COLL_NODE);
	attr_int(&x, "comm_type", coll_type[op]);
	attr_int(&x, "comm_size", whole(bytes));
	attr_str(&x, "pg_name", pg);
	finish(w, &x, true);
}

uint64_t llm_et_send(struct llm_et *w, const char *name, double bytes, int dst, int tag)
{
	struct node x;

	start(w, &x, name, DLASIM_CHAKRA__NODE_TYPE__COMM_SEND_NODE);
	attr_int(&x, "comm_size", whole(bytes));
	attr_int(&x, "comm_src", w->rank);
	attr_int(&x, "comm_dst", dst);
	attr_int(&x, "comm_tag", tag);
	return finish(w, &x, false);
}

void llm_et_recv(struct llm_et *w, const char *name, double bytes, int src, int tag)
{
	struct node x;

	start(w, &x, name, DLASIM_CHAKRA__NODE_TYPE__COMM_RECV_NODE);
	attr_int(&x, "comm_size", whole(bytes));
	attr_int(&x, "comm_src", src);
	attr_int(&x, "comm_dst", w->rank);
	attr_int(&x, "comm_tag", tag);
	finish(w, &x, true);
}
