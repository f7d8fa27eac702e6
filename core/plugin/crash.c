/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "crash.h"

#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/cleanup.h"
#include "lib/diag.h"
#include "plugin.h"
#include "plugin_map.h"

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NCRASH (sizeof(crash_signals) / sizeof(crash_signals[0]))
#define MAX_FRAMES 128

static struct sigaction previous[NCRASH];
static char alt_stack[1 << 16];

/* The plugin under the faulting instruction or up its call chain. */
static const struct dl_plugin *culprit(void *uc)
{
	void *frames[MAX_FRAMES];
	const struct dl_plugin *p = NULL;
	int n;

#if defined(__x86_64__)
	p = dl_plugin_at((void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP]);
#else
	(void)uc;
#endif
	if (p)
		return p;
	n = backtrace(frames, MAX_FRAMES);
	for (int i = 0; i < n && !p; i++)
		p = dl_plugin_at(frames[i]);
	return p;
}

/* write(2) of the strings, NULL-terminated: no stdio in a handler. */
static void say(const char *s, ...)
{
	va_list ap;

	va_start(ap, s);
	for (; s; s = va_arg(ap, const char *))
		if (write(STDERR_FILENO, s, strlen(s)) < 0)
			break;
	va_end(ap);
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
	const struct dl_plugin *p = culprit(uc);
	size_t i;

	if (p) {
		say(dl_progname, ": ", p->kind_name, " plugin '",
		    p->desc->name, "' (", p->path, ") crashed: ", strsignal(sig), "\n", NULL);
		dl_cleanup_run();
		_exit(DL_EXIT_ERROR);
	}
	/* Not a plugin's: the handler that was there before takes it. */
	for (i = 0; i < NCRASH && crash_signals[i] != sig; i++)
		;
	sigaction(sig, i < NCRASH ? &previous[i] : NULL, NULL);
	/* A fault comes back when the instruction runs again; a signal that
	 * was sent (abort(), kill) has to be sent again. */
	if (si->si_code <= 0)
		raise(sig);
}

void dl_crash_install(void)
{
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
	struct sigaction sa;
	void *warm[1];

	/* backtrace() loads the unwinder the first time: not in a handler. */
	backtrace(warm, 1);
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_crash;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NCRASH; i++)
		sigaction(crash_signals[i], &sa, &previous[i]);
}
