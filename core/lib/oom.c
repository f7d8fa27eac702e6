/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "oom.h"

#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cleanup.h"
#include "diag.h"

typedef void (*new_handler)(void);
typedef new_handler (*set_new_handler_fn)(new_handler);

/* std::set_new_handler(void (*)()), by its Itanium C++ ABI name: found at
 * run time in the libstdc++ SimGrid brings, so that dlasim stays C. */
#define SET_NEW_HANDLER "_ZSt15set_new_handlerPFvvE"

/* Called by operator new when memory runs out; it may not return (new
 * would ask again), and it allocates nothing. */
static void out_of_memory(void)
{
	static const char msg[] =
		": out of memory in SimGrid: the platform or the run does not fit this machine's memory (or the process's limit)\n";

	if (write(STDERR_FILENO, dl_progname, strlen(dl_progname)) >= 0)
		(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	dl_cleanup_run();
	_exit(DL_EXIT_ERROR);
}

void dl_oom_install(void)
{
	set_new_handler_fn set = (set_new_handler_fn)dlsym(RTLD_DEFAULT, SET_NEW_HANDLER);

	if (set)
		set(out_of_memory);
}
