/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE	/* asprintf, posix_spawn_file_actions_addchdir_np */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/diag.h"
#include "outfile.h"

extern char **environ;

/* Colour-blind-safe palette (Okabe and Ito, 2008). */
static const char *const colours[] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
	"#D55E00", "#F0E442", "#000000", "#999999",
};
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))

/* Bars of one category take nseries slots and one slot of gap. */
static double bar_x(const struct dl_plot *p, int cat, int series)
{
	if (p->kind == DL_PLOT_STACKED)
		return cat;
	return cat * (p->nseries + 1) + series;
}

static double cat_centre(const struct dl_plot *p, int cat)
{
	if (p->kind == DL_PLOT_STACKED)
		return cat;
	return cat * (p->nseries + 1) + (p->nseries - 1) / 2.0;
}

/* Every value of series j is 0 (no n/a): nothing of it would be seen. */
static bool all_zero(const struct dl_plot *p, int j)
{
	for (int i = 0; i < p->ncat; i++)
		if (p->series[j].y[i] != 0)
			return false;
	return p->ncat > 0;
}

static double line_x(const struct dl_plot *p, int i)
{
	return p->x ? p->x[i] : i;
}

/* Text inside a gnuplot single-quoted string: '' stands for '. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static bool valid_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '.' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* Stacked bars are drawn top segment first: y of series j is the sum of
 * series 0..j. */
static double stacked_top(const struct dl_plot *p, int cat, int series)
{
	double sum = 0;

	for (int j = 0; j <= series; j++)
		if (!isnan(p->series[j].y[cat]))
			sum += p->series[j].y[cat];
	return sum;
}

/* One index block per series ("x y"), then one for the marks. */
static void write_data(const struct dl_plot *p, FILE *f)
{
	fprintf(f, "# %s\n# x y (one block per series; n/a points left out)\n",
		p->title ? p->title : p->name);
	for (int j = 0; j < p->nseries; j++) {
		fprintf(f, "# series %d: %s\n", j, p->series[j].name);
		for (int i = 0; i < p->ncat; i++) {
			double y = p->series[j].y[i];

			if (isnan(y)) {
				if (p->kind == DL_PLOT_LINES)
					fputc('\n', f);	/* breaks the line */
				continue;
			}
			if (p->kind == DL_PLOT_LINES)
				fprintf(f, "%.17g %.17g\n", line_x(p, i), y);
			else if (p->kind == DL_PLOT_STACKED)
				fprintf(f, "%.17g %.17g\n", bar_x(p, i, j), stacked_top(p, i, j));
			else
				fprintf(f, "%.17g %.17g\n", bar_x(p, i, j), y);
		}
		fprintf(f, "\n\n");
	}
	fprintf(f, "# %s\n", p->mark_label ? p->mark_label : "paper");
	for (int k = 0; k < p->nmarks; k++) {
		const struct dl_plot_mark *m = &p->marks[k];
		double x = p->kind == DL_PLOT_LINES ? line_x(p, m->cat) : bar_x(p, m->cat, m->series);

		fprintf(f, "%.17g %.17g\n", x, m->y);
	}
	fprintf(f, "\n\n");
}

static void write_cat_tics(const struct dl_plot *p, FILE *f, const char *how)
{
	fprintf(f, "set xtics %s nomirror (", how);
	for (int i = 0; i < p->ncat; i++) {
		fprintf(f, "%s", i ? ", " : "");
		gp_string(f, p->cats[i]);
		fprintf(f, " %.17g", cat_centre(p, i));
	}
	fprintf(f, ")\n");
}

/* Upright category labels, the group's name centred under its bars. */
static void write_group_tics(const struct dl_plot *p, FILE *f)
{
	write_cat_tics(p, f, "rotate by 90 right font ',8'");
	for (int g = 0; g * p->group_size < p->ncat; g++) {
		int first = g * p->group_size, last = first + p->group_size - 1;

		if (last >= p->ncat)
			last = p->ncat - 1;
		fprintf(f, "set label ");
		gp_string(f, p->groups[g]);
		fprintf(f, " at first %.17g, graph 0 offset 0,-6.5 center\n",
			(cat_centre(p, first) + cat_centre(p, last)) / 2);
	}
	fprintf(f, "set bmargin 9\n");
}

/* One line under the plot naming the series that are 0 everywhere; true
 * when there is one. */
static bool write_zero_series(const struct dl_plot *p, FILE *f)
{
	bool any = false;

	for (int j = 0; j < p->nseries; j++) {
		if (!all_zero(p, j))
			continue;
		fprintf(f, "%s", any ? ", " : "set label '");
		any = true;
		for (const char *c = p->series[j].name; *c; c++)
			fprintf(f, *c == '\'' ? "''" : "%c", *c);
	}
	if (any)
		fprintf(f, ": 0 at every point (no bar or line drawn)' at screen 0.01, screen 0.055 left font ',9'\n");
	return any;
}

static bool on_right(const struct dl_plot *p, int j)
{
	return p->y2_from > 0 && j >= p->y2_from;
}

/* Series of another unit get an axis of their own on the right, from 0. */
static void write_right_axis(const struct dl_plot *p, FILE *f)
{
	if (p->y2_from <= 0 || p->y2_from >= p->nseries)
		return;
	fprintf(f, "set y2label ");
	gp_string(f, p->y2label ? p->y2label : "");
	fprintf(f, "\nset ytics nomirror\nset y2tics\nset y2range [0:*]\n");
}

static const char *reduced;

void dl_plot_reduced(const char *why)
{
	reduced = why;
}

/* The title, and on a line of its own what a reduced run left out. */
static void write_title(const struct dl_plot *p, FILE *f)
{
	fprintf(f, "set title ");
	gp_string(f, p->title ? p->title : p->name);
	if (reduced) {
		fprintf(f, " . \"\\n\" . 'reduced run: ' . ");
		gp_string(f, reduced);
	}
}

static void write_axes(const struct dl_plot *p, FILE *f)
{
	bool zeros;

	write_title(p, f);
	fprintf(f, "\nset xlabel ");
	gp_string(f, p->xlabel ? p->xlabel : "");
	fprintf(f, "\nset ylabel ");
	gp_string(f, p->ylabel ? p->ylabel : "");
	fprintf(f, "\n");
	write_right_axis(p, f);
	fprintf(f, "set grid ytics\nset key outside right top\n");
	if (p->logy)
		fprintf(f, "set logscale y\n");
	else
		fprintf(f, "set yrange [0:*]\n");
	if (p->kind == DL_PLOT_LINES) {
		if (p->logx)
			fprintf(f, "set logscale x 2\n");
		if (p->cats) {
			fprintf(f, "set xtics (");
			for (int i = 0; i < p->ncat; i++) {
				fprintf(f, "%s", i ? ", " : "");
				gp_string(f, p->cats[i]);
				fprintf(f, " %.17g", line_x(p, i));
			}
			fprintf(f, ")\n");
		}
	} else {
		double hi = bar_x(p, p->ncat - 1, p->kind == DL_PLOT_STACKED ? 0 : p->nseries - 1);

		fprintf(f, "set boxwidth 0.85\nset style fill solid 0.9 border rgb 'black'\n");
		fprintf(f, "set xrange [-1:%.17g]\n", hi + 1);
		if (p->group_size > 1 && p->groups)
			write_group_tics(p, f);
		else
			write_cat_tics(p, f, "rotate by -30");
	}
	/* n/a points carry a label where their bar or point would be. */
	for (int j = 0; j < p->nseries; j++)
		for (int i = 0; i < p->ncat; i++)
			if (isnan(p->series[j].y[i]) && p->kind != DL_PLOT_STACKED)
				fprintf(f, "set label 'n/a' at %.17g, graph 0.03 center rotate by 90 font ',8'\n",
					p->kind == DL_PLOT_LINES ? line_x(p, i) : bar_x(p, i, j));
	zeros = write_zero_series(p, f);
	if (p->note) {
		fprintf(f, "set label ");
		gp_string(f, p->note);
		fprintf(f, " at screen 0.01, screen 0.02 left font ',9'\n");
	}
	if (!(p->group_size > 1 && p->groups) && (p->note || zeros))
		fprintf(f, "set bmargin %d\n", p->note && zeros ? 8 : 6);
}

/* A series' key entry: its name, and which axis it reads on when the
 * figure has two. */
static void write_key_entry(const struct dl_plot *p, int j, FILE *f)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s%s", p->series[j].name,
		 on_right(p, j) ? " (right axis)" : "");
	gp_string(f, buf);
}

static void write_plot_command(const struct dl_plot *p, FILE *f)
{
	const char *style = p->kind == DL_PLOT_LINES ? "linespoints lw 2 pt 7" : "boxes";
	bool first = true;

	fprintf(f, "plot ");
	/* Stacked segments are drawn from the top down so lower ones overlay. */
	for (int n = 0; n < p->nseries; n++) {
		int j = p->kind == DL_PLOT_STACKED ? p->nseries - 1 - n : n;

		fprintf(f, "%s", first ? "" : ", \\\n     ");
		first = false;
		fprintf(f, "dat index %d using 1:2%s with %s lc rgb '%s' ", j,
			on_right(p, j) ? " axes x1y2" : "", style, colours[j % NCOLOURS]);
		if (all_zero(p, j)) {
			fprintf(f, "notitle");
			continue;
		}
		fprintf(f, "title ");
		write_key_entry(p, j, f);
	}
	if (p->nmarks > 0) {
		fprintf(f, "%s", first ? "" : ", \\\n     ");
		fprintf(f, "dat index %d using 1:2 with points pt 9 ps 1.6 lc rgb 'black' title ",
			p->nseries);
		gp_string(f, p->mark_label ? p->mark_label : "paper");
	}
	fprintf(f, "\n");
}

/* The script names its files relative to its own directory, so that
 * `gnuplot NAME.gp` there draws the figure again. */
static int write_script(const struct dl_plot *p, FILE *f)
{
	char dat[256];

	snprintf(dat, sizeof(dat), "%s.dat", p->name);
	fprintf(f, "# %s: drawn by dlasim with gnuplot (docs/figures.md).\n", p->name);
	fprintf(f, "# Run 'gnuplot %s.gp' in this directory to draw it again.\n", p->name);
	fprintf(f, "if (!exists('dat')) dat = ");
	gp_string(f, dat);
	fprintf(f, "\nif (!exists('png')) png = '%s.png'\n", p->name);
	fprintf(f, "if (!exists('svg')) svg = '%s.svg'\n", p->name);
	fprintf(f, "set encoding utf8\nset termoption noenhanced\n");
	write_axes(p, f);
	fprintf(f, "set terminal pngcairo size 1100,620 font 'sans,10' noenhanced\n");
	fprintf(f, "set output png\n");
	write_plot_command(p, f);
	fprintf(f, "set terminal svg size 1100,620 font 'sans,10' noenhanced\n");
	fprintf(f, "set output svg\nreplot\nset output\n");
	return ferror(f) ? -1 : 0;
}

static int check_plot(const struct dl_plot *p)
{
	if (!valid_name(p->name))
		return dl_err("figure '%s': file names use letters, digits, '_', '-' and '.'",
			      p->name ? p->name : "");
	if (p->ncat < 1 || p->nseries < 1 || (p->kind != DL_PLOT_LINES && !p->cats))
		return dl_err("figure '%s': nothing to draw", p->name);
	for (int k = 0; k < p->nmarks; k++)
		if (p->marks[k].cat < 0 || p->marks[k].cat >= p->ncat ||
		    p->marks[k].series < 0 || p->marks[k].series >= p->nseries)
			return dl_err("figure '%s': mark %d is outside the figure", p->name, k);
	return 0;
}

/* DIR/NAME.dat or .gp, written and flushed to its temporary file: gnuplot
 * reads it there, and it is put in place with the images. */
static int write_file(struct dl_outfile *o, const char *path, const struct dl_plot *p,
		      bool script)
{
	if (dl_outfile_open(o, path, "figure"))
		return -1;
	if (script)
		write_script(p, o->f);
	else
		write_data(p, o->f);
	if (fflush(o->f) == 0 && !ferror(o->f))
		return 0;
	dl_outfile_commit(o);	/* reports the write that failed, removes the rest */
	return -1;
}

/* The name gnuplot reads a file by while it is being written. */
static const char *reading_name(const struct dl_outfile *o)
{
	return o->tmp ? o->tmp : o->path;
}

/* `name` as a gnuplot string ('...', a quote doubled), appended to *buf. */
static int gp_assign(char **buf, const char *var, const char *name)
{
	size_t n = strlen(*buf), len = n + strlen(var) + 2 * strlen(name) + 8;
	char *b = realloc(*buf, len), *o;

	if (!b)
		return -1;
	o = b + n + sprintf(b + n, "%s='", var);
	for (; *name; name++) {
		if (*name == '\'')
			*o++ = '\'';
		*o++ = *name;
	}
	strcpy(o, "'; ");
	*buf = b;
	return 0;
}

/* gnuplot leads a process group of its own, on lib/cleanup.h's list:
 * an interrupt stops it before its images are removed (it would write
 * them after). */
static int spawn_gnuplot(pid_t *pid, char **argv, posix_spawn_file_actions_t *fa)
{
	posix_spawnattr_t at;
	sigset_t old;
	int rc;

	if (posix_spawnattr_init(&at))
		return ENOMEM;
	dl_cleanup_hold(&old);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &old);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawnp(pid, "gnuplot", fa, &at, argv, environ);
	if (!rc && dl_cleanup_add_group(*pid)) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
		rc = ENOMEM;
	}
	dl_cleanup_release(&old);
	posix_spawnattr_destroy(&at);
	return rc;
}

/* Run gnuplot on the script `gp` reading `dat`, drawing into the
 * temporary image names, its messages into `log`. */
static int run_gnuplot(const char *gp, const char *dat, const char *tpng, const char *tsvg,
		       const char *log)
{
	char *vars = strdup("");
	char *argv[] = { "gnuplot", "-e", NULL, (char *)gp, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status, rc;

	if (!vars || gp_assign(&vars, "dat", dat) || gp_assign(&vars, "png", tpng) ||
	    gp_assign(&vars, "svg", tsvg)) {
		free(vars);
		return dl_err("out of memory");
	}
	argv[2] = vars;
	if (posix_spawn_file_actions_init(&fa)) {
		free(vars);
		return dl_err("out of memory");
	}
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	rc = spawn_gnuplot(&pid, argv, &fa);
	posix_spawn_file_actions_destroy(&fa);
	free(vars);
	if (rc)
		return dl_err("cannot run gnuplot: %s (Debian package gnuplot-nox; deps.sh installs it)",
			      strerror(rc));
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			dl_cleanup_forget_group(pid);
			return dl_err("waiting for gnuplot: %s", strerror(errno));
		}
	}
	dl_cleanup_forget_group(pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

/* The first line of gnuplot's complaint, for the one-line report. */
static void first_error_line(const char *log, char *buf, size_t len)
{
	FILE *f = fopen(log, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (strstr(buf, "rror") || strstr(buf, "warning"))
			break;
	}
	fclose(f);
}

static bool nonempty(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* `path` is about to appear: until the figure's last file is in place,
 * an interrupt or a failure removes it. */
static int track(char **placed, int *n, char *path)
{
	if (!path)
		return dl_err("out of memory");
	if (dl_cleanup_add_path(path)) {
		free(path);
		return -1;
	}
	placed[(*n)++] = path;
	return 0;
}

static int rename_tracked(char **placed, int *n, const char *from, const char *to)
{
	if (track(placed, n, strdup(to)))
		return -1;
	if (rename(from, to) != 0)
		return dl_err("figure %s: %s", to, strerror(errno));
	return 0;
}

/* The four files of a figure appear together (the caller aborts the
 * writers left open). */
static int put_in_place(struct dl_outfile *dat, struct dl_outfile *gp, const char *tpng,
			const char *png, const char *tsvg, const char *svg)
{
	char *placed[4];
	int n = 0, ret = -1;

	if (track(placed, &n, strdup(dat->path)) || dl_outfile_commit(dat))
		goto out;
	if (track(placed, &n, strdup(gp->path)) || dl_outfile_commit(gp))
		goto out;
	if (rename_tracked(placed, &n, tpng, png) || rename_tracked(placed, &n, tsvg, svg))
		goto out;
	ret = 0;
out:
	for (int i = 0; i < n; i++) {
		if (ret)
			unlink(placed[i]);
		dl_cleanup_forget_path(placed[i]);
		free(placed[i]);
	}
	return ret;
}

int dl_plot_render(const struct dl_plot *p, const char *dir)
{
	char *dat = NULL, *gp = NULL, *png = NULL, *svg = NULL, *tpng = NULL, *tsvg = NULL;
	char *log = NULL, why[512];
	struct dl_outfile odat = { 0 }, ogp = { 0 };
	int ret = -1, rc;

	if (check_plot(p))
		return -1;
	if (asprintf(&dat, "%s/%s.dat", dir, p->name) < 0 ||
	    asprintf(&gp, "%s/%s.gp", dir, p->name) < 0 ||
	    asprintf(&png, "%s/%s.png", dir, p->name) < 0 ||
	    asprintf(&svg, "%s/%s.svg", dir, p->name) < 0 ||
	    asprintf(&tpng, "%s/.%s.png.%d", dir, p->name, (int)getpid()) < 0 ||
	    asprintf(&tsvg, "%s/.%s.svg.%d", dir, p->name, (int)getpid()) < 0 ||
	    asprintf(&log, "%s/.%s.log.%d", dir, p->name, (int)getpid()) < 0) {
		dl_err("out of memory");
		goto out;
	}
	if (write_file(&odat, dat, p, false))
		goto out;
	if (write_file(&ogp, gp, p, true))
		goto out;
	if (dl_cleanup_add_path(tpng) || dl_cleanup_add_path(tsvg) || dl_cleanup_add_path(log))
		goto out;
	rc = run_gnuplot(reading_name(&ogp), reading_name(&odat), tpng, tsvg, log);
	if (rc < 0)
		goto out;
	if (rc > 0 || !nonempty(tpng) || !nonempty(tsvg)) {
		first_error_line(log, why, sizeof(why));
		dl_err("%s: gnuplot could not draw the figure%s%s", gp, why[0] ? ": " : "", why);
		goto out;
	}
	ret = put_in_place(&odat, &ogp, tpng, png, tsvg, svg);
out:
	if (odat.f)
		dl_outfile_abort(&odat);
	if (ogp.f)
		dl_outfile_abort(&ogp);
	for (char **t = (char *[]){ tpng, tsvg, log, NULL }; *t; t++) {
		unlink(*t);
		dl_cleanup_forget_path(*t);
	}
	free(dat);
	free(gp);
	free(png);
	free(svg);
	free(tpng);
	free(tsvg);
	free(log);
	return ret;
}

int dl_plot_dir(const char *dir, const char *option)
{
	char *copy = strdup(dir);
	struct stat st;

	if (!copy)
		return dl_err("out of memory");
	for (char *s = copy + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
			dl_err("%s '%s': cannot create '%s': %s", option, dir, copy, strerror(errno));
			free(copy);
			return -1;
		}
		*s = '/';
	}
	free(copy);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return dl_err("%s '%s': cannot create it: %s", option, dir, strerror(errno));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return dl_err("%s '%s': not a directory", option, dir);
	if (access(dir, W_OK) != 0)
		return dl_err("%s '%s': not writable", option, dir);
	return 0;
}
