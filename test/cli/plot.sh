#!/bin/sh
# dlasim plot FILE: a study's figures drawn again from its saved JSON,
# through the study's own figure code, without running anything; the
# results file --plot DIR writes beside the figures; a reduced run named
# in every title; a bad results file one line.
. test/lib.sh
D=$DLASIM

# same_figures A B: every .dat and .gp of directory A is in B, byte for byte.
same_figures() {
	n=0
	for f in "$1"/*.dat "$1"/*.gp; do
		cmp -s "$f" "$2/$(basename "$f")" || { echo "$(basename "$f")"; return 1; }
		n=$((n + 1))
	done
	echo "$n files"
}

# close_figures A B: every .gp of A is in B byte for byte, every .dat has
# the same lines with numbers within 1e-8 (a CSV's 9 significant digits).
close_figures() {
	for f in "$1"/*.gp; do cmp -s "$f" "$2/$(basename "$f")" || { echo "$(basename "$f")"; return 1; }; done
	for f in "$1"/*.dat; do
		paste -d'|' "$f" "$2/$(basename "$f")" | awk -F'|' '
			{ n = split($1, a, " "); m = split($2, b, " ")
			  if (n != m) bad = 1
			  for (i = 1; i <= n; i++) {
				if (a[i] ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) {
					d = a[i] - b[i]; if (d < 0) d = -d
					s = a[i] < 0 ? -a[i] : a[i]
					if (d > 1e-8 * s + 1e-300) bad = 1
				} else if (a[i] != b[i]) bad = 1
			  } }
			END { exit bad }' || { echo "$(basename "$f")"; return 1; }
		[ "$(wc -l < "$f")" = "$(wc -l < "$2/$(basename "$f")")" ] || { echo "$(basename "$f")"; return 1; }
	done
	echo "$(ls "$1"/*.gp | wc -l) figures"
}

# ---- study nna: one network (a reduced run), two array sizes ----
if $D study nna --models fr --sizes 16,32 --plot $TMP/nna --json > $TMP/nna.json 2> $TMP/err; then
	if cmp -s $TMP/nna.json $TMP/nna/results.json; then ok "nna: --plot DIR writes the study's JSON as DIR/results.json"
	else not_ok "nna: --plot DIR writes the study's JSON as DIR/results.json" "missing or not the --json output"; fi
	mkdir -p $TMP/keep && cp $TMP/nna/results.json $TMP/keep/
	if $D plot $TMP/nna/results.json -o $TMP/nna2 2> $TMP/err && r=$(same_figures $TMP/nna $TMP/nna2); then
		holds "nna: plot results.json draws the same .dat and .gp files ($r)" "$(echo $r | cut -d' ' -f1) == 22"
	else not_ok "nna: plot results.json draws the same .dat and .gp files" "$r $(head -c 300 $TMP/err)"; fi
	# Without -o: beside the file.
	if $D plot $TMP/keep/results.json 2> $TMP/err && r=$(same_figures $TMP/nna $TMP/keep); then ok "nna: plot FILE draws beside FILE ($r)"
	else not_ok "nna: plot FILE draws beside FILE" "$r $(head -c 300 $TMP/err)"; fi
	for f in $TMP/nna2/*.png; do png_ok $f || not_ok "nna: $(basename $f) drawn" "not a 1100x620 PNG with a drawing"; done
	# One network of the seven: every title says the run is reduced, and how.
	holds "nna: every title says 'reduced run: 1 of the 7 networks (FR)'" \
		"$(grep -l "^set title .*'reduced run: ' . '1 of the 7 networks (FR); the means are theirs'" $TMP/nna2/*.gp | wc -l) == 11 && $(ls $TMP/nna2/*.gp | wc -l) == 11"
	holds "nna: the JSON says the run is reduced" "$(grep -c '\"reduced\": \"1 of the 7 networks (FR)' $TMP/nna.json) == 1"
	# The same from the study's --csv: the scripts the same, the numbers
	# to the CSV's 9 digits.
	if $D study nna --models fr --sizes 16,32 --csv > $TMP/nna.csv 2> $TMP/err &&
	   $D plot $TMP/nna.csv -o $TMP/nna-csv 2>> $TMP/err && r=$(close_figures $TMP/nna $TMP/nna-csv); then
		ok "nna: plot FILE.csv draws the same figures ($r)"
	else not_ok "nna: plot FILE.csv draws the same figures" "$r $(head -c 300 $TMP/err)"; fi
else
	not_ok "study nna --plot" "$(head -c 300 $TMP/err)"
fi

# ---- study mcdla: tiny networks (a few seconds), Figure 14's batch sweep ----
mkdir -p $TMP/tiny
for w in alexnet googlenet vgg-e resnet-34 rnn-gemv rnn-lstm-1 rnn-lstm-2 rnn-gru; do
	printf 'network %s\ninput data channels=3 height=8 width=8\nconv c out=8 kernel=3\nfc f out=10\n' $w > $TMP/tiny/$w.dnn
done
if $D study mcdla --workloads $TMP/tiny --parallel data --plot $TMP/mc --csv > $TMP/mc.csv 2> $TMP/err; then
	# The networks gone: nothing can run, the figures come from the file.
	rm -r $TMP/tiny
	if $D plot $TMP/mc/results.json -o $TMP/mc2 2> $TMP/err && r=$(same_figures $TMP/mc $TMP/mc2); then
		holds "mcdla: plot results.json draws the same .dat and .gp files ($r)" "$(echo $r | cut -d' ' -f1) == 8"
	else not_ok "mcdla: plot results.json draws the same .dat and .gp files" "$r $(head -c 300 $TMP/err)"; fi
	holds "mcdla: Figures 11-14 among them" "$(ls $TMP/mc2/fig11-data.png $TMP/mc2/fig12.png $TMP/mc2/fig13-data.png $TMP/mc2/fig14-data.png | wc -l) == 4"
	holds "mcdla: a whole run's titles say nothing of a reduced run" "$(grep -c 'reduced run' $TMP/mc2/*.gp | grep -vc ':0$') == 0"
	if $D plot $TMP/mc.csv -o $TMP/mc-csv 2> $TMP/err && r=$(close_figures $TMP/mc $TMP/mc-csv); then
		ok "mcdla: plot FILE.csv draws the same figures ($r)"
	else not_ok "mcdla: plot FILE.csv draws the same figures" "$r $(head -c 300 $TMP/err)"; fi
else
	not_ok "study mcdla --plot" "$(head -c 300 $TMP/err)"
fi

# ---- a bad or unknown results file: one line ----
printf '' > $TMP/empty.json
printf '{"study": "nna", "cells": [' > $TMP/cut.json
printf '[1, 2]\n' > $TMP/array.json
printf '{"dlasim_version": "0.1"}\n' > $TMP/nostudy.json
printf '{"study": "scaling"}\n' > $TMP/unknown.json
printf '{"study": "mcdla", "batches": [512], "runs": [{"parallel": "data", "design": "XX-DLA", "workload": "alexnet", "batch": 512}]}\n' > $TMP/design.json
printf '{"study": "nna", "cells": [{"figure": "fig9.9", "model": "FR", "column": "x"}]}\n' > $TMP/fig.json
expect_error empty "empty.json: byte 0: expected a value" $D plot $TMP/empty.json -o $TMP/o
expect_error truncated "cut.json: byte [0-9]+: " $D plot $TMP/cut.json -o $TMP/o
expect_error array "array.json: not the JSON of a study" $D plot $TMP/array.json -o $TMP/o
expect_error no-study "nostudy.json: not the JSON of a study that draws figures \(no \"study\" member" $D plot $TMP/nostudy.json -o $TMP/o
expect_error unknown-study "unknown.json: study 'scaling' has no figures dlasim plot draws" $D plot $TMP/unknown.json -o $TMP/o
expect_error unknown-design "design.json: runs\[0\]: its design is not one of study mcdla's" $D plot $TMP/design.json -o $TMP/o
expect_error unknown-figure "fig.json: cells\[0\]: no figure fig9.9 with that column in study nna" $D plot $TMP/fig.json -o $TMP/o
printf 'a,b\n1,2\n' > $TMP/other.csv
printf 'figure,model,column,metric,value\nfig5.10,FR\n' > $TMP/short.csv
expect_error other-csv "other.csv: neither JSON nor the CSV of a study that draws figures" $D plot $TMP/other.csv -o $TMP/o
expect_error short-csv "short.csv:2: 2 fields, the header has 5" $D plot $TMP/short.csv -o $TMP/o
expect_error missing "nothere.json: No such file" $D plot $TMP/nothere.json
expect_error no-file "give one results FILE" $D plot
holds "nothing drawn from a bad file" "$(ls $TMP/o 2> /dev/null | wc -l) == 0"
