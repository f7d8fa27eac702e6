/* SPDX-License-Identifier: MIT */
/*
 * Host operators of a trace recorded from PyTorch that carry neither a
 * duration nor an operation count, timed from their tensors on the
 * device model (docs/chakra.md, "Operators timed from their tensors").
 */
#ifndef MC_CHAKRA_OPS_H
#define MC_CHAKRA_OPS_H

#include <stdbool.h>

#include "chakra.h"
#include "chakra_et.pb-c.h"

/* Attribute `name` of node n as a number: false if absent or no number. */
bool mc_et_attr_number(const DlasimChakra__Node *n, const char *name, double *v);

/* Give the operators of rank rk (decoded as pb[0 .. n-1]) that do work
 * their flops and bytes, once per operator nest; 0 or -1 (out of memory). */
int mc_et_time_operators(struct mc_et_rank *rk, DlasimChakra__Node **pb, int n);

#endif
