/* SPDX-License-Identifier: MIT */
#include "engine.h"

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <xbt/config.h>

#include "lib/args.h"
#include "lib/checkrun.h"
#include "lib/cleanup.h"
#include "lib/diag.h"
#include "lib/progress.h"
#include "results/outfile.h"
#include "memfile.h"
#include "paje.h"
#include "sgcfg.h"
#include "xmlscan.h"

#define MAX_USER_CFG 32

static bool started;
/* --cfg options in command-line order, after dlasim's own (they win). */
static const char *user_cfg[MAX_USER_CFG];
static int nuser_cfg;
static const char *trace_path;
static struct dl_outfile trace_file;
/* SimGrid writes its trace into a pipe; a thread of dlasim's copies it
 * through the trace's writer, which checks every write. */
static int trace_pipe[2] = { -1, -1 };
static pthread_t trace_copier;
static bool trace_copying;
/* Actors running now, and the most the context factory allows (0: no
 * limit known). */
static long live_actors, max_actors;
/* An actor's stack under the default contexts: SimGrid allocates it with a
 * calloc that aborts (with a backtrace) when memory has run out, so the
 * same size is asked for first and given back for SimGrid to take. */
static size_t stack_bytes;

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
	/* Simulated time to the picosecond: memory devices step in cycles of
	 * under a nanosecond (SimGrid rounds times to 1 ns by default). */
	"--cfg=surf/precision:1e-12",
	/* Thousands of shallow actors: keep their stacks small. */
	"--cfg=contexts/stack-size:256",
	/*
	 * ... and without a guard page each: a protected page splits a stack
	 * into two memory mappings, and Linux allows 65530 per process
	 * (vm.max_map_count), about 32,000 actors.  Stack overflows are caught
	 * by the sanitizer build, whose thread contexts keep their guards.
	 */
	"--cfg=contexts/guard-size:0",
};

int dl_engine_option(const char *cmd, int c, const char *arg)
{
	const char *why;

	if (c == DL_ENGINE_OPT_TRACE) {
		if (!*arg)
			return dl_bad_option(cmd, "--trace", arg, "an empty file name");
		trace_path = arg;
		return -1;
	}
	if (strcmp(arg, "help") == 0) {
		dl_sgcfg_list(stdout);
		return DL_EXIT_OK;
	}
	if ((why = dl_sgcfg_check(arg)))
		return dl_bad_option(cmd, "--cfg", arg, why);
	if (nuser_cfg == MAX_USER_CFG)
		return dl_bad_option(cmd, "--cfg", arg, "too many --cfg options");
	user_cfg[nuser_cfg++] = arg;
	return -1;
}

/* Left behind by a command that fails before the run ends.  While the
 * copier may be writing, only the temporary file goes: the stream ends
 * with the process. */
static void drop_trace(void)
{
	if (!trace_file.f)
		return;
	if (!trace_copying) {
		dl_outfile_abort(&trace_file);
		return;
	}
	if (trace_file.tmp) {
		unlink(trace_file.tmp);
		dl_cleanup_forget_path(trace_file.tmp);
	}
}

/*
 * SimGrid's trace stream checks nothing: on a full disk a trace came out
 * short and the run exited 0.  Everything SimGrid writes passes here on
 * its way to the writer; after a failed write the rest is read and
 * dropped, so that SimGrid never blocks, and the commit reports it.
 */
static void *copy_trace(void *arg)
{
	static char buf[1 << 16];
	ssize_t n;

	(void)arg;
	while ((n = read(trace_pipe[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			trace_file.err = errno;
			break;
		}
		if (!trace_file.err && !ferror(trace_file.f))
			fwrite(buf, 1, (size_t)n, trace_file.f);
	}
	close(trace_pipe[0]);
	return NULL;
}

/* The copier runs with the fatal signals blocked: lib/cleanup.c's
 * handler runs on the simulation's thread. */
static int start_copier(void)
{
	sigset_t all, old;
	int err;

	if (pipe2(trace_pipe, O_CLOEXEC) != 0)
		return dl_err("--trace %s: cannot make a pipe: %s", trace_path, strerror(errno));
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&trace_copier, NULL, copy_trace, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return dl_err("--trace %s: cannot start a thread: %s", trace_path, strerror(err));
	trace_copying = true;
	return 0;
}

/* The run ended: SimGrid has closed its end of the pipe; the copier
 * reads to the end of it. */
static int finish_trace(void)
{
	close(trace_pipe[1]);
	pthread_join(trace_copier, NULL);
	trace_copying = false;
	return dl_outfile_commit(&trace_file);
}

/* SimGrid writes to the pipe the copier reads (results/outfile.h's
 * writer: a temporary file renamed at the end of a run that finished, or
 * a device or FIFO written in place). */
static int open_trace(char **argv, int *argc)
{
	static const char *const on[] = {
		"--cfg=tracing:yes", "--cfg=tracing/actor:yes",
		"--cfg=tracing/uncategorized:yes",
		/* Nanoseconds: a hop's latency is a microsecond. */
		"--cfg=tracing/precision:9",
		/* SimGrid 3.32 aborts drawing the topology of split-duplex links. */
		"--cfg=tracing/platform/topology:no",
	};
	char *file;

	if (dl_outfile_open(&trace_file, trace_path, "--trace"))
		return -1;
	atexit(drop_trace);
	if (start_copier())
		return -1;
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		argv[(*argc)++] = (char *)on[i];
	if (asprintf(&file, "--cfg=tracing/filename:/proc/self/fd/%d", trace_pipe[1]) < 0)
		return dl_err("out of memory");
	argv[(*argc)++] = file;
	return 0;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = 0;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* Tasks running on the system now (the fourth field of /proc/loadavg). */
static long tasks_now(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	long running, total = 0;

	if (f) {
		if (fscanf(f, "%*s %*s %*s %ld/%ld", &running, &total) != 2)
			total = 0;
		fclose(f);
	}
	return total;
}

static void lower(long *limit, long v)
{
	if (v > 0 && (*limit <= 0 || v < *limit))
		*limit = v;
}

/*
 * The thread context factory (sanitizer builds) runs each actor as a
 * thread: the system's thread and process-id limits, and two mappings per
 * thread stack, bound how many actors a run may have.
 */
static long thread_limit(void)
{
	struct rlimit rl;
	long limit = 0;

	lower(&limit, read_long("/proc/sys/kernel/threads-max"));
	lower(&limit, read_long("/proc/sys/kernel/pid_max") - tasks_now());
	lower(&limit, read_long("/proc/sys/vm/max_map_count") / 2);
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		lower(&limit, (long)rl.rlim_cur);
	return limit;
}

int dl_engine_start(const char *platform_file, struct dl_platform **out)
{
	enum { NFIXED = sizeof(sg_args) / sizeof(sg_args[0]) };
	/* Static: SimGrid keeps argv, and the strings stay reachable. */
	static char *argv[NFIXED + 1 + MAX_USER_CFG + 8];
	char *load = (char *)platform_file;
	const char *factory = getenv("DLASIM_CONTEXTS");
	static char factory_arg[64];
	char copy[4096] = "", memfile[64];
	int argc = 0, memfd = -1;
	struct dl_platform *p;
	size_t len;
	char *xml;

	*out = NULL;
	if (started)
		return dl_err("internal error: one simulation per process");
	if (dl_platform_read_bytes(&p, platform_file, &xml, &len))
		return -1;
	/*
	 * SimGrid reads the bytes dlasim checked, not the file again, and
	 * without dlasim's properties, which it would keep on every host,
	 * link and zone and never read (a generated 65,536-device file: 0.48 s
	 * of SimGrid's loading and 76 MB).  Each leaves its line breaks, so
	 * SimGrid's line numbers are the file's.
	 */
	len = dl_xml_drop_props(xml, len, "dlasim.");
	for (int i = 0; i < NFIXED; i++)
		argv[argc++] = (char *)sg_args[i];
	/* Sanitizer builds need the thread context factory (whose threads
	 * keep the default stack size, in place of the small one). */
	if (factory && *factory) {
		snprintf(factory_arg, sizeof(factory_arg), "--cfg=contexts/factory:%s", factory);
		for (int i = 0; i < argc; i++)
			if (strncmp(argv[i], "--cfg=contexts/stack-size:", 26) == 0)
				argv[i] = factory_arg;
		if (strcmp(factory, "thread") == 0)
			max_actors = thread_limit();
	}
	for (int i = 0; i < nuser_cfg; i++)
		if (asprintf(&argv[argc++], "--cfg=%s", user_cfg[i]) < 0)
			goto fail_oom;
	if (trace_path) {
		if (open_trace(argv, &argc) || dl_paje_platform(p, xml, len, copy, sizeof(copy)))
			goto fail;
		load = copy;
	} else if ((memfd = dl_memory_file("dlasim-platform", xml, len, memfile,
					   sizeof(memfile))) >= 0) {
		load = memfile;	/* without one, SimGrid reads the file by its name */
	}
	free(xml);
	xml = NULL;
	argv[argc] = NULL;
	/* Built with glibc's malloc (make MALLOC=), actor stacks are
	 * allocations of the stack size: keep them mapped on their own so
	 * that their untouched pages cost nothing (glibc would otherwise raise
	 * its threshold once a stack is freed, and later stacks would come
	 * zero-filled from the heap).  jemalloc ignores this. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	simgrid_init(&argc, argv);
	started = true;
	if (!(factory && strcmp(factory, "thread") == 0))
		stack_bytes = (size_t)sg_cfg_get_int("contexts/stack-size") * 1024;
	/* SimGrid takes SIGINT over: temporary files still go on Ctrl-C. */
	dl_cleanup_install();
	simgrid_load_platform(load);
	if (*copy) {
		unlink(copy);
		dl_cleanup_forget_path(copy);
	}
	if (memfd >= 0)
		close(memfd);
	if (dl_platform_bind(p))
		goto fail;
	*out = p;
	return 0;

fail_oom:
	dl_err("out of memory");
fail:
	free(xml);
	dl_platform_free(p);
	return -1;
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
	if (dl_cleanup_add_path(path) || write(fd, xml, n) != (ssize_t)n) {
		close(fd);
		unlink(path);
		dl_cleanup_forget_path(path);
		return dl_err("cannot write the platform file %s", path);
	}
	close(fd);
	ret = dl_engine_start(path, out);
	unlink(path);
	dl_cleanup_forget_path(path);
	return ret;
}

/*
 * On a terminal, a long run shows how far it has come: the engine runs to
 * one simulated date after another (simgrid_run_until), each step sized to
 * take a fraction of a second, and the line is redrawn between them.  A
 * pause only stops the clock at a date; what happens after it is the same.
 * Once nothing is left to happen, simgrid_run() ends the run as it always
 * does (a deadlock is reported there, as without the line).
 */
static void run_showing_progress(void)
{
	double start = dl_progress_wall(), drawn = start, step = 1e-4;
	/* Forced on (the tests): every pause draws, from the first. */
	double every = getenv("DLASIM_PROGRESS") ? 0 : 0.5, after = every ? 2 : 0;
	char spent[32];

	while (sg_actor_count() > 0) {
		double from = simgrid_get_clock(), w = dl_progress_wall();

		simgrid_run_until(from + step);
		if (!(simgrid_get_clock() > from))
			break;
		w = dl_progress_wall() - w;
		if (w < 0.05)
			step *= 2;
		else if (w > 0.4)
			step /= 2;
		if (dl_progress_wall() - drawn < every || dl_progress_wall() - start < after)
			continue;
		drawn = dl_progress_wall();
		dl_progress_duration(drawn - start, spent, sizeof(spent));
		dl_progress_draw("%s: simulated time %.6g s reached, %s elapsed (%.3g simulated s per s)",
				 dl_progname, simgrid_get_clock(), spent,
				 simgrid_get_clock() / (drawn - start));
	}
	simgrid_run();
	dl_progress_clear();
}

int dl_engine_run(void)
{
	dl_check_run_point();
	if (dl_progress_on())
		run_showing_progress();
	else
		simgrid_run();
	if (trace_file.f && finish_trace())
		return -1;
	return 0;
}

/* LeakSanitizer checks for leaks at exit: those builds exit normally. */
#if defined(__SANITIZE_ADDRESS__)
#define LEAKS_CHECKED_AT_EXIT true
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define LEAKS_CHECKED_AT_EXIT true
#endif
#endif
#ifndef LEAKS_CHECKED_AT_EXIT
#define LEAKS_CHECKED_AT_EXIT false
#endif

/*
 * SimGrid 3.32 takes its engine apart at exit, freeing every zone, route,
 * host, link, mailbox and actor one by one (0.4 s of a 65,536-device run),
 * memory the end of the process returns at once.  Of the exit handlers,
 * only dlasim's own have work to do; they run here.
 */
void dl_engine_exit(int status)
{
	if (!started || LEAKS_CHECKED_AT_EXIT)
		return;
	drop_trace();
	dl_flush_held_reason();
	fflush(NULL);
	_exit(status);
}

/*
 * Killing actors that have transfers in flight crashes SimGrid 3.32's link
 * load plugin, and a failed run has nothing more to report: the process
 * ends here, removing any result file it had started (and whatever else
 * is on lib/cleanup.h's list).
 */
void dl_sim_fail(void)
{
	dl_cleanup_run();
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
	if (max_actors > 0)
		live_actors--;
}

sg_actor_t dl_actor_start(const char *name, sg_host_t host, void (*fn)(void *), void *arg)
{
	struct trampoline *t;
	sg_actor_t a;

	if (stack_bytes) {
		void *stack = malloc(stack_bytes);

		if (!stack)
			dl_sim_error("out of memory: no room for the %zu KiB stack of actor '%s' (the run does not fit this machine's memory or the process's limit)",
				     stack_bytes / 1024, name);
		free(stack);
	}
	t = malloc(sizeof(*t));
	if (!t)
		dl_sim_error("out of memory");
	if (max_actors > 0 && ++live_actors > max_actors)
		dl_sim_error("%ld actors at once: the thread contexts (DLASIM_CONTEXTS=thread) allow %ld on this system (threads-max, pid_max, RLIMIT_NPROC, vm.max_map_count / 2); run without DLASIM_CONTEXTS",
			     live_actors, max_actors);
	t->fn = fn;
	t->arg = arg;
	a = sg_actor_init(name, host);
	sg_actor_set_data(a, t);
	sg_actor_start_(a, actor_main, 0, NULL);
	return a;
}
