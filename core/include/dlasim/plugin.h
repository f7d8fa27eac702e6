/* SPDX-License-Identifier: MIT */
/*
 * dlasim plugin ABI.
 *
 * A plugin is a shared object exporting exactly one symbol, the const
 * descriptor `dlasim_plugin` (use DLASIM_PLUGIN_EXPORT).  The host reads
 * `abi_version` before anything else and refuses a mismatch, then checks
 * `kind` and `ops_version`, then calls `init`.
 *
 * The host hands its services to the plugin as a struct of function
 * pointers (struct dlasim_host_api), so plugins need no symbol from the
 * executable and are linked with -Wl,-z,defs.  Rules that keep the ABI
 * growing without breaking:
 *   - struct dlasim_host_api and every kind's ops/services struct only ever
 *     gain members at their end;
 *   - the host fills `size` with sizeof() of the struct it was built with,
 *     so a plugin can test whether a newer member exists
 *     (DLASIM_HAS_MEMBER);
 *   - DLASIM_ABI_VERSION changes only if an existing member changes.
 */
#ifndef DLASIM_PLUGIN_H
#define DLASIM_PLUGIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_ABI_VERSION 1u

/* The symbol every plugin exports. */
#define DLASIM_PLUGIN_SYMBOL "dlasim_plugin"

/* Kinds of policy a plugin can implement.  New kinds are appended. */
enum dlasim_plugin_kind {
	DLASIM_KIND_COLLECTIVE = 1,	/* collective communication algorithm */
	DLASIM_KIND_PAGE_ALLOC = 2,	/* page allocation across memory-nodes */
	DLASIM_KIND_TIER_PLACEMENT = 3,	/* HBM / flash tier placement */
	DLASIM_KIND_DATAFLOW = 4,	/* NNA loop order / tile steps */
	DLASIM_KIND_DRAM_PLACEMENT = 5,	/* NNA data tiles on DRAM banks */
	DLASIM_KIND_PERSIST = 6,	/* NVM persistence logging */
	DLASIM_KIND_LOG_ALLOC = 7,	/* NVM log-entry allocation */
};

enum dlasim_log_level {
	DLASIM_LOG_DEBUG = 0,
	DLASIM_LOG_INFO = 1,
	DLASIM_LOG_WARNING = 2,
	DLASIM_LOG_ERROR = 3,
};

/* Return codes of plugin callbacks. */
#define DLASIM_OK 0
#define DLASIM_ERR (-1)

struct dlasim_coll_services;
struct dlasim_page_services;
struct dlasim_tier_services;
struct dlasim_dataflow_services;
struct dlasim_dram_services;
struct dlasim_persist_services;
struct dlasim_log_alloc_services;

/*
 * Services of the host, valid from init() until fini() returns.
 * Functions that only make sense inside the simulation (now, sleep) must be
 * called from a policy callback, which always runs inside a SimGrid actor.
 */
struct dlasim_host_api {
	unsigned abi_version;	/* DLASIM_ABI_VERSION of the host */
	size_t size;		/* sizeof(struct dlasim_host_api) in the host */

	/* Diagnostics, prefixed with the plugin name by the host. */
	void (*log)(enum dlasim_log_level level, const char *plugin,
		    const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

	/* Simulated clock, in seconds. */
	double (*now)(void);
	/* Suspend the calling actor for `seconds` of simulated time. */
	void (*sleep)(double seconds);

	/* Kind-specific services (NULL when the host has none of that kind). */
	const struct dlasim_coll_services *coll;
	const struct dlasim_page_services *page;
	const struct dlasim_tier_services *tier;

	/*
	 * Option strings ("key=value,key=value") as given after ':' in a
	 * plugin argument.  next_option() copies the next pair into key[] and
	 * value[] and advances *cursor; it returns 1 for a pair, 0 at the end,
	 * -1 (with a reason in value[]) for a malformed pair.
	 */
	int (*next_option)(const char **cursor, char *key, size_t keylen,
			   char *value, size_t valuelen);
	/* Unit parsers of the command line: NULL on success, else why not. */
	const char *(*parse_size)(const char *text, double *bytes);
	const char *(*parse_time)(const char *text, double *seconds);
	const char *(*parse_bandwidth)(const char *text, double *bytes_per_s);
	const char *(*parse_number)(const char *text, double min, double *value);

	/* Services of the kinds added after the first release (NULL when the
	 * host has none of that kind; test with DLASIM_HAS_MEMBER first). */
	const struct dlasim_dataflow_services *dataflow;
	const struct dlasim_dram_services *dram;
	const struct dlasim_persist_services *persist;
	const struct dlasim_log_alloc_services *log_alloc;
};

/* True when a struct carrying a leading `size` member has `member`. */
#define DLASIM_HAS_MEMBER(ptr, type, member) \
	((ptr) != NULL && (ptr)->size >= offsetof(type, member) + sizeof((ptr)->member))

/*
 * init(): called once after the descriptor has been checked.  `options` is
 * the text after ':' in a plugin argument ("name:options"), or NULL.  On
 * failure write a one-line reason into err[errlen] and return DLASIM_ERR;
 * the host reports it, calls nothing else, and unloads the plugin.
 * `*state` is passed back to every callback and to fini().
 */
typedef int (*dlasim_init_fn)(const struct dlasim_host_api *host,
			      const char *options, void **state,
			      char *err, size_t errlen);
typedef void (*dlasim_fini_fn)(void *state);

struct dlasim_plugin {
	unsigned abi_version;		/* must be first: DLASIM_ABI_VERSION */
	enum dlasim_plugin_kind kind;
	unsigned ops_version;		/* version of the kind's ops struct */
	const char *name;		/* short name used on the command line */
	const char *description;	/* one line */
	dlasim_init_fn init;		/* may be NULL: state is then NULL */
	dlasim_fini_fn fini;		/* may be NULL */
	const void *ops;		/* the kind's ops struct */
};

#if defined(__GNUC__)
#define DLASIM_EXPORT __attribute__((visibility("default")))
#else
#define DLASIM_EXPORT
#endif

/* Declare the plugin's descriptor: DLASIM_PLUGIN_EXPORT = { ... }; */
#define DLASIM_PLUGIN_EXPORT \
	DLASIM_EXPORT extern const struct dlasim_plugin dlasim_plugin; \
	const struct dlasim_plugin dlasim_plugin

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_PLUGIN_H */
