/* SPDX-License-Identifier: MIT */
#include "plugin.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <ltdl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dlasim/coll.h>
#include <dlasim/dataflow.h>
#include <dlasim/dram_placement.h>
#include <dlasim/log_alloc.h>
#include <dlasim/page_alloc.h>
#include <dlasim/persist.h>
#include <dlasim/tier.h>

#include "lib/diag.h"
#include "plugin_map.h"

#ifndef DLASIM_PLUGINDIR
#define DLASIM_PLUGINDIR "/usr/local/lib/dlasim/plugins"
#endif

#define MAX_DIRS 32

struct kind_info {
	enum dlasim_plugin_kind kind;
	const char *name;
	const char *prefix;
	unsigned ops_version;	/* newest ops version this host reads */
};

static const struct kind_info kinds[] = {
	{ DLASIM_KIND_COLLECTIVE, "collective", "coll", DLASIM_COLL_OPS_VERSION },
	{ DLASIM_KIND_PAGE_ALLOC, "page-allocation", "page", DLASIM_PAGE_OPS_VERSION },
	{ DLASIM_KIND_TIER_PLACEMENT, "tier-placement", "tier", DLASIM_TIER_OPS_VERSION },
	{ DLASIM_KIND_DATAFLOW, "dataflow", "dataflow", DLASIM_DATAFLOW_OPS_VERSION },
	{ DLASIM_KIND_DRAM_PLACEMENT, "dram-placement", "dram", DLASIM_DRAM_OPS_VERSION },
	{ DLASIM_KIND_PERSIST, "persistence-logging", "persist", DLASIM_PERSIST_OPS_VERSION },
	{ DLASIM_KIND_LOG_ALLOC, "log-allocation", "logalloc", DLASIM_LOG_ALLOC_OPS_VERSION },
};

static const struct kind_info *kind_info(enum dlasim_plugin_kind kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

const char *dl_plugin_kind_name(enum dlasim_plugin_kind kind)
{
	const struct kind_info *k = kind_info(kind);

	return k ? k->name : "unknown-kind";
}

const char *dl_plugin_kind_prefix(enum dlasim_plugin_kind kind)
{
	const struct kind_info *k = kind_info(kind);

	return k ? k->prefix : "?";
}

int dl_plugin_err(const struct dl_plugin *p, const char *where, const char *fmt, ...)
{
	char line[DL_PLUGIN_FAILURE_MAX];
	va_list ap;

	va_start(ap, fmt);
	dl_plugin_vfailure(line, sizeof(line), p, where, fmt, ap);
	va_end(ap);
	return dl_err("%s", line);
}

/* ---- search path ---- */

static char *dirs[MAX_DIRS];
static int ndirs = -1;
static char search_text[8192];

static void add_dir(const char *d)
{
	char real[PATH_MAX];

	if (!d || !*d || ndirs >= MAX_DIRS)
		return;
	/* Keep directories that do not exist yet out of the list but not out
	 * of messages: they are what a user would check. */
	if (!realpath(d, real))
		snprintf(real, sizeof(real), "%s", d);
	for (int i = 0; i < ndirs; i++)
		if (strcmp(dirs[i], real) == 0)
			return;
	dirs[ndirs] = strdup(real);
	if (dirs[ndirs])
		ndirs++;
}

static void free_dirs(void)
{
	for (int i = 0; i < ndirs; i++)
		free(dirs[i]);
	ndirs = -1;
}

static void init_dirs(void)
{
	char exe[PATH_MAX], buf[PATH_MAX + 64];
	const char *env = getenv("DLASIM_PLUGIN_PATH");
	ssize_t n;

	if (ndirs >= 0)
		return;
	ndirs = 0;
	atexit(free_dirs);
	if (env) {
		char *copy = strdup(env), *save = NULL;

		for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d;
		     d = strtok_r(NULL, ":", &save))
			add_dir(d);
		free(copy);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		snprintf(buf, sizeof(buf), "%s/plugins", exe);
		add_dir(buf);
		snprintf(buf, sizeof(buf), "%s/../lib/dlasim/plugins", exe);
		add_dir(buf);
	}
	add_dir(DLASIM_PLUGINDIR);
	search_text[0] = '\0';
	for (int i = 0; i < ndirs; i++) {
		size_t used = strlen(search_text);

		snprintf(search_text + used, sizeof(search_text) - used, "%s%s",
			 i ? ", " : "", dirs[i]);
	}
}

const char *dl_plugin_search_path(void)
{
	init_dirs();
	return search_text;
}

/* ---- opening one file ---- */

static int ltdl_users;

static int ltdl_up(void)
{
	if (ltdl_users++ == 0 && lt_dlinit() != 0) {
		ltdl_users = 0;
		return dl_err("cannot initialise libltdl");
	}
	return 0;
}

static void ltdl_down(void)
{
	if (ltdl_users > 0 && --ltdl_users == 0)
		lt_dlexit();
}

/*
 * libltdl reports "file not found" for any file it cannot load; ask the
 * dynamic loader directly for the real reason.
 */
static void why_not_loadable(const char *path, char *why, size_t len)
{
	unsigned char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");
	void *h;

	if (!f) {
		snprintf(why, len, "%s", strerror(errno));
		return;
	}
	if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "\177ELF", 4) != 0) {
		fclose(f);
		snprintf(why, len, "not a shared object (no ELF header)");
		return;
	}
	fclose(f);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h) {
		dlclose(h);
		snprintf(why, len, "libltdl could not load it");
		return;
	}
	snprintf(why, len, "%s", dlerror());
}

/*
 * Open `path` and check its descriptor up to (not including) the kind.
 * On failure returns -1 with a reason in why[] and nothing left open.
 */
static int open_file(const char *path, lt_dlhandle *hout,
		     const struct dlasim_plugin **dout, char *why, size_t len)
{
	const struct dlasim_plugin *d;
	lt_dladvise advise;
	lt_dlhandle h = NULL;
	struct stat st;

	if (stat(path, &st) != 0) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "not a regular file");
		return -1;
	}
	if (ltdl_up() != 0) {
		snprintf(why, len, "libltdl unavailable");
		return -1;
	}
	/* Local symbols: two plugins may define the same static names. */
	if (lt_dladvise_init(&advise) == 0) {
		lt_dladvise_local(&advise);
		h = lt_dlopenadvise(path, advise);
		lt_dladvise_destroy(&advise);
	}
	if (!h) {
		why_not_loadable(path, why, len);
		goto fail;
	}
	d = lt_dlsym(h, DLASIM_PLUGIN_SYMBOL);
	if (!d) {
		snprintf(why, len, "no '%s' symbol: not a dlasim plugin",
			 DLASIM_PLUGIN_SYMBOL);
		goto fail;
	}
	if (d->abi_version != DLASIM_ABI_VERSION) {
		snprintf(why, len,
			 "built for plugin ABI version %u, this dlasim has ABI version %u; rebuild it against this dlasim's headers",
			 d->abi_version, DLASIM_ABI_VERSION);
		goto fail;
	}
	if (!d->name || !*d->name || !d->description || !d->ops) {
		snprintf(why, len, "malformed descriptor (name, description and ops are required)");
		goto fail;
	}
	*hout = h;
	*dout = d;
	return 0;
fail:
	if (h)
		lt_dlclose(h);
	ltdl_down();
	return -1;
}

static void close_file(lt_dlhandle h)
{
	lt_dlclose(h);
	ltdl_down();
}

/* ---- resolving a spec ---- */

static bool is_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n > 3 && strcmp(s + n - 3, ".so") == 0);
}

/* Split "target[:options]"; a ':' inside a directory part is not a split. */
static char *split_spec(const char *spec, char **options)
{
	char *copy = strdup(spec), *slash, *colon;

	if (!copy)
		return NULL;
	slash = strrchr(copy, '/');
	colon = strchr(slash ? slash : copy, ':');
	*options = NULL;
	if (colon) {
		*colon = '\0';
		*options = colon + 1;
	}
	return copy;
}

static char *find_by_name(enum dlasim_plugin_kind kind, const char *name)
{
	char buf[PATH_MAX + 256];

	init_dirs();
	for (int i = 0; i < ndirs; i++) {
		snprintf(buf, sizeof(buf), "%s/%s-%s.so", dirs[i],
			 dl_plugin_kind_prefix(kind), name);
		if (access(buf, F_OK) == 0)
			return strdup(buf);
	}
	return NULL;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* dl_plugin_open(), or with `init` false dl_plugin_check()'s part: every
 * check up to the plugin's own init(), which is not called. */
static int open_plugin(struct dl_plugin **out, enum dlasim_plugin_kind kind, const char *spec,
		       const char *option, dl_ops_check_fn check, bool init)
{
	const struct kind_info *k = kind_info(kind);
	char why[1024], errbuf[1024] = "";
	const char *opts_why = NULL;
	const struct dlasim_plugin *desc;
	struct dl_plugin *p = NULL;
	char *target, *options, *path = NULL;
	lt_dlhandle h;

	*out = NULL;
	target = split_spec(spec, &options);
	if (!target)
		return dl_err("%s: out of memory", option);
	if (is_path(target)) {
		path = strdup(target);
	} else if (!valid_name(target)) {
		dl_err("%s '%s': not a plugin name or a path to a .so file", option, spec);
		goto fail;
	} else {
		path = find_by_name(kind, target);
		if (!path) {
			dl_err("%s: %s plugin '%s' not found; looked for %s-%s.so in: %s",
			       option, k->name, target, k->prefix, target,
			       dl_plugin_search_path());
			goto fail;
		}
	}
	if (!path) {
		dl_err("%s: out of memory", option);
		goto fail;
	}
	if (open_file(path, &h, &desc, why, sizeof(why)) != 0) {
		dl_err("%s %s: cannot load plugin: %s", option, path, why);
		goto fail;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		close_file(h);
		dl_err("%s: out of memory", option);
		goto fail;
	}
	p->handle = h;
	p->desc = desc;
	p->kind_name = dl_plugin_kind_name(desc->kind);
	p->path = path;
	path = NULL;
	if (p->desc->kind != kind) {
		const struct kind_info *actual = kind_info(p->desc->kind);

		dl_err("%s %s: '%s' is a %s plugin, but %s needs a %s plugin",
		       option, p->path, p->desc->name,
		       actual ? actual->name : "unknown-kind", option, k->name);
		goto fail;
	}
	if (p->desc->ops_version > k->ops_version || p->desc->ops_version == 0) {
		dl_err("%s %s: '%s' uses %s ops version %u, this dlasim reads versions 1 to %u",
		       option, p->path, p->desc->name, k->name,
		       p->desc->ops_version, k->ops_version);
		goto fail;
	}
	if (check && !check(p->desc->ops, &opts_why)) {
		dl_err("%s %s: '%s' has malformed ops: %s", option, p->path,
		       p->desc->name, opts_why);
		goto fail;
	}
	if (!p->desc->init && options && *options) {
		dl_err("%s %s: plugin '%s' takes no options (got '%s')", option,
		       p->path, p->desc->name, options);
		goto fail;
	}
	if (!init)
		goto done;
	dl_plugin_map_add(p, p->desc);
	if (p->desc->init &&
	    p->desc->init(&dl_host_api, options, &p->state, errbuf, sizeof(errbuf)) != DLASIM_OK) {
		/* The reason may fill the buffer without its NUL. */
		errbuf[sizeof(errbuf) - 1] = '\0';
		dl_err("%s %s: plugin '%s' failed to initialise: %s", option,
		       p->path, p->desc->name, errbuf[0] ? errbuf : "(no reason given)");
		goto fail;
	}
	p->initialized = true;
done:
	free(target);
	*out = p;
	return 0;
fail:
	free(target);
	free(path);
	dl_plugin_close(p);
	return -1;
}

int dl_plugin_open(struct dl_plugin **out, enum dlasim_plugin_kind kind,
		   const char *spec, const char *option, dl_ops_check_fn check)
{
	return open_plugin(out, kind, spec, option, check, true);
}

int dl_plugin_check(enum dlasim_plugin_kind kind, const char *spec, const char *option,
		    dl_ops_check_fn check)
{
	struct dl_plugin *p;

	if (open_plugin(&p, kind, spec, option, check, false))
		return -1;
	dl_plugin_close(p);
	return 0;
}

void dl_plugin_close(struct dl_plugin *p)
{
	if (!p)
		return;
	if (p->initialized && p->desc->fini)
		p->desc->fini(p->state);
	dl_plugin_map_remove(p);
	if (p->handle)
		close_file(p->handle);
	free(p->path);
	free(p);
}

/* ---- scanning ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void scan_dir(const char *dir, dl_plugin_visit_fn visit, void *arg)
{
	char path[PATH_MAX + 256], why[1024];
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 4 || strcmp(e->d_name + len - 3, ".so") != 0)
			continue;
		if (n == cap) {
			char **grown = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));

			if (!grown)
				break;
			names = grown;
		}
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);	/* stable listing */
	for (size_t i = 0; i < n; i++) {
		const struct dlasim_plugin *desc;
		lt_dlhandle h;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (open_file(path, &h, &desc, why, sizeof(why)) == 0) {
			visit(path, desc, NULL, arg);
			close_file(h);
		} else {
			visit(path, NULL, why, arg);
		}
		free(names[i]);
	}
	free(names);
}

int dl_plugin_scan(dl_plugin_visit_fn visit, void *arg)
{
	init_dirs();
	for (int i = 0; i < ndirs; i++)
		scan_dir(dirs[i], visit, arg);
	return 0;
}
