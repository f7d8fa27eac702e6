/* SPDX-License-Identifier: MIT */
/*
 * Host operators of a trace recorded from PyTorch that carry neither a
 * duration nor an operation count, timed from their tensors on the
 * device model (docs/chakra.md, "Operators timed from their tensors").
 */
#ifndef MC_CHAKRA_OPS_H
#define MC_CHAKRA_OPS_H

#include <stdbool.h>

#include "chakra_et.pb-c.h"

/* The work of a host operator: its flops and the bytes it moves. */
struct mc_et_work {
	bool timed;		/* an operator that stands for its nest */
	double flops, bytes;
};

/* The work of the operators pb[i] with open[i] (host operators with
 * nothing else to time them by), once per operator nest, in work[i];
 * 0, or -1 (out of memory). */
int mc_et_operator_work(DlasimChakra__Node **pb, const bool *open, int n, struct mc_et_work *work);

#endif
