/* SPDX-License-Identifier: MIT */
/* dlasim sweep SPEC: a grid of runs as a run list for GNU parallel and Slurm. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
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
#include "lib/checkrun.h"
#include "lib/cleanup.h"
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
	bool skip_invalid;		/* --skip-invalid */
	bool no_check;			/* --no-check */
	char **invalid;			/* per combination: why it cannot run, or NULL */
	long ninvalid;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim sweep SPEC [--out DIR] [--dlasim PATH] [--skip-invalid | --no-check]\n"
		"  SPEC           KEY = VALUE ... lines: command = train|coll|tier|nna|nvm|dram|llm, the\n"
		"                 command's options with the values to sweep, platform.OPTION\n"
		"                 for generated platforms (docs/sweeps.md)\n"
		"  --out DIR      where the run list, parameters, sbatch script and results go\n"
		"                 (default results/sweep-NAME)\n"
		"  --dlasim PATH  the dlasim the runs call (default: this one, by absolute path)\n"
		"  --skip-invalid leave out the runs whose options the command refuses (each\n"
		"                 named on stderr and in DIR/skipped.csv); without it such a\n"
		"                 run is an error and nothing is written\n"
		"  --no-check     write the list without checking each run first\n"
		"Writes DIR/runs.txt (one shell command per line, each writing\n"
		"DIR/runs/NNNN.json), DIR/params.csv and DIR/sweep.sbatch; run them with\n"
		"'parallel < DIR/runs.txt' or 'sbatch DIR/sweep.sbatch', gather with\n"
		"'dlasim merge DIR'.\n");
}

/* The directories this sweep made, removed (if still empty) when it
 * fails or is interrupted: a sweep leaves its whole output or nothing. */
#define MAX_MADE 64
static char *made[MAX_MADE];
static int nmade;

static int make_dir(const char *path)
{
	if (mkdir(path, 0777) == 0) {
		if (nmade == MAX_MADE || !(made[nmade] = strdup(path)) ||
		    dl_cleanup_add_path(made[nmade]))
			return dl_err("out of memory");
		nmade++;
		return 0;
	}
	if (errno != EEXIST)
		return dl_err("%s: cannot create: %s", path, strerror(errno));
	return 0;
}

/* Keep them (ok) or remove them, newest first. */
static void forget_made(bool ok)
{
	for (int i = nmade - 1; i >= 0; i--) {
		if (!ok)
			rmdir(made[i]);
		dl_cleanup_forget_path(made[i]);
		free(made[i]);
	}
	nmade = 0;
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
		if (make_dir(buf))
			return -1;
		*p = '/';
	}
	if (make_dir(buf))
		return -1;
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

/*
 * Every word of runs.txt and sweep.sbatch that the sweep did not write
 * itself goes through here: one shell word between single quotes, each
 * quote of its own written '\''.  Any byte but NUL and the newline keeps
 * its meaning there; a newline would end the line GNU parallel or Slurm
 * takes as the command, so words holding one are refused beforehand
 * (shell_word_ok()).
 */
static void shell_word(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static bool shell_word_ok(const char *s)
{
	return !strchr(s, '\n');
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
		if (!(w->platform[i] = strdup(file)) || dl_cleanup_add_path(w->platform[i]))
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

/*
 * The words of a run after the dlasim path: the command, `--NAME VALUE`
 * for each key (NAME one of spec.c's lists), --json.  The option names
 * and values are in word[] (names in names[], freed by the caller).
 */
#define RUN_WORDS (2 * SWEEP_MAX_KEYS + 4)
struct run_words {
	char *word[RUN_WORDS + 1];
	int n;
	char names[SWEEP_MAX_KEYS + 1][128];
	char paths[SWEEP_MAX_KEYS][PATH_MAX];
};

static void run_words(const struct sweep *w, long gpoint, const int *index, struct run_words *r)
{
	const struct sweep_spec *s = &w->spec;
	int nk = 0;

	r->n = 0;
	r->word[r->n++] = s->command;
	if (w->platform) {
		r->word[r->n++] = "--platform";
		r->word[r->n++] = w->platform[gpoint];
	}
	for (int k = 0; k < s->nkeys; k++) {
		if (s->key[k].generator)
			continue;
		snprintf(r->names[nk], sizeof(r->names[0]), "--%s", s->key[k].name);
		r->word[r->n++] = r->names[nk];
		r->word[r->n++] = (char *)absolute(s->key[k].value[index[k]], r->paths[nk]);
		nk++;
	}
	r->word[r->n++] = "--json";
	r->word[r->n] = NULL;
}

static void write_run(const struct sweep *w, FILE *f, long run, int width, long gpoint,
		      const int *index)
{
	static struct run_words r;
	char out[PATH_MAX + 32], tmp[PATH_MAX + 40];

	run_words(w, gpoint, index, &r);
	shell_word(f, w->exe);
	/* Shell words but for the command and the option names (the odd
	 * words, --json last), which spec.c's lists fix. */
	for (int i = 0; i < r.n; i++) {
		fputc(' ', f);
		if (i == 0 || i % 2)
			fputs(r.word[i], f);
		else
			shell_word(f, r.word[i]);
	}
	snprintf(out, sizeof(out), "%s/runs/%0*ld.json", w->out, width < 8 ? width : 8, run);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	/* The result appears whole or not at all, and the line fails with the run. */
	fputs(" > ", f);
	shell_word(f, tmp);
	fputs(" && mv ", f);
	shell_word(f, tmp);
	fputc(' ', f);
	shell_word(f, out);
	fputs(" || { rm -f ", f);
	shell_word(f, tmp);
	fputs("; false; }\n", f);
}

/* ---- checking each run ---- */

/* The environment of a check: this one's, DLASIM_CHECK_RUN=1, no progress
 * line (stderr carries the reason).  NULL out of memory. */
static char **check_environ(void)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	if (!(env = calloc(n + 3, sizeof(char *))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], DL_CHECK_RUN_ENV "=", sizeof(DL_CHECK_RUN_ENV)) &&
		    strncmp(environ[i], "DLASIM_PROGRESS=", 16))
			env[k++] = environ[i];
	env[k++] = DL_CHECK_RUN_ENV "=1";
	env[k++] = "DLASIM_PROGRESS=0";
	return env;
}

/* The last line of `text` that is not empty, its "dlasim: " dropped. */
static void last_line(char *text, char *why, size_t len)
{
	char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	start = strrchr(text, '\n');
	start = start ? start + 1 : text;
	if (strncmp(start, "dlasim: ", 8) == 0)
		start += 8;
	dl_printable(why, len, start);
}

/* Run `argv` as a check (lib/checkrun.h): 0 when the command takes the
 * run, 1 when it refuses it (why[] says what it said), -1 when the check
 * itself could not run. */
static int check_one(const struct sweep *w, char **argv, char **env, char *why, size_t len)
{
	posix_spawn_file_actions_t fa;
	char buf[4096];
	size_t got = 0;
	ssize_t n;
	int fd[2], status, rc;
	pid_t pid;

	if (pipe(fd))
		return dl_err("%s: cannot check the runs: %s", CMD, strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	rc = posix_spawn(&pid, w->self, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc) {
		close(fd[0]);
		return dl_err("cannot run %s: %s", w->self, strerror(rc));
	}
	/* Keep the last 4 KB: the reason is the last line. */
	while ((n = read(fd[0], buf + got, sizeof(buf) - 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += (size_t)n;
		if (got == sizeof(buf) - 1) {
			memmove(buf, buf + got / 2, got - got / 2);
			got -= got / 2;
		}
	}
	buf[got] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return dl_err("waiting for a check: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	last_line(buf, why, len);
	if (!why[0] && WIFSIGNALED(status))
		snprintf(why, len, "killed by signal %d", WTERMSIG(status));
	else if (!why[0])
		snprintf(why, len, "exit %d", WEXITSTATUS(status));
	return 1;
}

/* "line L key=value, ..." of combination (gpoint, index). */
static void describe_run(const struct sweep *w, const int *gindex, const int *index, char *buf,
			 size_t len)
{
	const struct sweep_spec *s = &w->spec;
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < s->nkeys && n < len; k++) {
		char v[160];

		dl_printable(v, sizeof(v),
			     s->key[k].value[s->key[k].generator ? gindex[k] : index[k]]);
		n += (size_t)snprintf(buf + n, len - n, "%sline %d %s=%s", k ? ", " : "",
				      s->key[k].line, s->key[k].name, v);
	}
}

/* DIR/skipped.csv: the combinations --skip-invalid left out, each with
 * its number in the grid, its values and why. */
static int write_skipped(const struct sweep *w, long ncomb)
{
	const struct sweep_spec *s = &w->spec;
	long points = sweep_grid_size(s, 0);
	int gindex[SWEEP_MAX_KEYS], index[SWEEP_MAX_KEYS];
	struct dl_outfile o;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/skipped.csv", w->out);
	if (dl_outfile_open(&o, path, "skipped runs"))
		return -1;
	fprintf(o.f, "combination");
	for (int k = 0; k < s->nkeys; k++) {
		fputc(',', o.f);
		dl_csv_field(o.f, s->key[k].name);
	}
	fprintf(o.f, ",reason\n");
	for (long c = 0; c < ncomb; c++) {
		if (!w->invalid[c])
			continue;
		sweep_grid_point(s, 1, c / points, gindex);
		sweep_grid_point(s, 0, c % points, index);
		fprintf(o.f, "%ld", c + 1);
		for (int k = 0; k < s->nkeys; k++) {
			fputc(',', o.f);
			dl_csv_field(o.f, s->key[k].value[s->key[k].generator ? gindex[k] : index[k]]);
		}
		fputc(',', o.f);
		dl_csv_field(o.f, w->invalid[c]);
		fputc('\n', o.f);
	}
	return dl_outfile_commit(&o);
}

/*
 * Every combination checked by its command (lib/checkrun.h) before the
 * list is written.  One that cannot run is an error naming it, its spec
 * lines and the command's reason; with --skip-invalid it is left out,
 * named on stderr and in DIR/skipped.csv.
 */
static int check_runs(struct sweep *w, long nruns)
{
	const struct sweep_spec *s = &w->spec;
	long points = sweep_grid_size(s, 0);
	int gindex[SWEEP_MAX_KEYS], index[SWEEP_MAX_KEYS], ret = -1;
	static struct run_words r;
	char *argv[RUN_WORDS + 2], **env = check_environ();
	char why[1024], what[2048];

	w->invalid = calloc(nruns, sizeof(char *));
	if (!env || !w->invalid) {
		free(env);
		return dl_err("out of memory");
	}
	for (long c = 0; c < nruns; c++) {
		int rc;

		sweep_grid_point(s, 1, c / points, gindex);
		sweep_grid_point(s, 0, c % points, index);
		run_words(w, c / points, index, &r);
		argv[0] = w->self;
		memcpy(argv + 1, r.word, (r.n + 1) * sizeof(char *));
		if ((rc = check_one(w, argv, env, why, sizeof(why))) < 0)
			goto out;
		if (!rc)
			continue;
		describe_run(w, gindex, index, what, sizeof(what));
		if (!w->skip_invalid) {
			dl_err("%s: combination %ld (%s) cannot run: %s (--skip-invalid leaves such runs out)",
			       s->file, c + 1, what, why);
			goto out;
		}
		dl_warn("%s: combination %ld (%s) skipped: %s", s->file, c + 1, what, why);
		if (!(w->invalid[c] = strdup(why))) {
			dl_err("out of memory");
			goto out;
		}
		w->ninvalid++;
	}
	if (w->ninvalid == nruns) {
		dl_err("%s: none of the %ld runs can run", s->file, nruns);
		goto out;
	}
	ret = 0;
out:
	free(env);
	return ret;
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
			if (w->invalid && w->invalid[g * points + i])
				continue;
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

/* A job name Slurm shows: the sweep's name, bytes other than letters,
 * digits, '.', '_' and '-' as '_' (it is no shell word). */
static void job_name(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(isalnum((unsigned char)*name) || strchr("._-", *name) ? *name : '_', f);
}

/*
 * A Slurm job array: task i runs line i of the run list.  No #SBATCH line
 * holds a path (Slurm reads those lines with quoting rules of its own):
 * the task sends its output to DIR/slurm/JOB_TASK.out itself, the
 * directory a shell word like any other.
 */
static int write_sbatch(const struct sweep *w, long nruns)
{
	struct dl_outfile o;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/sweep.sbatch", w->out);
	if (dl_outfile_open(&o, path, "sbatch script"))
		return -1;
	fputs("#!/bin/sh\n"
	      "# dlasim sweep: one Slurm array task per line of runs.txt (docs/sweeps.md).\n"
	      "# Submit with: sbatch ", o.f);
	shell_word(o.f, path);
	fputs("\n#SBATCH --job-name=dlasim-", o.f);
	job_name(o.f, w->spec.name);
	fprintf(o.f,
		"\n#SBATCH --array=1-%ld\n"
		"#SBATCH --ntasks=1\n"
		"#SBATCH --cpus-per-task=1\n"
		"#SBATCH --output=/dev/null\n"
		"dir=", nruns);
	shell_word(o.f, w->out);
	fputs("\n"
	      "exec > \"$dir/slurm/${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.out\" 2>&1\n"
	      "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" \"$dir/runs.txt\")\n"
	      "[ -n \"$line\" ] || { echo \"no run $SLURM_ARRAY_TASK_ID in $dir/runs.txt\" >&2; exit 1; }\n"
	      "exec sh -c \"$line\"\n", o.f);
	if (dl_outfile_commit(&o))
		return -1;
	return chmod(path, 0755) ? dl_err("%s: %s", path, strerror(errno)) : 0;
}

/* What no shell word can carry is refused before anything is written:
 * one line naming the option or the spec line. */
static int check_words(const struct sweep *w)
{
	const struct sweep_spec *s = &w->spec;
	char buf[PATH_MAX];

	if (!shell_word_ok(w->exe))
		return dl_err("%s: --dlasim: the path holds a newline, which no line of runs.txt can carry",
			      CMD);
	for (int k = 0; k < s->nkeys; k++) {
		for (int v = 0; v < s->key[k].nvalues; v++) {
			const char *val = s->key[k].value[v];

			if (s->key[k].generator && strchr(val, '/'))
				return dl_err("%s:%d: '%s': a platform.* value names a file in DIR/platforms: no '/'",
					      s->file, s->key[k].line, val);
			if (!s->key[k].generator && !shell_word_ok(absolute(val, buf)))
				return dl_err("%s:%d: '%s' names a file whose path holds a newline, which no line of runs.txt can carry",
					      s->file, s->key[k].line, val);
		}
	}
	return 0;
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
	if (check_words(w))
		return -1;
	if (!out) {
		snprintf(dir, sizeof(dir), "results/sweep-%s", w->spec.name);
		out = dir;
	}
	if (!shell_word_ok(out))
		return dl_err("%s: --out: the directory holds a newline, which no line of runs.txt can carry",
			      CMD);
	if (mkdirs(out))
		return -1;	/* named the directory it could not make */
	if (!realpath(out, w->out))
		return dl_err("--out %s: %s", out, strerror(errno));
	if (!shell_word_ok(w->out))
		return dl_err("%s: --out: the directory's path holds a newline, which no line of runs.txt can carry",
			      CMD);
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
		{ "skip-invalid", no_argument, NULL, 's' },
		{ "no-check", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *exe = NULL;
	struct sweep w = { 0 };
	long nruns = 0;
	int c, ret = DL_EXIT_ERROR;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd': exe = optarg; break;
		case 's': w.skip_invalid = true; break;
		case 'n': w.no_check = true; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (w.skip_invalid && w.no_check) {
		dl_err("%s: --skip-invalid needs the check --no-check leaves out", CMD);
		return DL_EXIT_USAGE;
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
	if (!w.no_check && check_runs(&w, nruns))
		goto out;
	if (write_lists(&w, nruns - w.ninvalid) || write_sbatch(&w, nruns - w.ninvalid) ||
	    (w.ninvalid && write_skipped(&w, nruns)))
		goto out;
	if (w.ninvalid)
		printf("%ld combinations of %s skipped (they cannot run): %s/skipped.csv\n",
		       w.ninvalid, w.spec.file, w.out);
	printf("%ld runs of dlasim %s: %s/runs.txt\n"
	       "  run here:      parallel < %s/runs.txt\n"
	       "  on hosts:      parallel --sshloginfile HOSTS < %s/runs.txt\n"
	       "  with Slurm:    sbatch %s/sweep.sbatch\n"
	       "  then:          dlasim merge %s\n",
	       nruns - w.ninvalid, w.spec.command, w.out, w.out, w.out, w.out, w.out);
	ret = fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
out:
	for (long i = 0; w.platform && i < w.nplatforms; i++) {
		if (w.platform[i] && ret != DL_EXIT_OK)
			unlink(w.platform[i]);
		if (w.platform[i])
			dl_cleanup_forget_path(w.platform[i]);
		free(w.platform[i]);
	}
	forget_made(ret == DL_EXIT_OK);
	free(w.platform);
	for (long k = 0; w.invalid && k < nruns; k++)
		free(w.invalid[k]);
	free(w.invalid);
	sweep_spec_free(&w.spec);
	return ret;
}
