/* SPDX-License-Identifier: MIT */
/*
 * Running many simulations: SimGrid allows one engine per process, so a
 * study forks one child process per run, at most `parallel` at a time.
 * Each child writes its result (any bytes) to a pipe; the parent keeps the
 * bytes of every run.  A progress line is drawn on stderr when it is a
 * terminal.
 */
#ifndef DL_JOBS_H
#define DL_JOBS_H

#include <stddef.h>
#include <stdio.h>

/* Runs in the child: write the result of run `index` to `out`, return 0,
 * or report an error and return non-zero. */
typedef int (*dl_job_fn)(int index, FILE *out, void *arg);

struct dl_job_result {
	char *data;	/* malloc'd bytes written by the child */
	size_t len;
	int status;	/* child's exit status, 0 on success */
};

/*
 * Run jobs 0..count-1 with at most `parallel` at once (<= 0: one per online
 * CPU).  `what` names the study in the progress line.  Returns 0 if every
 * job succeeded; otherwise reports which failed and returns -1 (results of
 * the others are still filled in).  Free with dl_jobs_free().
 */
int dl_jobs_run(int count, int parallel, dl_job_fn job, void *arg,
		struct dl_job_result *results, const char *what);
void dl_jobs_free(struct dl_job_result *results, int count);

/* Number of online CPUs (at least 1). */
int dl_jobs_cpus(void);

#endif
