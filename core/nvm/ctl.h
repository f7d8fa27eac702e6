/* SPDX-License-Identifier: MIT */
/*
 * A persistent memory controller with its two plugins: the persist plugin
 * and the log-allocation plugin, opened, checked and wired to the
 * controller and its log area.
 */
#ifndef DL_NVM_CTL_H
#define DL_NVM_CTL_H

#include "plugin/plugin.h"
#include "pmc.h"

struct nvm_ctl {
	struct dl_plugin *persist, *logalloc;
	struct dlasim_la_ctx la;
	struct dlasim_pm_ctx pmc;
	bool la_up, pmc_up;
};

/* The log area: [first, first + bytes) of the NVM. */
int nvm_ctl_open(struct nvm_ctl *x, const char *persist, const char *logalloc,
		 const struct pmc_config *cfg, const struct pmc_env *env, long log_first,
		 long log_bytes);
void nvm_ctl_close(struct nvm_ctl *x);
/* The plugin that broke an invariant (after a call failed). */
const struct dl_plugin *nvm_ctl_culprit(const struct nvm_ctl *x);

#endif
