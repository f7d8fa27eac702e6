/* SPDX-License-Identifier: MIT */
#include "workload.h"

#include <string.h>

#include "lib/diag.h"

/* Table 3.1 (= Table 3.4): cores 0-3. */
static const struct {
	const char *name;
	const struct kernel_desc *core[4];
} mixes[NVM_MIXES] = {
	{ "mix1", { &kernel_array, &kernel_btree, &kernel_array, &kernel_btree } },
	{ "mix2", { &kernel_array, &kernel_rbtree, &kernel_array, &kernel_rbtree } },
	{ "mix3", { &kernel_array, &kernel_array, &kernel_array, &kernel_array } },
	{ "mix4", { &kernel_btree, &kernel_tpcc, &kernel_btree, &kernel_tpcc } },
	{ "mix5", { &kernel_rbtree, &kernel_rbtree, &kernel_rbtree, &kernel_rbtree } },
	{ "mix6", { &kernel_tatp, &kernel_tatp, &kernel_tatp, &kernel_tatp } },
};

const char *nvm_mix_name(int i)
{
	return i >= 0 && i < NVM_MIXES ? mixes[i].name : NULL;
}

int nvm_workload_find(struct nvm_workload *w, const char *name, int cores, const char *option)
{
	const struct kernel_desc *k = kernel_find(name);

	memset(w, 0, sizeof(*w));
	for (int i = 0; i < NVM_MIXES; i++) {
		if (strcmp(mixes[i].name, name))
			continue;
		if (cores != 4)
			return dl_err("--cores %d: %s '%s' runs on 4 cores (Table 3.1); --cores is for a kernel",
				      cores, option, name);
		w->name = mixes[i].name;
		w->cores = 4;
		memcpy(w->core, mixes[i].core, sizeof(mixes[i].core));
		return 0;
	}
	if (!k) {
		char names[256] = "";

		for (int i = 0; i < nvm_nkernels; i++) {
			strcat(names, ", ");
			strcat(names, nvm_kernels[i]->name);
		}
		return dl_err("%s '%s': not a mix (mix1 to mix6) or a kernel (%s)", option, name,
			      names + 2);
	}
	if (cores < 1 || cores > 64)
		return dl_err("--cores %d: not between 1 and 64", cores);
	w->name = k->name;
	w->cores = cores;
	for (int c = 0; c < cores; c++)
		w->core[c] = k;
	return 0;
}
