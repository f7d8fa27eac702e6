/* SPDX-License-Identifier: MIT */
/*
 * The DRAM placement plugins through their host:
 *  - LAP's Algorithm 2 on the example of the dissertation's Figure 5.5 (b):
 *    2 channels, 1 rank, 2 banks; DTile 0's three rowTasks go to channel
 *    0, channel 1, then another bank of channel 0; DTile 1's first rowTask
 *    to the least-loaded bank, bank 1 of channel 1, its second (all banks
 *    now equally loaded) to bank 0 of channel 0; DTile 2's to the channel
 *    with the lighter load;
 *  - LAP's Algorithm 3: the scan order bank -> rank -> channel (channel
 *    fastest) from the pointer, reads before writes, hand-derived below;
 *  - the host's default issue order (ROMA): one block per bank in turn;
 *  - ROMA's Algorithm 1: the ch -> rk -> ro -> bk -> co nest, DTiles
 *    packed back to back.
 */
#include <stdlib.h>

#include "plugin/plugin.h"
#include "nna/dma.h"
#include "check.h"

struct rig {
	struct dl_plugin *p;
	struct dlasim_dram_ctx c;
	struct nna_dma d;
	bool ok;
};

static void rig_open(struct rig *r, const char *plugin, int channels, int ranks, int banks,
		     int bankgroups)
{
	struct dlasim_dram_geometry g = { sizeof(g), channels, ranks, bankgroups, banks, 16, 1024,
					  8, 128 };

	memset(r, 0, sizeof(*r));
	dl_host_api.dram = &nna_dram_services;
	if (dl_plugin_open(&r->p, DLASIM_KIND_DRAM_PLACEMENT, plugin, "--dram-place",
			   nna_dram_ops_check))
		return;
	r->ok = nna_dram_init(&r->c, &g, r->p, 16) == 0 && nna_dma_init(&r->d, &r->c, 1) == 0;
}

static void rig_close(struct rig *r)
{
	nna_dma_free(&r->d);
	nna_dram_free(&r->c);
	dl_plugin_close(r->p);
}

static void nothing(struct nna_xfer *x)
{
}

/* Place DTile d of `bytes` and schedule its write (the rowTasks join the
 * banks' write lists, as a generated DTile's do). */
static bool place_and_write(struct rig *r, long d, double bytes, struct nna_xfer *x)
{
	struct dlasim_dtile t = { sizeof(t), d, DLASIM_DTILE_FMAP, 0, bytes, (long)(bytes / 8),
				  (int)((bytes + 1023) / 1024), false };

	if (nna_dram_place(&r->c, d, &t))
		return false;
	nna_xfer_init(x, true);
	x->on_done = nothing;
	if (nna_xfer_add(x, &r->d, d, 0, t.blocks))
		return false;
	nna_dma_submit(&r->d, x);
	return true;
}

static bool at(const struct rig *r, long d, int i, int ch, int bank, int row)
{
	const struct dlasim_dram_extent *e = &r->c.ext[r->c.first[d] + i];

	if (!(e->ch == ch && e->rk == 0 && e->bank == bank && e->row == row && e->col == 0))
		printf("    DTile %ld rowTask %d: ch %d bank %d row %d col %d\n", d, i, e->ch,
		       e->bank, e->row, e->col);
	return e->ch == ch && e->rk == 0 && e->bank == bank && e->row == row && e->col == 0;
}

static void test_lap_figure_5_5b(void)
{
	struct nna_xfer x[3];
	struct rig r;

	rig_open(&r, "lap", 2, 1, 2, 1);
	CHECK(r.ok);
	if (!r.ok)
		goto out;
	CHECK(place_and_write(&r, 0, 3 * 1024, &x[0]));
	CHECK(r.c.count[0] == 3 && at(&r, 0, 0, 0, 0, 0) && at(&r, 0, 1, 1, 0, 0) &&
	      at(&r, 0, 2, 0, 1, 0));
	/* Scheduled now: ch0/bank0, ch1/bank0, ch0/bank1 one rowTask each. */
	CHECK(place_and_write(&r, 1, 2 * 1024, &x[1]));
	CHECK(r.c.count[1] == 2 && at(&r, 1, 0, 1, 1, 0) && at(&r, 1, 1, 0, 0, 1));
	/* Channel 0 has 3 rowTasks scheduled, channel 1 has 2. */
	CHECK(place_and_write(&r, 2, 1024, &x[2]));
	CHECK(r.c.count[2] == 1 && at(&r, 2, 0, 1, 0, 1));
	for (int i = 0; i < 3; i++)
		nna_xfer_free(&x[i]);
out:
	rig_close(&r);
}

/* The flat bank of (ch, rk, bk) in a 2 x 2 x 2 device, and its position in
 * Algorithm 3's scan: (bk * ranks + rk) * channels + ch. */
#define FLAT(ch, rk, bk) (((ch) * 2 + (rk)) * 2 + (bk))

static void test_lap_algorithm_3(void)
{
	/*
	 * Writes: 2 blocks on (ch0 rk0 bk0) = scan position 0 and 2 on
	 * (ch1 rk1 bk1) = position 7; reads: 1 block on position 0 and 2 on
	 * (ch1 rk0 bk1) = position 5.  From pointer 0: position 0 sends its
	 * read (reads first); the scan from 1 finds 5 (read), from 6 finds 7
	 * (write), from 0 finds 0 (its write now), then 5, 7, 0 again.
	 */
	static const struct {
		int bank;
		bool write;
	} expect[] = { { 0, false }, { 5, false }, { 7, true }, { 0, true },
		       { 5, false }, { 7, true }, { 0, true } };
	const int position_bank[8] = { FLAT(0, 0, 0), FLAT(1, 0, 0), FLAT(0, 1, 0),
					      FLAT(1, 1, 0), FLAT(0, 0, 1), FLAT(1, 0, 1),
					      FLAT(0, 1, 1), FLAT(1, 1, 1) };
	struct nna_xfer w, rd;
	struct nna_req q;
	struct rig r;
	size_t i;

	rig_open(&r, "lap", 2, 2, 2, 1);
	CHECK(r.ok);
	if (!r.ok)
		goto out;
	nna_xfer_init(&w, true);
	nna_xfer_init(&rd, false);
	w.on_done = rd.on_done = nothing;
	nna_xfer_add_rowtask(&w, FLAT(0, 0, 0), 3, 0, 2);
	nna_xfer_add_rowtask(&w, FLAT(1, 1, 1), 3, 0, 2);
	nna_xfer_add_rowtask(&rd, FLAT(0, 0, 0), 4, 0, 1);
	nna_xfer_add_rowtask(&rd, FLAT(1, 0, 1), 4, 0, 2);
	nna_dma_submit(&r.d, &w);
	nna_dma_submit(&r.d, &rd);
	for (i = 0; i < sizeof(expect) / sizeof(expect[0]) && !nna_dma_idle(&r.d); i++) {
		CHECK(nna_dma_next(&r.d, &q) == 0);
		CHECK(q.bank == position_bank[expect[i].bank] && q.write == expect[i].write &&
		      q.blocks == 1);
	}
	CHECK(i == sizeof(expect) / sizeof(expect[0]) && nna_dma_idle(&r.d));
	nna_xfer_free(&w);
	nna_xfer_free(&rd);
out:
	rig_close(&r);
}

/* Without next_bank(): a transfer with rowTasks A (2 blocks), B, A' (the
 * next rowTask on A's bank), C sends A, B, C, A, A' (one block per bank in
 * turn, a bank's rowTasks one after the other); two transfers alternate. */
static void test_default_order(void)
{
	static const int one[] = { 0, 1, 2, 0, 0 };
	static const int two[] = { 0, 3, 1, 3 };
	struct nna_xfer x, y;
	struct nna_req q;
	struct rig r;

	rig_open(&r, "roma", 1, 1, 4, 1);
	CHECK(r.ok);
	if (!r.ok)
		goto out;
	nna_xfer_init(&x, false);
	x.on_done = nothing;
	nna_xfer_add_rowtask(&x, 0, 0, 0, 2);
	nna_xfer_add_rowtask(&x, 1, 0, 0, 1);
	nna_xfer_add_rowtask(&x, 0, 1, 0, 1);
	nna_xfer_add_rowtask(&x, 2, 0, 0, 1);
	nna_dma_submit(&r.d, &x);
	for (int i = 0; i < 5; i++) {
		CHECK(nna_dma_next(&r.d, &q) == 0 && q.bank == one[i]);
		CHECK(i != 4 || q.row == 1);
	}
	CHECK(nna_dma_idle(&r.d));
	nna_xfer_free(&x);
	nna_xfer_init(&x, false);
	nna_xfer_init(&y, true);
	x.on_done = y.on_done = nothing;
	nna_xfer_add_rowtask(&x, 0, 0, 0, 1);
	nna_xfer_add_rowtask(&x, 1, 0, 0, 1);
	nna_xfer_add_rowtask(&y, 3, 0, 0, 2);
	nna_dma_submit(&r.d, &x);
	nna_dma_submit(&r.d, &y);
	for (int i = 0; i < 4; i++)
		CHECK(nna_dma_next(&r.d, &q) == 0 && q.bank == two[i]);
	nna_xfer_free(&x);
	nna_xfer_free(&y);
out:
	rig_close(&r);
}

/* ROMA: 3 KiB + 1 KiB + 2 KiB DTiles on 1 channel, 2 ranks, 4 banks of 16
 * rows: the cursor fills row 0 of banks 0, 1, 2, then bank 3, then row 0 of
 * bank 0 is full so row 1 of banks 0 and 1; with banks=ba (2 groups of 2)
 * the nest's banks are 0, 2, 1, 3. */
static void test_roma_nest(void)
{
	struct dlasim_dtile t = { sizeof(t), 0, DLASIM_DTILE_WEIGHT, 0, 0, 0, 0, true };
	static const double bytes[] = { 3072, 1024, 2048, 1000 };
	struct rig r;

	rig_open(&r, "roma", 1, 2, 4, 2);
	CHECK(r.ok);
	if (!r.ok)
		goto out;
	for (int d = 0; d < 4; d++) {
		t.gid = d;
		t.bytes = bytes[d];
		t.blocks = (long)(bytes[d] + 7) / 8;
		t.rowtasks = (int)(bytes[d] + 1023) / 1024;
		CHECK(nna_dram_place(&r.c, d, &t) == 0);
	}
	CHECK(r.c.count[0] == 3 && at(&r, 0, 0, 0, 0, 0) && at(&r, 0, 1, 0, 1, 0) &&
	      at(&r, 0, 2, 0, 2, 0));
	CHECK(r.c.count[1] == 1 && at(&r, 1, 0, 0, 3, 0));
	CHECK(r.c.count[2] == 2 && at(&r, 2, 0, 0, 0, 1) && at(&r, 2, 1, 0, 1, 1));
	/* 1000 bytes are 125 blocks: row 1 of bank 2 from column 0. */
	CHECK(r.c.count[3] == 1 && r.c.ext[r.c.first[3]].blocks == 125);
	rig_close(&r);
	rig_open(&r, "roma:banks=ba", 1, 2, 4, 2);
	CHECK(r.ok);
	if (!r.ok)
		goto out;
	t.gid = 0;
	t.bytes = 4096;
	t.blocks = 512;
	t.rowtasks = 4;
	CHECK(nna_dram_place(&r.c, 0, &t) == 0);
	CHECK(at(&r, 0, 0, 0, 0, 0) && at(&r, 0, 1, 0, 2, 0) && at(&r, 0, 2, 0, 1, 0) &&
	      at(&r, 0, 3, 0, 3, 0));
out:
	rig_close(&r);
}

int main(void)
{
	static char path[512];
	const char *build = getenv("BUILD");

	snprintf(path, sizeof(path), "%s/plugins", build ? build : "build");
	setenv("DLASIM_PLUGIN_PATH", path, 1);
	RUN(test_lap_figure_5_5b);
	RUN(test_lap_algorithm_3);
	RUN(test_default_order);
	RUN(test_roma_nest);
	CHECK_EXIT();
}
