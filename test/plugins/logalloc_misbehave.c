/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose, one way per option break=...:
 *   bank     names the wrong bank for a slot
 *   outside  gives an address outside the log area
 *   live     gives the same slot every time
 */
#include <dlasim/log_alloc.h>
#include <stdio.h>
#include <string.h>

static const struct dlasim_log_alloc_services *la;
static char mode[16];
static long next;

static long alloc(void *st, struct dlasim_la_ctx *ctx, enum dlasim_la_kind kind, int *bank)
{
	long first, bytes, addr;

	la->area(ctx, &first, &bytes);
	addr = first + (strcmp(mode, "live") ? next++ * 64 : 0);
	if (!strcmp(mode, "outside"))
		addr = first - 64;
	*bank = la->bank_of(ctx, addr);
	if (!strcmp(mode, "bank"))
		*bank = (*bank + 1) % la->banks(ctx);
	return addr;
}

static int init(const struct dlasim_host_api *host, const char *options, void **state, char *err,
		size_t errlen)
{
	char key[16];

	la = host->log_alloc;
	if (host->next_option(&options, key, sizeof(key), mode, sizeof(mode)) <= 0 ||
	    strcmp(key, "break")) {
		snprintf(err, errlen, "give break=MODE");
		return DLASIM_ERR;
	}
	return DLASIM_OK;
}

static const struct dlasim_la_ops ops = {
	.size = sizeof(ops),
	.header_blocks = 1,
	.alloc = alloc,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_LOG_ALLOC,
	.ops_version = DLASIM_LOG_ALLOC_OPS_VERSION,
	.name = "misbehave",
	.description = "test: hands out wrong log slots, chosen by break=",
	.init = init,
	.ops = &ops,
};
