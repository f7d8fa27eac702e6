/* SPDX-License-Identifier: MIT */
/*
 * Host operators timed from their tensors (docs/chakra.md).  A trace
 * converted from PyTorch's execution graph of schema 1.0.1 records every
 * operator, nested ones included (aten::linear calls aten::t and
 * aten::addmm), with neither a duration nor an operation count, only the
 * tensors in its inputs and outputs.  The nesting is rebuilt from the
 * order of entry (rf_id) and of exit (the node id): within a thread, B is
 * inside A iff A entered before B and left after it.  Each nest is
 * counted once: an operator that does work is timed, with its whole
 * subtree, unless a working operator inside it writes its output (then
 * the inner ones are timed instead); views, allocations and non-aten
 * wrappers do no work.
 */
#define _GNU_SOURCE
#include "chakra_ops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "chakra_attr.h"

#define MAX_OUT 16		/* output tensors followed per operator */

struct op {
	int node;		/* index in the rank's nodes */
	uint64_t id, rf, tid;
	int parent;		/* index in the op array, -1: none */
	bool work;		/* an operator that computes or moves data */
	bool gemm;		/* 2 M N K flops */
	bool init;		/* fill_ / zero_: initialises a tensor */
	bool delegated;		/* a working operator inside writes its output */
	bool timed;		/* this operator or one around it is timed */
	uint64_t out[MAX_OUT];	/* storages of its output tensors */
	int nout;
	double in_bytes, out_bytes, out_elems;
};

/* Operators that only make views, allocate or convert in place of
 * nothing: no time, no bytes (their tensors alias their inputs). */
static const char *const no_work[] = {
	"as_strided", "view", "_reshape_alias", "reshape", "_unsafe_view", "t",
	"transpose", "expand", "expand_as", "select", "slice", "narrow", "split",
	"split_with_sizes", "chunk", "unbind", "resolve_conj", "resolve_neg",
	"alias", "squeeze", "unsqueeze", "permute", "contiguous", "detach",
	"view_as", "flatten", "unflatten", "diagonal", "empty", "empty_like",
	"empty_strided", "resize_", "to", "lift_fresh", "numpy_T", "unfold",
	"_has_compatible_shallow_copy_type", "set_", "is_same_size",
};

static const char *const gemms[] = {
	"mm", "addmm", "bmm", "baddbmm", "addbmm", "matmul", "linear",
};

static bool in_list(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

static bool is_conv(const char *op)
{
	return strstr(op, "conv") && !strstr(op, "backward");
}

static void classify(struct op *o, const char *name)
{
	const char *op;

	if (strncmp(name, "aten::", 6))
		return;		/* autograd and optimizer wrappers */
	op = name + 6;
	if (in_list(op, no_work, sizeof(no_work) / sizeof(no_work[0])))
		return;
	o->work = true;
	o->gemm = in_list(op, gemms, sizeof(gemms) / sizeof(gemms[0])) || is_conv(op);
	o->init = strcmp(op, "fill_") == 0 || strcmp(op, "zero_") == 0;
}

/*
 * The tensors of an IOInfo values string: every [id, storage, offset,
 * elements, element bytes, 'device'] in it.  Adds their bytes and
 * elements; keeps the storages of up to MAX_OUT when `st` is given.
 */
static void scan_tensors(const char *s, double *bytes, double *elems, uint64_t *st, int *nst)
{
	for (const char *p = s ? strchr(s, '[') : NULL; p; p = strchr(p + 1, '[')) {
		uint64_t v[5];
		char q = 0;

		if (sscanf(p, "[%" SCNu64 " ,%" SCNu64 " ,%" SCNu64 " ,%" SCNu64 " ,%" SCNu64 " , %c",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &q) != 6 || q != '\'')
			continue;
		*bytes += (double)v[3] * (double)(v[4] ? v[4] : 4);
		*elems += (double)v[3];
		if (st && *nst < MAX_OUT)
			st[(*nst)++] = v[1];
	}
}

/* The `i`-th element of a top-level list "[a, b, ...]": its start, or NULL. */
static const char *list_item(const char *s, int i)
{
	int depth = 0;

	for (const char *p = s; p && *p; p++) {
		if (*p == '[' && ++depth == 2 && i == 0)
			return p;
		if (*p == ']')
			depth--;
		if (*p == ',' && depth == 1 && --i < 0)
			return NULL;
	}
	return NULL;
}

/* The dimensions of a flat shape "[d0, d1, ...]" at s: their count. */
static int shape_dims(const char *s, long *dim, int max)
{
	int n = 0;
	char *end;

	if (!s || *s != '[')
		return 0;
	for (s++; n < max; s = end + 1) {
		dim[n] = strtol(s, &end, 10);
		if (end == s)
			return 0;
		n++;
		while (*end == ' ')
			end++;
		if (*end == ']')
			return n;
		if (*end != ',')
			return 0;
	}
	return 0;
}

/*
 * The reduction length K of a GEMM from its input shapes: the last
 * dimension of its first operand (input 1 of addmm, baddbmm, addbmm,
 * whose input 0 is the added term), or for a convolution the weight's
 * (input 1) dimensions past the output channels.  0 if not recorded.
 */
static double gemm_k(const char *name, const char *shapes)
{
	const char *op = name + 6;
	long dim[8];
	int n;
	double k = 1;

	if (is_conv(op)) {
		n = shape_dims(list_item(shapes, 1), dim, 8);
		for (int i = 1; i < n; i++)
			k *= (double)dim[i];
		return n > 1 ? k : 0;
	}
	n = shape_dims(list_item(shapes, strncmp(op, "add", 3) && strncmp(op, "badd", 4) ? 0 : 1), dim, 8);
	return n > 0 ? (double)dim[n - 1] : 0;
}

/* Entry order and thread: false if the operator has no rf_id. */
static bool entry(const DlasimChakra__Node *n, double *rf, double *tid)
{
	if (!mc_et_attr_number(n, "rf_id", rf))
		return false;
	if (!mc_et_attr_number(n, "tid", tid))
		*tid = 0;
	return true;
}

static int by_entry(const void *a, const void *b)
{
	const struct op *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->rf < y->rf ? -1 : x->rf > y->rf;
}

/* Parents from entry and exit order: the innermost open operator whose
 * exit (id) comes after this one's.  Sorted by entry, so parents first. */
static int nest(struct op *op, int n)
{
	int *open = malloc(sizeof(*open) * (n ? n : 1)), top = 0;

	if (!open)
		return dl_err("out of memory");
	for (int i = 0; i < n; i++) {
		while (top && (op[open[top - 1]].tid != op[i].tid || op[open[top - 1]].id < op[i].id))
			top--;
		op[i].parent = top ? open[top - 1] : -1;
		open[top++] = i;
	}
	free(open);
	return 0;
}

static bool writes_output(const struct op *d, const struct op *p)
{
	if (p->gemm)
		return d->gemm;	/* a GEMM's own copies (addmm's bias) are its work */
	for (int i = 0; i < d->nout; i++)
		for (int j = 0; j < p->nout; j++)
			if (d->out[i] == p->out[j])
				return true;
	return false;
}

/* Mark every operator that a working operator inside it stands for. */
static void delegate(struct op *op, int n)
{
	for (int i = 0; i < n; i++) {
		if (!op[i].work || op[i].init)
			continue;
		for (int p = op[i].parent; p >= 0; p = op[p].parent)
			if (op[p].work && writes_output(&op[i], &op[p]))
				op[p].delegated = true;
	}
}

static void time_op(struct mc_et_work *w, const struct op *o, const DlasimChakra__Node *n)
{
	double k = o->gemm ? gemm_k(n->name, n->inputs ? n->inputs->shapes : NULL) : 0;

	w->timed = true;
	w->flops = o->gemm && k > 0 ? 2 * o->out_elems * k : o->out_elems;
	w->bytes = o->in_bytes + o->out_bytes;
}

static int collect(DlasimChakra__Node **pb, const bool *open, int n, struct op **out, int *count)
{
	struct op *op = calloc(n ? n : 1, sizeof(*op));
	double rf, tid, e = 0;
	int k = 0;

	if (!op)
		return dl_err("out of memory");
	for (int i = 0; i < n; i++) {
		struct op *o = &op[k];

		if (!open[i] || !entry(pb[i], &rf, &tid))
			continue;
		*o = (struct op){ .node = i, .id = pb[i]->id, .rf = (uint64_t)rf, .tid = (uint64_t)tid };
		classify(o, pb[i]->name ? pb[i]->name : "");
		if (pb[i]->inputs)
			scan_tensors(pb[i]->inputs->values, &o->in_bytes, &e, NULL, NULL);
		if (pb[i]->outputs)
			scan_tensors(pb[i]->outputs->values, &o->out_bytes, &o->out_elems, o->out, &o->nout);
		k++;
	}
	*out = op;
	*count = k;
	return 0;
}

int mc_et_operator_work(DlasimChakra__Node **pb, const bool *open, int n, struct mc_et_work *work)
{
	struct op *op = NULL;
	int k = 0;

	if (collect(pb, open, n, &op, &k))
		return -1;
	qsort(op, k, sizeof(*op), by_entry);
	if (nest(op, k)) {
		free(op);
		return -1;
	}
	delegate(op, k);
	for (int i = 0; i < k; i++) {
		int p = op[i].parent;

		if (p >= 0 && op[p].timed) {
			op[i].timed = true;	/* inside a timed operator */
			continue;
		}
		if (!op[i].work || op[i].delegated)
			continue;
		op[i].timed = true;
		time_op(&work[op[i].node], &op[i], pb[op[i].node]);
	}
	free(op);
	return 0;
}
