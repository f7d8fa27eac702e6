/* SPDX-License-Identifier: MIT */
/*
 * A workload as the NNA runs it: compute layers (conv, depthwise conv,
 * fully connected) with their fused operators, and the tensors between
 * them.  Normalisation, activation and pooling are fused into the layer
 * producing their input; a residual add is fused into the later of the
 * layers it adds, which reads the other operand as a skip tensor
 * (docs/nna.md, "Fusion").
 */
#ifndef NNA_NET_H
#define NNA_NET_H

#include <dlasim/dataflow.h>

#define NNA_MAX_POOLS 4

/* Layer classes by input channels (Section 5.2.2). */
enum nna_class { NNA_NARROW, NNA_MEDIUM, NNA_WIDE, NNA_WIDER, NNA_CLASSES };

/* Along the rows, then along the columns. */
struct nna_pool {
	int kernel, stride, pad;
	int kernel_w, stride_w, pad_w;
};

struct nna_layer {
	const char *name;		/* the workload's */
	int line;			/* of the workload file */
	enum dlasim_df_kind kind;
	int H, W, C;			/* IFMAP */
	int K, R, S, stride, pad;	/* stride, pad: along the rows (the
					 * columns' are in Q; a band holds whole rows) */
	int P, Q;			/* conv output, before pooling */
	int in;				/* tensor read */
	int skip;			/* tensor added in (residual), or -1 */
	int out;			/* tensor written */
	int npools;
	struct nna_pool pool[NNA_MAX_POOLS];	/* fused, in order */
	enum nna_class cls;
};

struct nna_tensor {
	int H, W, C;			/* as stored (after fused pooling) */
	int producer;			/* layer, or -1 for a network input */
	int last_reader;		/* last layer reading it (in or skip), -1 if none */
	const char *name;		/* the workload layer it is the output of */
};

struct nna_net {
	const char *file;
	const char *name;
	struct nna_layer *layer;
	int nlayers;
	struct nna_tensor *tensor;
	int ntensors;
	struct mc_workload *w;		/* owns the names */
};

/* Read `file` and fuse it; one message naming file:line on error. */
int nna_net_read(struct nna_net *net, const char *file);
void nna_net_free(struct nna_net *net);

enum nna_class nna_class_of(int channels);
const char *nna_class_name(enum nna_class c);

/* Output rows after the layer's fused pools, and the last conv output
 * row that final row j depends on. */
int nna_pooled_rows(const struct nna_layer *l);
int nna_pooled_cols(const struct nna_layer *l);
int nna_last_conv_row(const struct nna_layer *l, int j);

#endif
