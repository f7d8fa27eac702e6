/* SPDX-License-Identifier: MIT */
/*
 * Plugin loader: finds a plugin by name on the search path or takes a path
 * to a .so, checks its descriptor (ABI version first, then kind and ops
 * version), validates its ops and calls its init.  The host owns every
 * handle: dl_plugin_close() calls fini and closes it.
 *
 * Search path, first match wins:
 *   1. each directory of $DLASIM_PLUGIN_PATH (colon-separated);
 *   2. the build tree: <dir of the executable>/plugins;
 *   3. the install tree: <dir of the executable>/../lib/dlasim/plugins,
 *      then the configured DLASIM_PLUGINDIR.
 * A plugin named NAME of kind K is the file <K prefix>-NAME.so, e.g.
 * coll-ring.so, page-bw_aware.so, tier-sentinel.so.
 */
#ifndef DL_PLUGIN_H
#define DL_PLUGIN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <dlasim/plugin.h>

struct dl_plugin {
	void *handle;				/* lt_dlhandle */
	const struct dlasim_plugin *desc;
	char *path;
	void *state;				/* from init() */
	bool initialized;
	const char *kind_name;			/* "collective", ... */
};

/* Checks a kind's ops struct; on failure sets *why and returns false. */
typedef bool (*dl_ops_check_fn)(const void *ops, const char **why);

/*
 * Open the plugin given by `spec` ("name", "name:options", "path.so",
 * "path.so:options") for an option such as "--coll".  Reports every failure
 * itself (one line naming the option, the plugin and what is wrong).
 */
int dl_plugin_open(struct dl_plugin **out, enum dlasim_plugin_kind kind,
		   const char *spec, const char *option, dl_ops_check_fn check);
void dl_plugin_close(struct dl_plugin *p);
/*
 * Everything dl_plugin_open() checks before the plugin's own init() (found,
 * loadable, of the kind, ABI and ops versions, its ops), reported the same
 * way, then closed: a command asks before reading a large platform, so
 * that a mistyped plugin is not found out minutes later.
 */
int dl_plugin_check(enum dlasim_plugin_kind kind, const char *spec, const char *option,
		    dl_ops_check_fn check);

/* A plugin gave a wrong answer: report "<kind> plugin 'name' (path)<where>:
 * <message>" and return -1.  `where` may be "".  The line ends with the
 * reason the plugin logged for the failure, if it did (diag.h). */
int dl_plugin_err(const struct dl_plugin *p, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* That line in buf[len], for a caller that reports it its own way. */
#define DL_PLUGIN_FAILURE_MAX 4096
void dl_plugin_vfailure(char *buf, size_t len, const struct dl_plugin *p, const char *where,
			const char *fmt, va_list ap);
/* A plugin did something wrong during the run: "<kind> plugin 'name'
 * (path)<where>: <message>", and the run ends (machine/engine.h's
 * dl_sim_error).  `where` may be "". */
void dl_sim_plugin_error(const struct dl_plugin *p, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

/* Called for every plugin file found on the search path. */
typedef void (*dl_plugin_visit_fn)(const char *path,
				   const struct dlasim_plugin *desc,
				   const char *problem, void *arg);
/* Visit every *.so on the search path; `problem` is non-NULL when the file
 * is not a usable plugin (desc is then NULL). */
int dl_plugin_scan(dl_plugin_visit_fn visit, void *arg);

/* "collective", "page-allocation", "tier-placement", ... */
const char *dl_plugin_kind_name(enum dlasim_plugin_kind kind);
/* "coll", "page", "tier", ...: the file-name prefix. */
const char *dl_plugin_kind_prefix(enum dlasim_plugin_kind kind);

/* The directories searched, in order, joined by ", " (for messages). */
const char *dl_plugin_search_path(void);

/* The services handed to plugins; subsystems fill in their kind's member. */
extern struct dlasim_host_api dl_host_api;

#endif
