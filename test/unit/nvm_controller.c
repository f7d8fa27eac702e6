/* SPDX-License-Identifier: MIT */
/*
 * The persistent memory controller with the shipped persist and
 * log-allocation plugins, driven by hand (test/unit/nvm_fake.h): each test
 * replays a situation the dissertation describes and checks where every
 * line goes and when the transaction commits.  The whole state is audited
 * against I1-I6 after every event.
 */
#include "check.h"
#include "nvm_fake.h"

static const struct dlasim_pm_line *line(struct dlasim_pm_ctx *c, int core, int k)
{
	return c->cur[core] ? &c->cur[core]->line[k].pub : NULL;
}

static struct dlasim_pm_ctx *open_audited(const char *persist, const char *logalloc, int adr,
					  int staging)
{
	struct dlasim_pm_ctx *c = fake_open(persist, logalloc, adr, staging);

	if (c)
		mc_set_audit(c, true);
	return c;
}

/* Write `n` lines (first..first+n-1) of core `core`, each accepted. */
static int write_lines(struct dlasim_pm_ctx *c, int core, int first, int n)
{
	for (int i = 0; i < n; i++)
		if (mc_write(c, core, fake_addr(core, first + i)) != MC_GO)
			return -1;
	return 0;
}

/* REDU (S2.2): every line redo-logged at once, the header after its
 * entries (intra-record ordering), commit when the header persists, the
 * lines in place only after the commit. */
static void redu_commits_after_its_log(void)
{
	struct dlasim_pm_ctx *c = open_audited("redu.so", "seq.so", 16, 64);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 0) == MC_GO);
	CHECK(write_lines(c, 0, 0, 3) == 0);
	CHECK(fake_count(PMC_OP_ENTRY) == 3);
	CHECK(mc_tx_end(c, 0) == MC_WAIT);
	CHECK(fake_count(PMC_OP_HEADER) == 0);	/* not before its entries */
	for (int i = 0; i < 3; i++)
		CHECK(fake_complete_kind(PMC_OP_ENTRY) == 0);
	CHECK(fake_count(PMC_OP_HEADER) == 1);
	CHECK(fake.wakes[0] == 0 && fake_count(PMC_OP_INPLACE) == 0);
	CHECK(fake_complete_kind(PMC_OP_HEADER) == 0);
	CHECK(fake.wakes[0] == 1);
	CHECK(fake_count(PMC_OP_INPLACE) == 3);
	CHECK(fake_drain() == 0);
	CHECK(c->st.committed == 1 && c->st.entries == 3 && c->st.headers_written == 1);
	CHECK(c->head == NULL);	/* retired, log slots released */
	fake_close();
}

/* BLOM (S2.2): the header stays in the ADR, so the transaction commits
 * when its entries persist and no header is written; it leaves the ADR
 * once the lines are home. */
static void blom_buffers_the_header(void)
{
	struct dlasim_pm_ctx *c = open_audited("redu.so:blom=1", "seq.so", 16, 64);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 0) == MC_GO);
	CHECK(write_lines(c, 0, 0, 2) == 0);
	CHECK(mc_tx_end(c, 0) == MC_WAIT);
	CHECK(c->adr_headers == 1);
	CHECK(fake_complete_kind(PMC_OP_ENTRY) == 0);
	CHECK(fake.wakes[0] == 0);
	CHECK(fake_complete_kind(PMC_OP_ENTRY) == 0);
	CHECK(fake.wakes[0] == 1 && fake_count(PMC_OP_HEADER) == 0);
	CHECK(fake_drain() == 0);
	CHECK(c->adr_headers == 0 && c->st.headers_written == 0 && c->st.headers_buffered == 1);
	fake_close();
}

/* LAD (S1.2): lines collect in the ADR; a transaction that fits commits at
 * tx_end without a log; its lines drain only then. */
static void lad_logless_commits_at_tx_end(void)
{
	struct dlasim_pm_ctx *c = open_audited("lad.so", "seq.so", 32, 64);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 0) == MC_GO);
	CHECK(write_lines(c, 0, 0, 5) == 0);
	CHECK(fake.nops == 0);	/* nothing drains before the commit */
	CHECK(mc_tx_end(c, 0) == MC_GO);
	CHECK(fake_count(PMC_OP_DRAIN) == 5 && c->st.exec[PM_DIRECT] == 1);
	CHECK(fake_drain() == 0);
	fake_close();
}

/* LAD's fallback: with 10 entries the threshold is 8 lines; the line that
 * would be the 9th uncommitted one makes its transaction undo-log every
 * line (old value read, entry, header, then in place) and commit once all
 * are home; the other transaction stays logless. */
static void lad_falls_back_to_undo(void)
{
	struct dlasim_pm_ctx *c = open_audited("lad.so", "seq.so", 10, 64);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 0) == MC_GO && mc_tx_begin(c, 1) == MC_GO);
	CHECK(write_lines(c, 0, 0, 4) == 0 && write_lines(c, 1, 0, 4) == 0);
	CHECK(fake.nops == 0);
	CHECK(write_lines(c, 1, 4, 1) == 0);
	CHECK(fake_count(PMC_OP_OLD) == 5);
	CHECK(line(c, 0, 0)->log == DLASIM_PM_NOLOG && line(c, 1, 0)->log == DLASIM_PM_UNDO);
	CHECK(mc_tx_end(c, 1) == MC_WAIT);
	while (fake_count(PMC_OP_OLD) || fake_count(PMC_OP_ENTRY) || fake_count(PMC_OP_HEADER))
		for (int i = 0; i < fake.nops; i++)
			if (fake.op[i]->kind != PMC_OP_HOME) {
				CHECK(fake_complete(i) == 0);
				break;
			}
	CHECK(fake_count(PMC_OP_HOME) == 5);
	CHECK(fake.wakes[1] == 0);	/* undo: not before the lines are home */
	CHECK(fake_drain() == 0);
	CHECK(fake.wakes[1] == 1 && c->st.exec[PM_UNNECESSARY] == 1);
	CHECK(mc_tx_end(c, 0) == MC_GO && c->st.exec[PM_DIRECT] == 1);
	CHECK(fake_drain() == 0);
	fake_close();
}

/* LAD falls back on a depleted ADR (1.2, 2.1.4, 4.5.2).  10 entries: core
 * 0's committed lines fill half while they drain, core 1's five
 * uncommitted lines the rest (5 < the threshold's 8).  Core 1's sixth
 * line finds no entry: its transaction undo-logs its five ADR lines and
 * the sixth from the log queue (six old values read), and the core goes
 * on.  With depleted=stall the core waits instead, nothing logged. */
static void lad_depleted(const char *persist, bool stall)
{
	struct dlasim_pm_ctx *c = open_audited(persist, "seq.so", 10, 64);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 0) == MC_GO && mc_tx_begin(c, 1) == MC_GO);
	CHECK(write_lines(c, 0, 0, 5) == 0);
	CHECK(mc_tx_end(c, 0) == MC_GO && fake_count(PMC_OP_DRAIN) == 5);
	CHECK(write_lines(c, 1, 0, 5) == 0 && fake_count(PMC_OP_OLD) == 0);
	if (stall) {
		CHECK(mc_write(c, 1, fake_addr(1, 5)) == MC_WAIT);
		CHECK(fake_count(PMC_OP_OLD) == 0 && c->st.stalls == 1);
	} else {
		CHECK(mc_write(c, 1, fake_addr(1, 5)) == MC_GO);
		CHECK(fake_count(PMC_OP_OLD) == 6 && c->st.stalls == 0);
		CHECK(line(c, 1, 5)->place == DLASIM_PM_LOGQ && line(c, 1, 5)->log == DLASIM_PM_UNDO);
		CHECK(mc_tx_end(c, 1) == MC_WAIT);
	}
	CHECK(fake_drain() == 0);
	if (stall) {	/* the line got its entry; logless, as it fits */
		CHECK(line(c, 1, 5)->place == DLASIM_PM_ADR && mc_tx_end(c, 1) == MC_GO);
		CHECK(fake_drain() == 0 && c->st.exec[PM_DIRECT] == 2);
	}
	CHECK(c->st.committed == 2);
	fake_close();
}

static void lad_falls_back_on_a_depleted_adr(void)
{
	lad_depleted("lad.so", false);
}

static void lad_stalls_on_a_depleted_adr_if_asked(void)
{
	lad_depleted("lad.so:depleted=stall", true);
}

/* LAD-RdLog: the same fallback with redo entries; the logged lines leave
 * the ADR when their entries persist; commit when the log is durable. */
static void lad_rdlog_falls_back_to_redo(void)
{
	struct dlasim_pm_ctx *c = open_audited("lad_rdlog.so", "seq.so", 10, 64);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 0) == MC_GO);
	CHECK(write_lines(c, 0, 0, 9) == 0);
	CHECK(fake_count(PMC_OP_OLD) == 0 && fake_count(PMC_OP_ENTRY) == 9);
	CHECK(mc_tx_end(c, 0) == MC_WAIT);
	while (fake_count(PMC_OP_ENTRY) || fake_count(PMC_OP_HEADER))
		CHECK(fake_complete(0) == 0);
	CHECK(fake.wakes[0] == 1 && c->used[DLASIM_PM_ADR] == 0);
	CHECK(fake_count(PMC_OP_INPLACE) == 9);
	CHECK(fake_drain() == 0);
	fake_close();
}

/*
 * TSTE, Figure 3.4 with an ADR and a staging buffer of 4 entries and at
 * most 2 log entries of a transaction in flight.
 */
static struct dlasim_pm_ctx *tste_initial_state(void)
{
	struct dlasim_pm_ctx *c = open_audited("tste.so:logpar=2", "seq.so", 4, 4);

	if (!c)
		return NULL;
	/* Initial state: A1 A2 B1 B2 fill the ADR. */
	if (mc_tx_begin(c, 0) || mc_tx_begin(c, 1) || write_lines(c, 0, 0, 2) ||
	    write_lines(c, 1, 0, 2) || c->used[DLASIM_PM_ADR] != 4)
		return NULL;
	return c;
}

/* Case a: A3 overflows the ADR; A (the older) becomes priority, B's lines
 * move to staging and are logged.  Case b: B3 and B4 are staged, pending
 * while B1 and B2 log. */
static void tste_cases_a_and_b(void)
{
	struct dlasim_pm_ctx *c = tste_initial_state();

	CHECK(c);
	if (!c)
		return;
	CHECK(write_lines(c, 0, 2, 1) == 0);
	CHECK(line(c, 0, 2)->place == DLASIM_PM_ADR);
	CHECK(line(c, 1, 0)->place == DLASIM_PM_STAGE && line(c, 1, 1)->place == DLASIM_PM_STAGE);
	CHECK(line(c, 1, 0)->log_state == DLASIM_PM_LOG_ISSUED);
	CHECK(fake_count(PMC_OP_ENTRY) == 2);
	CHECK(write_lines(c, 1, 2, 2) == 0);
	CHECK(line(c, 1, 2)->place == DLASIM_PM_STAGE && line(c, 1, 3)->place == DLASIM_PM_STAGE);
	CHECK(line(c, 1, 2)->log_state == DLASIM_PM_LOG_NONE);	/* pending */
	CHECK(line(c, 1, 3)->log_state == DLASIM_PM_LOG_NONE);
	CHECK(fake_count(PMC_OP_ENTRY) == 2);
	/* An entry persists: the next pending line is logged. */
	CHECK(fake_complete_kind(PMC_OP_ENTRY) == 0);
	CHECK(line(c, 1, 2)->log_state == DLASIM_PM_LOG_ISSUED);
	CHECK(line(c, 1, 3)->log_state == DLASIM_PM_LOG_NONE);
	fake_close();
}

/* Case c: B ends with B3 and B4 pending; once the ADR has two free
 * entries B is promoted: B3 and B4 move to the ADR unlogged, B commits
 * when B1 and B2 are durable. */
static void tste_case_c(void)
{
	struct dlasim_pm_ctx *c = tste_initial_state();
	const struct dlasim_pm_tx *b;

	CHECK(c);
	if (!c)
		return;
	CHECK(write_lines(c, 0, 2, 1) == 0 && write_lines(c, 1, 2, 2) == 0);
	b = &c->cur[1]->pub;
	CHECK(mc_tx_end(c, 0) == MC_GO);	/* A: every line in the ADR */
	CHECK(fake_count(PMC_OP_DRAIN) == 3);
	CHECK(mc_tx_end(c, 1) == MC_WAIT);
	CHECK(line(c, 1, 2)->place == DLASIM_PM_STAGE);	/* one free entry: too few */
	CHECK(fake_complete_kind(PMC_OP_DRAIN) == 0);
	CHECK(line(c, 1, 2)->place == DLASIM_PM_ADR && line(c, 1, 3)->place == DLASIM_PM_ADR);
	CHECK(line(c, 1, 2)->log_state == DLASIM_PM_LOG_NONE);
	CHECK(!b->committed && fake.wakes[1] == 0);
	while (fake_count(PMC_OP_ENTRY) || fake_count(PMC_OP_HEADER))
		CHECK(fake_complete_kind(fake_count(PMC_OP_ENTRY) ? PMC_OP_ENTRY : PMC_OP_HEADER) == 0);
	CHECK(fake.wakes[1] == 1);
	CHECK(c->st.entries == 2);	/* B3 and B4 were never logged */
	CHECK(fake_drain() == 0);
	fake_close();
}

/* Case d: the priority transaction fills the ADR itself; A5 and A6 are
 * staged and logged (first stage); A commits when they are durable and
 * only then do A1-A4 drain (second stage). */
static void tste_case_d(void)
{
	struct dlasim_pm_ctx *c = open_audited("tste.so:logpar=2", "seq.so", 4, 4);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 0) == MC_GO);
	CHECK(write_lines(c, 0, 0, 6) == 0);
	for (int k = 0; k < 4; k++)
		CHECK(line(c, 0, k)->place == DLASIM_PM_ADR);
	CHECK(line(c, 0, 4)->place == DLASIM_PM_STAGE && line(c, 0, 5)->place == DLASIM_PM_STAGE);
	CHECK(fake_count(PMC_OP_ENTRY) == 2);
	CHECK(mc_tx_end(c, 0) == MC_WAIT);
	while (fake_count(PMC_OP_ENTRY) || fake_count(PMC_OP_HEADER)) {
		CHECK(fake_count(PMC_OP_DRAIN) == 0);
		CHECK(fake_complete(0) == 0);
	}
	CHECK(fake.wakes[0] == 1);
	CHECK(fake_count(PMC_OP_DRAIN) == 4 && fake_count(PMC_OP_INPLACE) == 2);
	CHECK(c->st.exec[PM_NECESSARY] == 1);
	CHECK(fake_drain() == 0);
	fake_close();
}

/*
 * VADR admission (S1.2): with an ADR of 4, X (3 lines) ends and is
 * admitted; Y (2 lines) ends and waits, 1 entry being free; Z (1 line)
 * ends.  FCFS keeps Z behind Y, admitting Y when a drain frees a second
 * entry; MUDF admits Z at once and Y later.
 */
static void vadr_admission(const char *spec, bool mudf)
{
	struct dlasim_pm_ctx *c = open_audited(spec, "seq.so", 4, 64);

	CHECK(c);
	if (!c)
		return;
	for (int core = 0; core < 3; core++)
		CHECK(mc_tx_begin(c, core) == MC_GO && write_lines(c, core, 0, 3 - core) == 0);
	CHECK(fake.nops == 0 && c->used[DLASIM_PM_VBUF] == 6);
	CHECK(mc_tx_end(c, 0) == MC_GO);
	CHECK(mc_tx_end(c, 1) == MC_WAIT);
	CHECK(mc_tx_end(c, 2) == (mudf ? MC_GO : MC_WAIT));
	CHECK(fake_complete_kind(PMC_OP_DRAIN) == 0);
	CHECK(fake.wakes[1] == !mudf && fake.wakes[2] == 0);
	CHECK(fake_drain() == 0);
	CHECK(fake.wakes[1] == 1 && fake.wakes[2] == !mudf);
	CHECK(c->st.committed == 3 && c->st.entries == 0);
	fake_close();
}

static void vadr_admits_fcfs(void)
{
	vadr_admission("vadr.so", false);
}

static void vadr_admits_mudf(void)
{
	vadr_admission("vadr.so:admission=mudf", true);
}

/* A transaction larger than its virtual ADR becomes a log-transaction: the
 * line that overflows waits, the others are redo-logged; it never enters
 * the ADR. */
static void vadr_overflow_logs(void)
{
	struct dlasim_pm_ctx *c = open_audited("vadr.so", "seq.so", 4, 64);

	CHECK(c);
	if (!c)
		return;
	CHECK(mc_tx_begin(c, 3) == MC_GO && write_lines(c, 3, 0, 4) == 0);
	CHECK(mc_write(c, 3, fake_addr(3, 4)) == MC_WAIT);
	CHECK(fake_count(PMC_OP_ENTRY) == 4);
	CHECK(fake_complete_kind(PMC_OP_ENTRY) == 0);
	CHECK(fake.wakes[3] == 1 && line(c, 3, 4)->place == DLASIM_PM_VBUF);
	CHECK(mc_tx_end(c, 3) == MC_WAIT);
	CHECK(fake_drain() == 0);
	CHECK(c->st.exec[PM_NECESSARY] == 1 && c->st.ops[PMC_OP_DRAIN] == 0);
	fake_close();
}

/* seq under page interleaving: 64 consecutive blocks (4 KB) in one bank,
 * then the next bank. */
static void seq_fills_one_bank_per_page(void)
{
	struct dlasim_pm_ctx *c = fake_open("redu.so", "seq.so", 16, 64);
	int bank0;

	CHECK(c);
	if (!c)
		return;
	bank0 = fake_bank_of(NULL, la_alloc(c->la, DLASIM_LA_ENTRY));
	for (int i = 1; i < 64; i++)
		CHECK(fake_bank_of(NULL, la_alloc(c->la, DLASIM_LA_ENTRY)) == bank0);
	CHECK(fake_bank_of(NULL, la_alloc(c->la, DLASIM_LA_ENTRY)) == (bank0 + 1) % 8);
	fake_close();
}

/* LALEA (4.3): the bank with the fewest pending operations, ties to the
 * lowest; a header takes two blocks of one bank. */
static void lalea_picks_the_least_loaded_bank(void)
{
	struct dlasim_pm_ctx *c = fake_open("redu.so", "lalea.so", 16, 64);
	struct pmc_op busy[3] = { { .addr = 0 }, { .addr = 4096 }, { .addr = 2 * 4096 } };
	long h;

	CHECK(c);
	if (!c)
		return;
	for (int i = 0; i < 3; i++)
		fake.op[fake.nops++] = &busy[i];	/* banks 0, 1, 2 busy */
	CHECK(fake_bank_of(NULL, la_alloc(c->la, DLASIM_LA_ENTRY)) == 3);
	h = la_alloc(c->la, DLASIM_LA_HEADER);
	CHECK(fake_bank_of(NULL, h) == 3);
	CHECK(fake_bank_of(NULL, la_slot_block(c->la, h, 1)) == 3);
	fake.nops = 0;
	fake_close();
}

/* The invariants: each broken plugin is stopped at its first wrong move,
 * with the transaction named. */
static void broken(const char *spec, const char *logalloc, const char *want, int lines)
{
	struct dlasim_pm_ctx *c = fake_open(spec, logalloc, 4, 4);
	int r = 0;

	CHECK(c);
	if (!c)
		return;
	r |= mc_tx_begin(c, 0);
	for (int i = 0; i < lines && r >= 0; i++)
		r = mc_write(c, 0, fake_addr(0, i));
	if (r >= 0)
		r = mc_tx_end(c, 0);
	if (r >= 0)
		r = fake_drain();
	CHECK(r < 0 && c->violated);
	if (!strstr(c->why, want) || !strstr(c->why, "transaction 0 (core 0)")) {
		printf("    got '%s', want '%s'\n", c->why, want);
		CHECK(0);
	}
	fake_close();
}

static void invariants_stop_broken_plugins(void)
{
	broken("test/persist_early_commit.so", "seq.so", "before the redo log of line 0 is durable (its entry has not persisted) (I2)", 1);
	broken("test/persist_misbehave.so:break=home", "seq.so", "before its undo entry is durable (I1)", 1);
	broken("test/persist_misbehave.so:break=overfill", "seq.so", "which is full (I5)", 5);
	broken("test/persist_misbehave.so:break=unplaced", "seq.so", "left it in no buffer (I6)", 1);
	broken("test/persist_misbehave.so:break=early", "seq.so", "before tx_end", 1);
	broken("test/persist_misbehave.so:break=volatile", "seq.so", "line 0 is in the staging buffer", 1);
}

static void wrong_log_slots_are_refused(void)
{
	const char *tp = "test/logalloc_misbehave.so:break=";
	char l[128];

	snprintf(l, sizeof(l), "%sbank", tp);
	broken("redu.so", l, "but that address is in bank", 1);
	snprintf(l, sizeof(l), "%soutside", tp);
	broken("redu.so", l, "not a 64 B block of the log area", 1);
	snprintf(l, sizeof(l), "%slive", tp);
	broken("redu.so", l, "is in use", 2);
}

int main(void)
{
	RUN(redu_commits_after_its_log);
	RUN(blom_buffers_the_header);
	RUN(lad_logless_commits_at_tx_end);
	RUN(lad_falls_back_to_undo);
	RUN(lad_falls_back_on_a_depleted_adr);
	RUN(lad_stalls_on_a_depleted_adr_if_asked);
	RUN(lad_rdlog_falls_back_to_redo);
	RUN(tste_cases_a_and_b);
	RUN(tste_case_c);
	RUN(tste_case_d);
	RUN(vadr_admits_fcfs);
	RUN(vadr_admits_mudf);
	RUN(vadr_overflow_logs);
	RUN(seq_fills_one_bank_per_page);
	RUN(lalea_picks_the_least_loaded_bank);
	RUN(invariants_stop_broken_plugins);
	RUN(wrong_log_slots_are_refused);
	CHECK_EXIT();
}
