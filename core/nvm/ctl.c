/* SPDX-License-Identifier: MIT */
#include "ctl.h"

#include <string.h>

#include "lib/diag.h"
#include "logarea.h"
#include "pmsvc.h"

static int la_bank_of(void *arg, long addr)
{
	const struct pmc_env *env = arg;

	return env->bank_of(env->arg, addr);
}

static int la_bank_pending(void *arg, int bank)
{
	const struct pmc_env *env = arg;

	return env->bank_pending(env->arg, bank);
}

int nvm_ctl_open(struct nvm_ctl *x, const char *persist, const char *logalloc,
		 const struct pmc_config *cfg, const struct pmc_env *env, long log_first,
		 long log_bytes)
{
	struct la_nvm nvm;

	memset(x, 0, sizeof(*x));
	dl_host_api.persist = &nvm_pm_services;
	dl_host_api.log_alloc = &nvm_la_services;
	if (dl_plugin_open(&x->persist, DLASIM_KIND_PERSIST, persist, "--persist", pm_ops_ok) ||
	    dl_plugin_open(&x->logalloc, DLASIM_KIND_LOG_ALLOC, logalloc, "--log-alloc", la_ops_ok))
		goto fail;
	/* The log area asks the controller's environment about banks. */
	x->pmc.env = *env;
	nvm = (struct la_nvm){ &x->pmc.env, env->banks, la_bank_of, la_bank_pending };
	if (la_init(&x->la, x->logalloc->desc->ops, x->logalloc->state, &nvm, log_first, log_bytes))
		goto fail;
	x->la_up = true;
	if (la_start(&x->la)) {
		dl_err("--log-alloc %s: plugin '%s' failed to start on the log area of %ld bytes",
		       x->logalloc->path, x->logalloc->desc->name, log_bytes);
		goto fail;
	}
	if (pmc_init(&x->pmc, cfg, env, x->persist->desc->ops, x->persist->state, &x->la))
		goto fail;
	x->pmc_up = true;
	return 0;
fail:
	nvm_ctl_close(x);
	return -1;
}

void nvm_ctl_close(struct nvm_ctl *x)
{
	if (x->pmc_up)
		pmc_free(&x->pmc);
	if (x->la_up)
		la_free(&x->la);
	dl_plugin_close(x->persist);
	dl_plugin_close(x->logalloc);
	memset(x, 0, sizeof(*x));
}

const struct dl_plugin *nvm_ctl_culprit(const struct nvm_ctl *x)
{
	return x->pmc.culprit == PMC_LOG_ALLOC ? x->logalloc : x->persist;
}
