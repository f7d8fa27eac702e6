# One row from the JSON of a `dlasim tier` run: "V W P" (-v v=, w=, p=: the
# variant, workload and policy) and the values of the top-level keys named
# in -v keys="..." in that order, a missing one left empty (tm_figs.awk
# then reports the row incomplete).  Shared by bench/tm_choices.sh and
# bench/tm_choices_history.sh.
/^ *"[a-z_0-9]+": / {
	key = $0
	sub(/^ *"/, "", key)
	sub(/".*/, "", key)
	val = $0
	sub(/^[^:]*: *"?/, "", val)
	sub(/"?,?$/, "", val)
	x[key] = val
}
END {
	n = split(keys, k, " ")
	row = v " " w " " p
	for (i = 1; i <= n; i++)
		row = row " " x[k[i]]
	print row
}
