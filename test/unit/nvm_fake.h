/* SPDX-License-Identifier: MIT */
/*
 * A hand-driven NVM for unit tests of the persistent memory controller:
 * operations wait in a list until the test completes them, in the order
 * and at the times it chooses.  8 banks, page (4 KB) interleaving.
 */
#ifndef DL_TEST_NVM_FAKE_H
#define DL_TEST_NVM_FAKE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvm/ctl.h"
#include "nvm/mc.h"

#define FAKE_MAX_OPS 4096

static struct {
	double clock;
	struct pmc_op *op[FAKE_MAX_OPS];
	int nops;
	int wakes[8];
	struct nvm_ctl ctl;
} fake;

static double fake_now(void *arg)
{
	return fake.clock;
}

static void fake_issue(void *arg, struct pmc_op *op)
{
	if (fake.nops < FAKE_MAX_OPS)
		fake.op[fake.nops++] = op;
}

static int fake_bank_of(void *arg, long addr)
{
	return (int)((addr >> 12) & 7);
}

static int fake_bank_pending(void *arg, int bank)
{
	int n = 0;

	for (int i = 0; i < fake.nops; i++)
		n += fake_bank_of(arg, fake.op[i]->addr) == bank;
	return n;
}

static void fake_wake(void *arg, int core)
{
	fake.wakes[core]++;
}

static const struct pmc_env fake_env = {
	.now = fake_now, .issue = fake_issue, .banks = 8, .bank_of = fake_bank_of,
	.bank_pending = fake_bank_pending, .wake = fake_wake,
};

/* NAME.so[:opts] is $BUILD/plugins/KIND-NAME.so, test/NAME.so[:opts] is
 * $BUILD/test-plugins/NAME.so. */
static void fake_plugin(char *buf, size_t len, const char *kind, const char *name)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";

	if (strncmp(name, "test/", 5) == 0)
		snprintf(buf, len, "%s/test-plugins/%s", build, name + 5);
	else
		snprintf(buf, len, "%s/plugins/%s-%s", build, kind, name);
}

/* A controller of 4 cores with the plugins named as fake_plugin() says. */
static struct dlasim_pm_ctx *fake_open(const char *persist, const char *logalloc, int adr,
				       int staging)
{
	char p[512], l[512];
	struct pmc_config cfg = { .cores = 4, .adr = adr, .staging = staging, .logq = 32,
				  .dram_cache_bytes = 1 << 20, .dram_cache_ways = 16,
				  .dram_latency_s = 50e-9 };

	fake.clock = 0;
	fake.nops = 0;
	for (int i = 0; i < 8; i++)
		fake.wakes[i] = 0;
	fake_plugin(p, sizeof(p), "persist", persist);
	fake_plugin(l, sizeof(l), "logalloc", logalloc);
	if (nvm_ctl_open(&fake.ctl, p, l, &cfg, &fake_env, 1L << 30, 1L << 20))
		return NULL;
	return &fake.ctl.pmc;
}

static void fake_close(void)
{
	nvm_ctl_close(&fake.ctl);
}

/* Complete operation i (in issue order among those pending). */
static int fake_complete(int i)
{
	struct pmc_op *op = fake.op[i];

	for (int j = i; j + 1 < fake.nops; j++)
		fake.op[j] = fake.op[j + 1];
	fake.nops--;
	if (mc_nvm_done(&fake.ctl.pmc, op) == 0)
		return 0;
	printf("    controller: %s\n", fake.ctl.pmc.why);
	return -1;
}

/* Complete the first pending operation of `kind`: 0, 1 if there is none,
 * -1 on a violation. */
static int fake_complete_kind(enum pmc_op_kind kind)
{
	for (int i = 0; i < fake.nops; i++)
		if (fake.op[i]->kind == kind)
			return fake_complete(i);
	return 1;
}

/* Complete everything, oldest first, until nothing is pending. */
static int fake_drain(void)
{
	while (fake.nops)
		if (fake_complete(0))
			return -1;
	return 0;
}

static int fake_count(enum pmc_op_kind kind)
{
	int n = 0;

	for (int i = 0; i < fake.nops; i++)
		n += fake.op[i]->kind == kind;
	return n;
}

/* Line `line` of core `core`'s data. */
static long fake_addr(int core, int line)
{
	return (long)core << 24 | (long)line << 6;
}

#endif
