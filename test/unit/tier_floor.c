/* SPDX-License-Identifier: MIT */
/*
 * The floor of an iteration (docs/tier.md, "The floor") on sequences
 * small enough to work out by hand.
 */
#include <stdlib.h>

#include "tmgraph/floor.h"
#include "tmgraph/npu.h"
#include "check.h"

#define GB 1e9

static struct tg_tensor tensors[4];
static struct tg_op ops[4];
static int uses[4][4];

static void tensor(int id, double bytes, int producer, int reader)
{
	struct tg_tensor *t = &tensors[id];

	t->pub.bytes = bytes;
	t->pub.producer = producer;
	t->pub.first_use = reader;
	t->pub.last_use = reader;
	t->uses = uses[id];
	t->uses[0] = reader;
	t->nuses = 1;
	ops[producer].out[ops[producer].pub.noutputs++] = id;
}

static void read(int op, int id, double fetches)
{
	struct tg_op *o = &ops[op];
	struct dlasim_tier_operand *in = &o->in[o->pub.ninputs++];

	in->tensor = id;
	in->fraction = 1;
	in->fetches = fetches;
	o->pass_bytes += tensors[id].pub.bytes;
	o->stream_bytes += tensors[id].pub.bytes * (fetches - 1);
}

/* Four ops of 0.1 s on the MXUs, each waiting for the one before. */
static void sequence(struct tier_graph *g)
{
	memset(tensors, 0, sizeof(tensors));
	memset(ops, 0, sizeof(ops));
	for (int j = 0; j < 4; j++) {
		ops[j].pub.compute_s = 0.1;
		ops[j].count = 1;
		ops[j].prev_mxu = j - 1;
	}
	*g = (struct tier_graph){ .t = tensors, .nt = 0, .ops = ops, .nops = 4 };
}

/*
 * Op 0 writes 10 GB and 4 GB that op 3 reads (the 4 GB in 2 passes);
 * tier 1 holds 6 GB.  Op 2 starts once op 0's results have left (two
 * output buffers), so from then on 14 - 6 = 8 GB are in flash: 8 GB to
 * read at 1 GB/s in slots 2 and 3, 8 s, after slots 0 and 1 (0.2 s):
 * 8.2 s; 8 GB read from flash, 8 GB written to it.  A 4 GB operand read
 * in 2 passes saves one pass of an SRAM-sized block (80 MiB).
 */
static void flash_bound(void)
{
	struct tg_links l = { .tier1_Bps = 1000 * GB, .flash_read_Bps = 1 * GB,
			      .flash_write_Bps = 1 * GB, .network_Bps = 1 * GB };
	struct tier_graph g;
	struct tg_floor f;

	sequence(&g);
	g.nt = 2;
	tensor(0, 10 * GB, 0, 3);
	tensor(1, 4 * GB, 0, 3);
	read(3, 0, 1);
	read(3, 1, 2);
	CHECK(tier_graph_floor(&g, 6 * GB, &l, &f) == 0);
	CHECK_CLOSE(f.time_s, 8.2, 1e-12);
	CHECK_CLOSE(f.flash_read_bytes, 8 * GB, 1e-12);
	CHECK_CLOSE(f.flash_write_bytes, 8 * GB, 1e-12);
	CHECK_CLOSE(f.pass_saving_bytes, NPU_SRAM_PER_CORE, 1e-12);
	/* Tier 1 holds both: nothing from flash, the MXUs' 0.4 s. */
	CHECK(tier_graph_floor(&g, 14 * GB, &l, &f) == 0);
	CHECK_CLOSE(f.time_s, 0.4, 1e-12);
	CHECK(f.flash_read_bytes == 0 && f.flash_write_bytes == 0);
}

/*
 * Op 1 is a collective receiving 5 GB at 1 GB/s that op 2 reads: slots 1
 * and 2 last at least 5 s; with slots 0 and 3, 5.2 s.  Op 2 reads the
 * 5 GB from tier 1 at 10 GB/s (with the flash's 2 GB/s: 12 GB/s), under
 * the 5 s.
 */
static void network_bound(void)
{
	struct tg_links l = { .tier1_Bps = 10 * GB, .flash_read_Bps = 1 * GB,
			      .flash_write_Bps = 1 * GB, .network_Bps = 1 * GB };
	struct tier_graph g;
	struct tg_floor f;

	sequence(&g);
	g.nt = 1;
	ops[1].network = true;
	ops[1].pub.compute_s = 0;
	ops[1].pub.network_bytes = 5 * GB;
	ops[2].prev_mxu = 0;
	ops[3].prev_mxu = 2;
	tensor(0, 5 * GB, 1, 2);
	read(2, 0, 1);
	CHECK(tier_graph_floor(&g, 100 * GB, &l, &f) == 0);
	CHECK_CLOSE(f.time_s, 5.2, 1e-12);
	/* Without the collective, op 2's first pass, 5 GB at 12 GB/s, is
	 * fetched in slot 1 (from the start of op 1 to op 2's): with the
	 * three other slots' 0.1 s, 0.3 s + 5/12 s. */
	ops[1].pub.network_bytes = 0;
	CHECK(tier_graph_floor(&g, 100 * GB, &l, &f) == 0);
	CHECK_CLOSE(f.time_s, 0.3 + 5 / 12.0, 1e-12);
}

int main(void)
{
	RUN(flash_bound);
	RUN(network_bound);
	CHECK_EXIT();
}
