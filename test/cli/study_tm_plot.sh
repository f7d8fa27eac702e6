#!/bin/sh
# dlasim study tm --plot DIR: one PNG and one SVG per figure of the paper
# the study reproduces (Figures 2-4, 8-15), valid and holding a drawing,
# with the paper's stated values marked.  The study runs on the workloads
# cut to two layers each (the figures' shape, not their numbers, is
# checked here; the numbers are docs/validation/tm.md's).
. test/lib.sh
W=$TMP/wl
mkdir -p "$W"
for f in workloads/tm/*.tm; do
	sed 's/^layers .*/layers 2/' "$f" > "$W/$(basename "$f")"
done
FIGS="fig2 fig3 fig4 fig8 fig9 fig10 fig11 fig12 fig13 fig14 fig15"

if "$DLASIM" study tm --workloads "$W" --plot "$TMP/fig" --csv > "$TMP/out.csv" 2> "$TMP/err"; then
	ok study_plots
else
	not_ok study_plots "$(head -c 300 "$TMP/err")"
fi
# Figure 8 in CSV: 5 policies x (5 workloads + the mean).
holds tables_still_printed "$(grep -c "^fig8," "$TMP/out.csv") == 30"
# The energy sensitivities: Figure 8's means with Table 2's HBM static
# power per device or per GiB, and 90 W or 0 W of idle power.  The shipped
# reading is Figure 8's own mean; per GiB, HBM-only's 32 GiB draw 31 x
# 684 mW more and a 4 GiB tier 1 only 31 x 85.5 mW more, so TM-Training
# gains on HBM-only; without idle power, the longer run loses more.
cell() { awk -F, -v r="$1" -v c="$2" '$1 == "energy_sensitivity" && $2 == r && $3 == c { print $5 }' "$TMP/out.csv"; }
holds energy_sensitivity_cells "$(grep -c "^energy_sensitivity," "$TMP/out.csv") == 20"
fig8=$(awk -F, '$1 == "fig8" && $2 == "mean" && $3 == "tm_training" { print $5 }' "$TMP/out.csv")
close energy_sensitivity_shipped "$(cell per_device.idle hbm_only)" "$fig8" 1e-9
holds per_gib_favours_tiers "$(cell per_gib.idle hbm_only) > $(cell per_device.idle hbm_only)"
claim() { awk -F, -v c="$1" '$1 == "claims" && $2 == c && $3 == "ours" { print $5 }' "$TMP/out.csv"; }
v=$(claim fig14.tm_vs_best)
holds tm_vs_best_is_a_share "$v > 0 && $v <= 1"
# The bound is above every tiered system, and above HBM-only (its tiers'
# static power is below HBM-only's 32 GiB): TM-Training is no nearer to it
# than to the best system or to HBM-only.
b=$(claim fig14.tm_vs_bound)
holds tm_vs_bound_below_best "${b:-2} > 0 && ${b:-2} <= $v"
holds tm_vs_bound_below_hbm "${b:-2} < $(claim fig8.tm_vs_hbm)"
# The floor of the horizontal tiers (docs/tier.md, "The floor") is above
# every tiered system at 25:1, and TM-Training's claim is its mean.
holds floor_cells "$(grep -c "^floor," "$TMP/out.csv") == 30"
holds floor_above_every_policy "$(awk -F, '$1 == "floor" && ($5 == "n/a" || $5 > 1 + 1e-9)' "$TMP/out.csv" | wc -l) == 0"
t=$(claim fig14.tm_vs_tight_bound)
close tight_bound_is_the_floor_mean "${t:-0}" \
	"$(awk -F, '$1 == "floor" && $2 == "mean" && $3 == "tm_training" { print $5 }' "$TMP/out.csv")" 1e-9
holds tight_bound_is_a_share "${t:-2} > 0 && ${t:-2} <= 1"
holds no_idle_favours_the_slower "$(cell per_device.no_idle hbm_only) > $(cell per_device.idle hbm_only)"

for f in $FIGS; do
	if png_ok "$TMP/fig/$f.png"; then ok "${f}_png"; else not_ok "${f}_png" "not a 1100x620 PNG with a drawing"; fi
	if svg_ok "$TMP/fig/$f.svg" "Figure ${f#fig}"; then ok "${f}_svg"; else not_ok "${f}_svg" "not an SVG of Figure ${f#fig}"; fi
done
# Only the paper's figures: the Sentinel sweep is ours.
holds only_paper_figures "$(ls "$TMP/fig" | grep -c '\.png$') == 11"

# Axes name their quantity and unit.
for t in "throughput per watt / HBM-only's (x)" "inter-tier migration / data used (bytes per byte)" \
	"tier-1 size to model size, R of R:1" "workload (Table 3)"; do
	if grep -qF "$t" "$TMP/fig/fig8.svg" "$TMP/fig/fig3.svg"; then ok "axis: $t"; else not_ok axis "'$t' missing"; fi
done
# The values the paper states for a bar or point are drawn: the marks'
# block (the last of NAME.dat) holds them, and the key says "paper".
marks() { # FIG V...: the marks of FIG are exactly the values V
	f=$1; shift
	echo "$@" | awk -v f="$TMP/fig/$f.dat" '{ for (i = 1; i <= NF; i++) want[i] = $i; n = NF }
		END { while ((getline l < f) > 0) { if (l ~ /^# paper/) m = 1; else if (m && split(l, a, " ") == 2) got[++k] = a[2] }
			if (k != n) exit 1
			for (i = 1; i <= n; i++) { hit = 0; for (j = 1; j <= k; j++) if (got[j] - want[i] < 1e-12 && want[i] - got[j] < 1e-12) hit = 1; if (!hit) exit 1 } }'
}
for m in "fig2 0.105 0.105" "fig3 1.5 2.1 3.6 3.2" "fig8 1.09" "fig12 1" "fig13 1" "fig15 0.77"; do
	# shellcheck disable=SC2086
	if marks $m; then ok "marks_${m%% *}"; else not_ok "marks_${m%% *}" "the paper's values $m not marked"; fi
done
if grep -q '>paper<' "$TMP/fig/fig8.svg"; then ok paper_in_key; else not_ok paper_in_key "no 'paper' key entry"; fi
# The stacked memory energy of Figure 4 holds all three parts.
for part in migration prefetch static; do
	if grep -q ">$part<" "$TMP/fig/fig4.svg"; then ok "fig4_$part"; else not_ok "fig4_$part" "missing"; fi
done

: > "$TMP/file"
expect_error plot_dir_is_a_file "--plot '$TMP/file'" \
	"$DLASIM" study tm --workloads "$W" --plot "$TMP/file"
# dlasim plot: the figures again from the results.json --plot wrote beside
# them, nothing run (the workloads gone): the same .dat and .gp files.
rm -r "$W"
if "$DLASIM" plot "$TMP/fig/results.json" -o "$TMP/again" 2> "$TMP/err"; then
	n=0 differ=
	for f in "$TMP"/fig/*.dat "$TMP"/fig/*.gp; do
		cmp -s "$f" "$TMP/again/$(basename "$f")" || differ="$differ $(basename "$f")"
		n=$((n + 1))
	done
	holds "plot results.json: the same $n .dat and .gp files${differ:+ (differ:$differ)}" "$n == 22 && \"$differ\" == \"\""
else
	not_ok "plot results.json" "$(head -c 300 "$TMP/err")"
fi
