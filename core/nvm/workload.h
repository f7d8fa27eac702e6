/* SPDX-License-Identifier: MIT */
/*
 * What each core runs: the 4-core mixes of Table 3.1, or one kernel on
 * every core (Chapter 4's workloads).
 */
#ifndef DL_NVM_WORKLOAD_H
#define DL_NVM_WORKLOAD_H

#include "nvmbench/kernels.h"

#define NVM_MIXES 6

struct nvm_workload {
	const char *name;
	int cores;
	const struct kernel_desc *core[64];
};

/* "mix1".."mix6", or a kernel name run on `cores` cores.  -1 with a
 * message naming `option` when the name is neither. */
int nvm_workload_find(struct nvm_workload *w, const char *name, int cores, const char *option);
/* "mix1".. */
const char *nvm_mix_name(int i);

#endif
