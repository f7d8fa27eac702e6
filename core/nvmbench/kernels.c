/* SPDX-License-Identifier: MIT */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

const struct kernel_desc *const nvm_kernels[] = {
	&kernel_array, &kernel_btree, &kernel_rbtree, &kernel_hash, &kernel_queue,
	&kernel_tpcc, &kernel_tatp,
};
const int nvm_nkernels = sizeof(nvm_kernels) / sizeof(nvm_kernels[0]);

const struct kernel_desc *kernel_find(const char *name)
{
	for (int i = 0; i < nvm_nkernels; i++)
		if (strcmp(nvm_kernels[i]->name, name) == 0)
			return nvm_kernels[i];
	return NULL;
}

int kernel_trace(const struct kernel_desc *k, long base, uint64_t seed, int ntx,
		 struct ktrace *out)
{
	struct kheap heap;
	struct krec rec;
	struct krng rng;
	char why[256];
	void *root;
	int ret = -1;

	krng_seed(&rng, seed);
	if (kheap_init(&heap, k->heap_bytes, base, (uint32_t)krng_next(&rng)))
		return dl_err("out of memory for the %s kernel's heap", k->title);
	root = k->setup(&heap, &rng);
	if (!root) {
		kheap_free(&heap);
		return dl_err("internal error: the %s kernel does not fit its heap", k->title);
	}
	krec_init(&rec, &heap, out);
	for (int i = 0; i < ntx; i++) {
		krec_begin(&rec);
		if (k->tx(root, &rec, &rng) || krec_end(&rec)) {
			if (rec.over)
				dl_err("%s kernel: the cores' traces pass %ld operations (%ld MiB) at transaction %d of a core: use a smaller --tx (or fewer --cores)",
				       k->title, ktrace_limit(), ktrace_limit() * (long)sizeof(struct kop) >> 20, i);
			else
				dl_err("%s kernel: out of memory after %d transactions", k->title, i);
			goto out;
		}
	}
	if (k->check && !k->check(root, why, sizeof(why))) {
		dl_err("internal error: the %s kernel broke its structure: %s", k->title, why);
		goto out;
	}
	ret = 0;
out:
	krec_free(&rec);
	kheap_free(&heap);
	if (ret)
		ktrace_free(out);
	return ret;
}
