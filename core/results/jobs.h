/* SPDX-License-Identifier: MIT */
/*
 * Running the many simulations of a study: SimGrid allows one engine per
 * process, so a study forks one child process per run, at most `parallel`
 * at a time.  Each child writes its result (any bytes) to a pipe and its
 * messages to another; the parent keeps the bytes of every run that
 * finished and passes the messages on whole lines at a time, so that runs
 * in parallel never mix their lines.
 *
 * A run that fails (an error, a signal, a timeout) does not stop the
 * study: it is reported as it ends, in one line naming the command line
 * that repeats it and why it failed, and the study shows it as n/a.  A
 * progress line is drawn on stderr when it is a terminal.
 */
#ifndef DL_JOBS_H
#define DL_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/args.h"

/* Runs in the child: write the result of run `index` to `out` and return
 * 0, or report an error (one line on stderr) and return non-zero. */
typedef int (*dl_job_fn)(int index, FILE *out, void *arg);

/* The command line that repeats run `index` on its own, for messages. */
typedef void (*dl_job_describe_fn)(int index, void *arg, char *buf, size_t len);

struct dl_jobs {
	const char *what;		/* the study, e.g. "study mcdla" */
	int count;
	int parallel;			/* runs at once; <= 0: one per CPU */
	double timeout_s;		/* wall-clock limit per run; 0: none */
	size_t result_size;		/* bytes a run writes; 0: any number */
	dl_job_fn run;
	dl_job_describe_fn describe;
	void *arg;
};

struct dl_job_result {
	char *data;	/* malloc'd bytes written by the child */
	size_t len;
	bool failed;
	char *reason;	/* why it failed (malloc'd), NULL if it did not */
};

/*
 * Run jobs 0..count-1.  Returns the number of runs that failed (each
 * already reported; their data is empty), or -1 when the study could not
 * run at all (reported).  Free the results with dl_jobs_free().
 */
int dl_jobs_run(const struct dl_jobs *jobs, struct dl_job_result *results);
void dl_jobs_free(struct dl_job_result *results, int count);

/* The bytes of a run that finished, NULL for a failed one. */
const void *dl_job_data(const struct dl_job_result *result);

/* After the results are out: the exit status of the study, with one line
 * saying how many runs failed when some did. */
int dl_jobs_status(const struct dl_jobs *jobs, int failed);

/* Number of online CPUs (at least 1). */
int dl_jobs_cpus(void);

/*
 * The options every study takes, for its getopt table and its usage:
 * --jobs N (runs at once) and --timeout T (per run, e.g. 10min).
 */
#define DL_JOBS_OPT_JOBS 0x4a01
#define DL_JOBS_OPT_TIMEOUT 0x4a02
#define DL_JOBS_OPTIONS                                                 \
	{ "jobs", required_argument, NULL, DL_JOBS_OPT_JOBS },          \
	{ "timeout", required_argument, NULL, DL_JOBS_OPT_TIMEOUT }
#define DL_JOBS_USAGE                                                   \
	"  --jobs N        runs at once (default: one per CPU)\n"          \
	"  --timeout T     stop a run after T of wall-clock time (e.g. 90s, 10m;\n" \
	"                  default: none); it is reported and shown as n/a\n"
/* Handle option `c` if it is one of those: 1 handled, 0 not one of
 * them, -1 bad value (reported). */
int dl_jobs_option(struct dl_jobs *jobs, int c, const char *value);

#endif
