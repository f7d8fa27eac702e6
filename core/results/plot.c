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

static void write_axes(const struct dl_plot *p, FILE *f)
{
	fprintf(f, "set title ");
	gp_string(f, p->title ? p->title : p->name);
	fprintf(f, "\nset xlabel ");
	gp_string(f, p->xlabel ? p->xlabel : "");
	fprintf(f, "\nset ylabel ");
	gp_string(f, p->ylabel ? p->ylabel : "");
	fprintf(f, "\nset grid ytics\nset key outside right top\n");
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
		fprintf(f, "set xtics rotate by -30 nomirror (");
		for (int i = 0; i < p->ncat; i++) {
			fprintf(f, "%s", i ? ", " : "");
			gp_string(f, p->cats[i]);
			fprintf(f, " %.17g", cat_centre(p, i));
		}
		fprintf(f, ")\n");
	}
	/* n/a points carry a label where their bar or point would be. */
	for (int j = 0; j < p->nseries; j++)
		for (int i = 0; i < p->ncat; i++)
			if (isnan(p->series[j].y[i]) && p->kind != DL_PLOT_STACKED)
				fprintf(f, "set label 'n/a' at %.17g, graph 0.03 center rotate by 90 font ',8'\n",
					p->kind == DL_PLOT_LINES ? line_x(p, i) : bar_x(p, i, j));
	if (p->note) {
		fprintf(f, "set label ");
		gp_string(f, p->note);
		fprintf(f, " at screen 0.01, screen 0.02 left font ',9'\n");
		fprintf(f, "set bmargin 6\n");
	}
}

static void write_plot_command(const struct dl_plot *p, FILE *f, const char *dat)
{
	const char *style = p->kind == DL_PLOT_LINES ? "linespoints lw 2 pt 7" : "boxes";
	bool first = true;

	fprintf(f, "plot ");
	/* Stacked segments are drawn from the top down so lower ones overlay. */
	for (int n = 0; n < p->nseries; n++) {
		int j = p->kind == DL_PLOT_STACKED ? p->nseries - 1 - n : n;

		fprintf(f, "%s", first ? "" : ", \\\n     ");
		first = false;
		gp_string(f, dat);
		fprintf(f, " index %d using 1:2 with %s lc rgb '%s' title ", j, style,
			colours[j % NCOLOURS]);
		gp_string(f, p->series[j].name);
	}
	if (p->nmarks > 0) {
		fprintf(f, "%s", first ? "" : ", \\\n     ");
		gp_string(f, dat);
		fprintf(f, " index %d using 1:2 with points pt 9 ps 1.6 lc rgb 'black' title ",
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
	fprintf(f, "if (!exists('png')) png = '%s.png'\n", p->name);
	fprintf(f, "if (!exists('svg')) svg = '%s.svg'\n", p->name);
	fprintf(f, "set encoding utf8\nset termoption noenhanced\n");
	write_axes(p, f);
	fprintf(f, "set terminal pngcairo size 1100,620 font 'sans,10' noenhanced\n");
	fprintf(f, "set output png\n");
	write_plot_command(p, f, dat);
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

static int write_file(const char *path, const struct dl_plot *p, bool script)
{
	struct dl_outfile out;
	int ret;

	if (dl_outfile_open(&out, path, "figure"))
		return -1;
	if (script) {
		ret = write_script(p, out.f);
	} else {
		write_data(p, out.f);
		ret = ferror(out.f) ? -1 : 0;
	}
	if (ret) {
		dl_outfile_abort(&out);
		return dl_err("figure %s: write failed", path);
	}
	return dl_outfile_commit(&out);
}

/* Run gnuplot on NAME.gp in `dir`, drawing into the temporary image
 * names, its messages into `log`. */
static int run_gnuplot(const char *dir, const struct dl_plot *p, const char *tpng,
		       const char *tsvg, const char *log)
{
	char script[300], *vars = NULL;
	char *argv[] = { "gnuplot", "-e", NULL, script, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status, rc;

	snprintf(script, sizeof(script), "%s.gp", p->name);
	if (asprintf(&vars, "png='%s'; svg='%s'", strrchr(tpng, '/') + 1,
		     strrchr(tsvg, '/') + 1) < 0)
		return dl_err("out of memory");
	argv[2] = vars;
	if (posix_spawn_file_actions_init(&fa)) {
		free(vars);
		return dl_err("out of memory");
	}
	/* In order: the log is named from here, the script from `dir`. */
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(vars);
	if (rc)
		return dl_err("cannot run gnuplot: %s (Debian package gnuplot-nox; deps.sh installs it)",
			      strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return dl_err("waiting for gnuplot: %s", strerror(errno));
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

int dl_plot_render(const struct dl_plot *p, const char *dir)
{
	char *dat = NULL, *gp = NULL, *png = NULL, *svg = NULL, *tpng = NULL, *tsvg = NULL;
	char *log = NULL, why[512];
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
	if (write_file(dat, p, false) || write_file(gp, p, true))
		goto out;
	if (dl_cleanup_add_path(tpng) || dl_cleanup_add_path(tsvg) || dl_cleanup_add_path(log))
		goto out;
	rc = run_gnuplot(dir, p, tpng, tsvg, log);
	if (rc < 0)
		goto out;
	if (rc > 0 || !nonempty(tpng) || !nonempty(tsvg)) {
		first_error_line(log, why, sizeof(why));
		dl_err("%s: gnuplot could not draw the figure%s%s", gp, why[0] ? ": " : "", why);
		goto out;
	}
	if (rename(tpng, png) || rename(tsvg, svg)) {
		dl_err("%s: %s", png, strerror(errno));
		goto out;
	}
	ret = 0;
out:
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
