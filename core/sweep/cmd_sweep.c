/* SPDX-License-Identifier: MIT */
/* dlasim sweep SPEC: a grid of runs as a run list for GNU parallel and Slurm. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/args.h"
#include "results/csv.h"
#include "lib/diag.h"
#include "results/outfile.h"
#include "commands.h"
#include "spec.h"

#define CMD "sweep"
#define MAX_RUNS 1000000L

extern char **environ;

struct sweep {
	struct sweep_spec spec;
	char out[PATH_MAX];		/* absolute */
	char exe[PATH_MAX];		/* dlasim in the run lines */
	char self[PATH_MAX];		/* this executable, for the generator */
	char **platform;		/* generated platform of each generator point */
	long nplatforms;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim sweep SPEC [--out DIR] [--dlasim PATH]\n"
		"  SPEC           KEY = VALUE ... lines: command = train|coll|tier, the\n"
		"                 command's options with the values to sweep, platform.OPTION\n"
		"                 for generated platforms (docs/sweeps.md)\n"
		"  --out DIR      where the run list, parameters, sbatch script and results go\n"
		"                 (default results/sweep-NAME)\n"
		"  --dlasim PATH  the dlasim the runs call (default: this one, by absolute path)\n"
		"Writes DIR/runs.txt (one shell command per line, each writing\n"
		"DIR/runs/NNNN.json), DIR/params.csv and DIR/sweep.sbatch; run them with\n"
		"'parallel < DIR/runs.txt' or 'sbatch DIR/sweep.sbatch', gather with\n"
		"'dlasim merge DIR'.\n");
}

static int mkdirs(const char *path)
{
	char buf[PATH_MAX];
	struct stat st;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return dl_err("%s: cannot create: %s", buf, strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return dl_err("%s: cannot create: %s", buf, strerror(errno));
	if (stat(buf, &st) || !S_ISDIR(st.st_mode))
		return dl_err("%s: not a directory", buf);
	return 0;
}

/* A value naming a file becomes absolute: the runs may start elsewhere. */
static const char *absolute(const char *v, char *buf)
{
	struct stat st;

	if (v[0] == '/' || (!strchr(v, '/') && stat(v, &st) != 0))
		return v;	/* absolute, or a bare name (dl_data_find) */
	return realpath(v, buf) ? buf : v;
}

/* ---- generated platforms ---- */

static int run_generator(const struct sweep *w, char *const *argv)
{
	pid_t pid;
	int status;

	if (posix_spawn(&pid, w->self, NULL, NULL, argv, environ))
		return dl_err("cannot run %s: %s", w->self, strerror(errno));
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;	/* `dlasim platform` said why */
	return 0;
}

/* The platform file of grid point `index`: DIR/VALUE-VALUE....xml, the
 * generator keys' values in the spec's order. */
static int platform_path(const struct sweep_spec *s, const char *dir, const int *index,
			 char *file, size_t size)
{
	size_t n = (size_t)snprintf(file, size, "%s/", dir);
	const char *sep = "";

	for (int k = 0; k < s->nkeys && n < size; k++) {
		if (!s->key[k].generator)
			continue;
		n += (size_t)snprintf(file + n, size - n, "%s%s", sep, s->key[k].value[index[k]]);
		sep = "-";
	}
	if (n < size)
		n += (size_t)snprintf(file + n, size - n, ".xml");
	if (n >= size)
		return dl_err("%s: the platform.* values make a platform file name longer than %zu bytes",
			      s->file, size - 1);
	return 0;
}

/* Run `dlasim platform` for the grid point `index` into `file`. */
static int generate_one(struct sweep *w, const int *index, char *file)
{
	const struct sweep_spec *s = &w->spec;
	char *argv[2 * SWEEP_MAX_KEYS + 6];
	int argc = 0, first, ret;

	argv[argc++] = w->self;
	argv[argc++] = "platform";
	first = argc;
	for (int k = 0; k < s->nkeys; k++) {
		char opt[128];

		if (!s->key[k].generator)
			continue;
		snprintf(opt, sizeof(opt), "--%s", s->key[k].name + 9);
		if (!(argv[argc] = strdup(opt))) {
			ret = dl_err("out of memory");
			goto out;
		}
		argv[argc + 1] = s->key[k].value[index[k]];
		argc += 2;
	}
	argv[argc] = "-o";
	argv[argc + 1] = file;
	argv[argc + 2] = NULL;
	ret = run_generator(w, argv);
out:
	for (int a = first; a < argc; a += 2)
		free(argv[a]);
	return ret;
}

/* One `dlasim platform` per point of the platform.* grid. */
static int generate_platforms(struct sweep *w)
{
	const struct sweep_spec *s = &w->spec;
	int index[SWEEP_MAX_KEYS];
	char dir[PATH_MAX + 16];

	w->nplatforms = sweep_grid_size(s, 1);
	if (!(w->platform = calloc(w->nplatforms, sizeof(char *))))
		return dl_err("out of memory");
	snprintf(dir, sizeof(dir), "%s/platforms", w->out);
	if (mkdirs(dir))
		return -1;
	for (long i = 0; i < w->nplatforms; i++) {
		char file[PATH_MAX];

		sweep_grid_point(s, 1, i, index);
		if (platform_path(s, dir, index, file, sizeof(file)))
			return -1;
		if (!(w->platform[i] = strdup(file)))
			return dl_err("out of memory");
		if (generate_one(w, index, file))
			return -1;
	}
	return 0;
}

static bool has_generator(const struct sweep_spec *s)
{
	for (int k = 0; k < s->nkeys; k++)
		if (s->key[k].generator)
			return true;
	return false;
}

/* ---- the run list ---- */

static void write_run(const struct sweep *w, FILE *f, long run, int width, long gpoint,
		      const int *index)
{
	const struct sweep_spec *s = &w->spec;
	char buf[PATH_MAX], out[PATH_MAX + 32];

	fprintf(f, "'%s' %s", w->exe, s->command);
	if (w->platform)
		fprintf(f, " --platform '%s'", w->platform[gpoint]);
	for (int k = 0; k < s->nkeys; k++)
		if (!s->key[k].generator)
			fprintf(f, " --%s '%s'", s->key[k].name,
				absolute(s->key[k].value[index[k]], buf));
	snprintf(out, sizeof(out), "%s/runs/%0*ld.json", w->out, width < 8 ? width : 8, run);
	/* The result appears whole or not at all, and the line fails with the run. */
	fprintf(f, " --json > '%s.tmp' && mv '%s.tmp' '%s' || { rm -f '%s.tmp'; false; }\n", out, out,
		out, out);
}

static void write_params_row(const struct sweep *w, FILE *f, long run, const int *gindex,
			     const int *index)
{
	const struct sweep_spec *s = &w->spec;

	fprintf(f, "%ld", run);
	for (int k = 0; k < s->nkeys; k++) {
		fputc(',', f);
		dl_csv_field(f, s->key[k].value[s->key[k].generator ? gindex[k] : index[k]]);
	}
	fputc('\n', f);
}

static int write_lists(const struct sweep *w, long nruns)
{
	const struct sweep_spec *s = &w->spec;
	long gpoints = sweep_grid_size(s, 1), points = sweep_grid_size(s, 0), run = 0;
	struct dl_outfile list, params;
	char path[PATH_MAX + 32];
	int gindex[SWEEP_MAX_KEYS], index[SWEEP_MAX_KEYS], width = 4;

	for (long n = nruns / 10000; n; n /= 10)
		width++;	/* at least 4 digits, as many as the last run needs */
	snprintf(path, sizeof(path), "%s/runs.txt", w->out);
	if (dl_outfile_open(&list, path, "run list"))
		return -1;
	snprintf(path, sizeof(path), "%s/params.csv", w->out);
	if (dl_outfile_open(&params, path, "parameters")) {
		dl_outfile_abort(&list);
		return -1;
	}
	fprintf(params.f, "run");
	for (int k = 0; k < s->nkeys; k++) {
		fputc(',', params.f);
		dl_csv_field(params.f, s->key[k].name);
	}
	fputc('\n', params.f);
	for (long g = 0; g < gpoints; g++) {
		sweep_grid_point(s, 1, g, gindex);
		for (long i = 0; i < points; i++) {
			sweep_grid_point(s, 0, i, index);
			run++;
			write_run(w, list.f, run, width, g, index);
			write_params_row(w, params.f, run, gindex, index);
		}
	}
	if (dl_outfile_commit(&list)) {
		dl_outfile_abort(&params);
		return -1;
	}
	return dl_outfile_commit(&params);
}

/* A Slurm job array: task i runs line i of the run list. */
static int write_sbatch(const struct sweep *w, long nruns)
{
	struct dl_outfile o;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/sweep.sbatch", w->out);
	if (dl_outfile_open(&o, path, "sbatch script"))
		return -1;
	fprintf(o.f,
		"#!/bin/sh\n"
		"# dlasim sweep '%s': one Slurm array task per line of runs.txt\n"
		"# (docs/sweeps.md).  Submit with: sbatch %s\n"
		"#SBATCH --job-name=dlasim-%s\n"
		"#SBATCH --array=1-%ld\n"
		"#SBATCH --ntasks=1\n"
		"#SBATCH --cpus-per-task=1\n"
		"#SBATCH --output=%s/slurm/%%A_%%a.out\n"
		"line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" '%s/runs.txt')\n"
		"[ -n \"$line\" ] || { echo \"no run $SLURM_ARRAY_TASK_ID in %s/runs.txt\" >&2; exit 1; }\n"
		"exec sh -c \"$line\"\n",
		w->spec.name, path, w->spec.name, nruns, w->out, w->out, w->out);
	if (dl_outfile_commit(&o))
		return -1;
	return chmod(path, 0755) ? dl_err("%s: %s", path, strerror(errno)) : 0;
}

static int setup(struct sweep *w, const char *spec, const char *out, const char *exe)
{
	char dir[PATH_MAX + 64];
	ssize_t n;

	if (sweep_spec_read(&w->spec, spec))
		return -1;
	n = readlink("/proc/self/exe", w->self, sizeof(w->self) - 1);
	if (n <= 0)
		return dl_err("cannot find the dlasim executable: %s", strerror(errno));
	w->self[n] = '\0';
	snprintf(w->exe, sizeof(w->exe), "%s", exe ? exe : w->self);
	if (strchr(w->exe, '\''))
		return dl_err("%s: --dlasim %s: the path holds a quote", CMD, w->exe);
	if (!out) {
		snprintf(dir, sizeof(dir), "results/sweep-%s", w->spec.name);
		out = dir;
	}
	if (mkdirs(out))
		return -1;	/* named the directory it could not make */
	if (!realpath(out, w->out))
		return dl_err("--out %s: %s", out, strerror(errno));
	if (strchr(w->out, '\''))
		return dl_err("--out %s: the path holds a quote", w->out);
	snprintf(dir, sizeof(dir), "%s/runs", w->out);
	if (mkdirs(dir))
		return -1;
	snprintf(dir, sizeof(dir), "%s/slurm", w->out);
	return mkdirs(dir);
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "dlasim", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *exe = NULL;
	struct sweep w = { 0 };
	long nruns;
	int c, ret = DL_EXIT_ERROR;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd': exe = optarg; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		dl_err("%s: give one SPEC file (see 'dlasim sweep --help')", CMD);
		return DL_EXIT_USAGE;
	}
	if (setup(&w, argv[optind], out, exe))
		goto out;
	nruns = sweep_grid_size(&w.spec, 0) * sweep_grid_size(&w.spec, 1);
	if (nruns > MAX_RUNS || nruns <= 0) {
		dl_err("%s: %ld runs; a sweep has at most %ld", w.spec.file, nruns, MAX_RUNS);
		goto out;
	}
	if (has_generator(&w.spec) && generate_platforms(&w))
		goto out;
	if (write_lists(&w, nruns) || write_sbatch(&w, nruns))
		goto out;
	printf("%ld runs of dlasim %s: %s/runs.txt\n"
	       "  run here:      parallel < %s/runs.txt\n"
	       "  on hosts:      parallel --sshloginfile HOSTS < %s/runs.txt\n"
	       "  with Slurm:    sbatch %s/sweep.sbatch\n"
	       "  then:          dlasim merge %s\n",
	       nruns, w.spec.command, w.out, w.out, w.out, w.out, w.out);
	ret = fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
out:
	for (long i = 0; i < w.nplatforms; i++)
		free(w.platform[i]);
	free(w.platform);
	sweep_spec_free(&w.spec);
	return ret;
}
