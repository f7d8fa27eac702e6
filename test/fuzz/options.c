/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: plugin option strings.  The host's next_option()
 * over the whole input, then the input as the options of shipped plugins
 * ("sentinel:OPTIONS" parses them, "hbm_only:" and "ring:" refuse them)
 * through the loader's spec parsing and the plugins' init.  The plugins
 * are the plain build's (build/plugins), set in DLASIM_PLUGIN_PATH.
 */
#include "fuzz.h"

#include "plugin/plugin.h"
#include "tier/services.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!getenv("DLASIM_PLUGIN_PATH"))
		setenv("DLASIM_PLUGIN_PATH", "build/plugins", 1);
	dl_host_api.tier = &tier_services;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct { enum dlasim_plugin_kind kind; const char *name; } plugins[] = {
		{ DLASIM_KIND_TIER_PLACEMENT, "sentinel" },
		{ DLASIM_KIND_TIER_PLACEMENT, "hbm_only" },
		{ DLASIM_KIND_COLLECTIVE, "ring" },
	};
	char *s = fuzz_string(data, size), key[64], value[256], spec[4200];
	const char *cursor = s;
	int n = 0;

	if (!s)
		return 0;
	while (n++ < 10000 && dl_host_api.next_option(&cursor, key, sizeof(key), value,
						       sizeof(value)) > 0)
		if (strlen(key) >= sizeof(key) || strlen(value) >= sizeof(value))
			__builtin_trap();
	/* A '/' would make the spec a path: only the shipped plugins load. */
	if (!strchr(s, '/') && size < 4096) {
		for (size_t k = 0; k < sizeof(plugins) / sizeof(plugins[0]); k++) {
			struct dl_plugin *p;

			snprintf(spec, sizeof(spec), "%s:%s", plugins[k].name, s);
			if (dl_plugin_open(&p, plugins[k].kind, spec, "--policy", NULL) == 0)
				dl_plugin_close(p);
		}
	}
	free(s);
	return 0;
}
