# Figures 8 and 9 of TM-Training at 25:1 from rows
#   VARIANT WORKLOAD POLICY EFFICIENCY MIGRATION_BYTES DATA_BYTES
# (dlasim tier's throughput_per_watt, migration_bytes, data_bytes), one
# table row per variant in the order of -v variants="..." under the column
# title -v title=...: Fig. 8 the mean over the workloads of TM-Training's
# efficiency over each system's (the study's fig8.tm_vs_*), Fig. 9 one
# minus the ratio of the means over the workloads of migration / data
# used (fig9.less_than_*), beside the paper's.
$4 == "" || $5 == "" || !($6 > 0) { print "tm_figs.awk: incomplete result: " $0; bad = 1 }
{ eff[$1, $2, $3] = $4; mig[$1, $2, $3] = $6 > 0 ? $5 / $6 : 0 }
END {
	if (bad)
		exit 1
	nv = split(variants, vs, " ")
	split("hbm_only sentinel autotm deeptm", xs, " ")
	nw = split("bert-large t5 gpt3 palm chinchilla", ws, " ")
	printf "%-12s | %-37s | %s\n", "", "Fig. 8: TM-Training efficiency / x", "Fig. 9: migration TM-Training saves"
	printf "%-12s | %8s %8s %8s %8s | %8s %8s %8s\n", title, "HBM-only", "Sentinel", "AutoTM", "DeepTM", "Sentinel", "AutoTM", "DeepTM"
	printf "%-12s | %8.2f %8.2f %8.2f %8.2f | %7.0f%% %7.0f%% %7.0f%%\n", "paper", 1.09, 1.71, 1.26, 1.16, 64, 40, 36
	for (i = 1; i <= nv; i++) {
		printf "%-12s |", vs[i]
		for (k = 1; k <= 4; k++) {
			r = 0
			for (j = 1; j <= nw; j++)
				r += eff[vs[i], ws[j], "tm_training"] / eff[vs[i], ws[j], xs[k]] / nw
			printf " %8.2f", r
		}
		printf " |"
		for (k = 2; k <= 4; k++) {
			tm = 0; x = 0
			for (j = 1; j <= nw; j++) {
				tm += mig[vs[i], ws[j], "tm_training"]
				x += mig[vs[i], ws[j], xs[k]]
			}
			printf " %7.0f%%", 100 * (1 - tm / x)
		}
		printf "\n"
	}
}
