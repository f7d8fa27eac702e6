/* SPDX-License-Identifier: MIT */
/*
 * study tm --plot DIR: the tables of the paper's figures drawn as
 * figures (results/plot.h; docs/figures.md), with the values the paper
 * states for a bar or point marked on it.
 */
#ifndef DL_TIER_PLOTS_H
#define DL_TIER_PLOTS_H

#include "figures.h"

/* Draw every table whose id is a figure of the paper ("figN") into dir;
 * the others (sweeps of our own) are left out.  0, or -1 reported. */
int tm_plot(const struct tm_table *t, int n, const char *dir);

#endif
