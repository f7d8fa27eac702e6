/* SPDX-License-Identifier: MIT */
/*
 * Figures: gnuplot draws valid, non-trivial PNG and SVG files holding what
 * was asked for (labels, series, the paper's marks, n/a points), and a
 * figure that cannot be drawn is one reported error with nothing left.
 */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/plot.h"

static char dir[] = "/tmp/dlasim-plot.XXXXXX";

static const char *const cats[] = { "AlexNet", "GoogLeNet", "VGG-E", "ResNet" };
static const double dc[] = { 1, 1, 1, 1 };
static const double hc[] = { 1.3, 1.2, NAN, 1.5 };
static const double mc[] = { 3.1, 3.5, 3.9, 2.8 };
static const struct dl_plot_series series[] = {
	{ "DC-DLA", dc }, { "HC-DLA", hc }, { "MC-DLA(B)", mc },
};
static const struct dl_plot_mark marks[] = { { 0, 2, 3.5 }, { 2, 1, 1.32 } };

static struct dl_plot figure(const char *name, enum dl_plot_kind kind)
{
	return (struct dl_plot){
		.name = name, .title = "Speedup over DC-DLA", .xlabel = "benchmark",
		.ylabel = "speedup over DC-DLA (x)", .kind = kind, .cats = cats,
		.ncat = 4, .series = series, .nseries = 3, .marks = marks, .nmarks = 2,
		.note = "n/a: HC-DLA's VGG-E",
	};
}

static char *slurp(const char *name, const char *ext, long *len)
{
	char path[256];
	FILE *f;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	buf = calloc(1, *len + 1);
	if (buf && fread(buf, 1, *len, f) != (size_t)*len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* A PNG: signature, an IHDR of the size the script asks for, and enough
 * bytes that something was drawn (an empty 1100x620 frame is ~3 KB). */
static void check_png(const char *name)
{
	long len = 0;
	unsigned char *b = (unsigned char *)slurp(name, "png", &len);

	CHECK(b != NULL);
	if (!b)
		return;
	CHECK(len > 10000);
	CHECK(memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0);
	CHECK(memcmp(b + 12, "IHDR", 4) == 0);
	CHECK(be32(b + 16) == 1100 && be32(b + 20) == 620);
	free(b);
}

/* An SVG holding the labels, every series, the marks' key and n/a. */
static void check_svg(const char *name, bool na)
{
	static const char *const must[] = {
		"<svg", "Speedup over DC-DLA", "speedup over DC-DLA (x)", "benchmark",
		"DC-DLA", "HC-DLA", "MC-DLA(B)", "paper", "GoogLeNet", "</svg>",
	};
	long len = 0;
	char *s = slurp(name, "svg", &len);

	CHECK(s != NULL);
	if (!s)
		return;
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!strstr(s, must[i])) {
			printf("    %s.svg lacks '%s'\n", name, must[i]);
			check_failed_in_test++;
		}
	CHECK(!na || strstr(s, "n/a"));
	free(s);
}

static void bars(void)
{
	struct dl_plot p = figure("bars", DL_PLOT_BARS);
	long len = 0;
	char *dat;

	CHECK(dl_plot_render(&p, dir) == 0);
	check_png("bars");
	check_svg("bars", true);
	/* The numbers are kept beside the images: the VGG-E bar of HC-DLA is
	 * left out, the MC-DLA(B) bar of ResNet is at slot 3 * 4 + 2. */
	dat = slurp("bars", "dat", &len);
	CHECK(dat && strstr(dat, "\n14 2.7999999999999998\n"));
	CHECK(dat && !strstr(dat, "nan"));
	free(dat);
}

static void stacked_and_lines(void)
{
	static const double x[] = { 128, 256, 512, 1024 };
	struct dl_plot p = figure("stacked", DL_PLOT_STACKED);
	long len = 0;
	char *dat;

	CHECK(dl_plot_render(&p, dir) == 0);
	check_png("stacked");
	check_svg("stacked", false);
	/* Stacks hold the running sum: AlexNet's top is 1 + 1.3 + 3.1. */
	dat = slurp("stacked", "dat", &len);
	CHECK(dat && strstr(dat, "\n0 5.4000000000000004\n"));
	free(dat);
	p = figure("lines", DL_PLOT_LINES);
	p.x = x;
	p.logx = true;
	CHECK(dl_plot_render(&p, dir) == 0);
	check_png("lines");
	check_svg("lines", true);
}

static void refused(void)
{
	struct dl_plot p = figure("../escape", DL_PLOT_BARS);
	struct dl_plot_mark bad = { 7, 0, 1 };
	const char *path = getenv("PATH");
	char *saved = path ? strdup(path) : NULL;
	long len;

	CHECK(dl_plot_render(&p, dir) != 0);
	p = figure("outside", DL_PLOT_BARS);
	p.marks = &bad;
	p.nmarks = 1;
	CHECK(dl_plot_render(&p, dir) != 0);
	/* Without gnuplot: an error, and no image left behind. */
	p = figure("nognuplot", DL_PLOT_BARS);
	setenv("PATH", "/nonexistent", 1);
	CHECK(dl_plot_render(&p, dir) != 0);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	CHECK(slurp("nognuplot", "png", &len) == NULL);
	CHECK(dl_plot_dir("/proc/version/figs", "--plot") != 0);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	RUN(bars);
	RUN(stacked_and_lines);
	RUN(refused);
	if (system(NULL)) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			printf("could not remove %s\n", dir);
	}
	CHECK_EXIT();
}
