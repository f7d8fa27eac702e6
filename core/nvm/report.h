/* SPDX-License-Identifier: MIT */
/* What `dlasim nvm` prints: a run's result, and the kernels' write sets
 * (Figure 3.1), as a table, CSV or JSON; every column names its unit. */
#ifndef DL_NVM_REPORT_H
#define DL_NVM_REPORT_H

#include <stdint.h>

#include "nvmbench/kernels.h"
#include "run.h"

enum nvm_format { NVM_TABLE, NVM_CSV, NVM_JSON };

/* Write-set sizes of a kernel's transactions, in lines (Figure 3.1). */
#define NVM_WSET_BINS 5
struct nvm_wset {
	long tx;
	long bin[NVM_WSET_BINS];	/* 1-8, 9-16, 17-32, 33-64, more */
	double mean_lines;
	int max_lines;
	double share_below_32;		/* fraction of transactions < 32 lines */
	double share_below_64;
};

extern const char *const nvm_wset_bin_names[NVM_WSET_BINS];

int nvm_write_sets(const struct kernel_desc *k, int ntx, uint64_t seed, struct nvm_wset *w);
int nvm_print_write_sets(int ntx, uint64_t seed, enum nvm_format f);
void nvm_print_result(const struct nvm_result *r, enum nvm_format f);

#endif
