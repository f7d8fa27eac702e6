/* SPDX-License-Identifier: MIT */
#include "engine.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "diag.h"
#include "outfile.h"
#include "plugin.h"

static bool started;

static const char *const sg_args[] = {
	"dlasim",
	/* Silence SimGrid's own informational chatter. */
	"--log=root.thresh:error",
	"--log=xbt_cfg.thresh:error",
	/* A deadlock is reported by the caller, which knows who never finished. */
	"--log=ker_engine.app:file:/dev/null",
	"--log=ker_engine.add:no",
	/* Plain fluid max-min sharing, no TCP corrections. */
	"--cfg=network/model:CM02",
	"--cfg=network/crosstraffic:0",
	"--cfg=network/TCP-gamma:0",
	/* Thousands of shallow actors: keep their stacks small. */
	"--cfg=contexts/stack-size:256",
};

int dl_engine_start(const char *platform_file, struct dl_platform **out)
{
	int argc = sizeof(sg_args) / sizeof(sg_args[0]);
	char *argv[sizeof(sg_args) / sizeof(sg_args[0]) + 1];
	const char *factory = getenv("DLASIM_CONTEXTS");
	char factory_arg[64];
	struct dl_platform *p;

	*out = NULL;
	if (started)
		return dl_err("internal error: one simulation per process");
	if (dl_platform_read(&p, platform_file))
		return -1;
	for (int i = 0; i < argc; i++)
		argv[i] = (char *)sg_args[i];
	argv[argc] = NULL;
	/* Sanitizer builds need the thread context factory. */
	if (factory && *factory) {
		snprintf(factory_arg, sizeof(factory_arg), "--cfg=contexts/factory:%s", factory);
		argv[argc - 1] = factory_arg;
	}
	simgrid_init(&argc, argv);
	started = true;
	simgrid_load_platform(platform_file);
	if (dl_platform_bind(p)) {
		dl_platform_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

int dl_engine_start_xml(const char *xml, const char *what, struct dl_platform **out)
{
	const char *dir = getenv("TMPDIR");
	size_t n = strlen(xml);
	char path[4096];
	int fd, ret;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/dlasim-%s.XXXXXX", dir && *dir ? dir : "/tmp", what);
	fd = mkstemp(path);
	if (fd < 0)
		return dl_err("cannot create a platform file in %s: %s", dir && *dir ? dir : "/tmp",
			      strerror(errno));
	if (write(fd, xml, n) != (ssize_t)n) {
		close(fd);
		unlink(path);
		return dl_err("cannot write the platform file %s", path);
	}
	close(fd);
	ret = dl_engine_start(path, out);
	unlink(path);
	return ret;
}

int dl_engine_run(void)
{
	simgrid_run();
	return 0;
}

/*
 * Killing actors that have transfers in flight crashes SimGrid 3.32's link
 * load plugin, and a failed run has nothing more to report: the process
 * ends here, removing any result file it had started.
 */
void dl_sim_fail(void)
{
	dl_outfile_abort_all();
	fflush(NULL);
	_exit(EXIT_FAILURE);
}

void dl_sim_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dl_verr(fmt, ap);
	va_end(ap);
	dl_sim_fail();
}

void dl_sim_plugin_error(const struct dl_plugin *p, const char *where, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dl_plugin_err(p, where, "%s", msg);
	dl_sim_fail();
}

struct trampoline {
	void (*fn)(void *);
	void *arg;
};

static void actor_main(int argc, char **argv)
{
	struct trampoline *t = sg_actor_self_get_data();
	void (*fn)(void *) = t->fn;
	void *arg = t->arg;

	(void)argc;
	(void)argv;
	free(t);
	sg_actor_self_set_data(NULL);
	fn(arg);
}

sg_actor_t dl_actor_start(const char *name, sg_host_t host, void (*fn)(void *), void *arg)
{
	struct trampoline *t = malloc(sizeof(*t));
	sg_actor_t a;

	if (!t)
		dl_sim_error("out of memory");
	t->fn = fn;
	t->arg = arg;
	a = sg_actor_init(name, host);
	sg_actor_set_data(a, t);
	sg_actor_start_(a, actor_main, 0, NULL);
	return a;
}
