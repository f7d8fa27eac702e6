#!/bin/sh
# dlasim study nna on two networks (FaceRecognition, DeepBench's five
# independent convolutions, and MobileNet), the four designs on the 32 x 32
# array and ARAI on the 16 x 16 and 64 x 64 ones: the tables, the figures
# drawn, and the relations the dissertation's Chapter 5 states (the
# numbers beside the dissertation's are docs/validation/nna.md's, from the
# whole study).
. test/lib.sh
if "$DLASIM" study nna --models fr,mob --sizes 16,32,64 --plot "$TMP/fig" --csv > "$TMP/out.csv" 2> "$TMP/err"; then
	ok study_runs
else
	not_ok study_runs "$(head -c 300 "$TMP/err")"
fi
v() { # FIGURE COLUMN [MODEL]: the value for FR (or MODEL)
	awk -F, -v f="$1" -v c="$2" -v m="${3:-FR}" '$1 == f && $2 == m && $3 == c { print $5 }' "$TMP/out.csv"
}
# ROMA keeps a layer's tiles in one channel; LAP spreads them over both
# (Section 5.4): the channels each design fills.
holds roma_one_channel "$(v data ch_ROMA) == 1"
holds lap_both_channels "$(v data ch_LAP) == 2"
# Figure 5.11: ARAI's loop order cuts the DRAM reads of every network with
# wide convolutions (Section 5.5.2).
holds arai_cuts_reads "$(v fig5.11 ARAI) > 0 && $(v fig5.11 ARAI) < 100"
# Figures 5.13, 5.14: LAP raises channel and bank parallelism over ROMA;
# with two channels the CLP gain is at most 100 %.
holds lap_raises_clp "$(v fig5.13 DWS) > 0 && $(v fig5.13 DWS) <= 100 && $(v fig5.13 ARAI) > 0 && $(v fig5.13 ARAI) <= 100"
holds lap_raises_blp "$(v fig5.14 DWS) > 0 && $(v fig5.14 ARAI) > 0"
# Figure 5.10: the two techniques together cut more time than either.
holds both_cut_most "$(v fig5.10 ARAI_LAP) > $(v fig5.10 ARAI_ROMA) && $(v fig5.10 ARAI_LAP) > $(v fig5.10 DWS_LAP)"
# Figure 5.12: DWS's longer row streams keep a higher bandwidth than ARAI's
# under both placements (Section 5.5.4).
holds dws_higher_bandwidth "$(v fig5.12abs DWS_ROMA) > $(v fig5.12abs ARAI_ROMA) && $(v fig5.12abs DWS_LAP) > $(v fig5.12abs ARAI_LAP)"
# Each technique scales the time it leaves by (1 - cut), so together they
# cut 1 - (1 - a)(1 - b) = a + b - ab: less than the sum (Section 5.5.2's
# "separately surpasses ... together").
holds both_below_sum "$(v fig5.10 ARAI_LAP) < $(v fig5.10 ARAI_ROMA) + $(v fig5.10 DWS_LAP)"
# The run is DRAM-bound: LAP's time cut is what its bandwidth gain g gives,
# 1 - 1/(1 + g), within 5 points.
holds cut_from_bandwidth "$(v fig5.10 DWS_LAP) - 100 * (1 - 1 / (1 + $(v fig5.12 DWS) / 100)) < 5 && 100 * (1 - 1 / (1 + $(v fig5.12 DWS) / 100)) - $(v fig5.10 DWS_LAP) < 5"
# Figure 5.15: a larger array makes fewer passes over the inputs, leaving
# ARAI's reordering less to save.
holds sweep_decreasing "$(v fig5.15 16x16) > $(v fig5.15 32x32) && $(v fig5.15 32x32) > $(v fig5.15 64x64)"
# MobileNet's layers are depthwise (one channel group) or pointwise (1 x 1,
# R S = 1), where DWS's IFMAP reads Kb R S H W C equal ARAI's Kb H W C
# (docs/nna.md), and its first layer has 3 channels: no traffic or time
# cut (Figures 5.10, 5.11).
holds mobilenet_unchanged "$(v fig5.11 ARAI MOB) == 0 && $(v fig5.10 ARAI_ROMA MOB) == 0"
# The dissertation's averages ride along in the tables.
holds paper_rows "$(grep -c '^fig5.1[134],paper,' "$TMP/out.csv") == 5"
for f in fig5.2 fig5.3 fig5.10 fig5.11 fig5.12 fig5.13 fig5.14 fig5.15 tab5.2; do
	if png_ok "$TMP/fig/$f.png"; then ok "${f}_png"; else not_ok "${f}_png" "not a 1100x620 PNG with a drawing"; fi
	if svg_ok "$TMP/fig/$f.svg" '<title>'; then ok "${f}_svg"; else not_ok "${f}_svg" "not an SVG with a drawing"; fi
done
expect_error "plot over a file" "--plot '/dev/null/x': cannot create it" "$DLASIM" study nna --models fr --sizes "" --plot /dev/null/x
# The data figure: megabytes on the left axis, channel counts on a right
# axis of their own (the channel series drawn against it), not one axis
# mixing the two units.
gp=$TMP/fig/data.gp
if grep -q "^set ylabel '.*(MB)'" "$gp" && grep -q "^set y2label '.*channels.*(count)'" "$gp" &&
   grep -q "^set y2tics" "$gp" &&
   [ "$(grep -c 'axes x1y2.*ch_' "$gp")" -eq 2 ] && ! grep -q "axes x1y2.*'MB'" "$gp"; then
	ok "data figure: MB and channels on two axes"
else
	not_ok "data figure: MB and channels on two axes" "$(grep -E 'label|plot|axes' "$gp" | head -c 400)"
fi
