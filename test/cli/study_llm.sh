#!/bin/sh
# dlasim study llm on a reduced input: the study's GPT-3 layout at 64
# devices (tp 8, pp 4, dp 2, ZeRO 0) with a small stand-in for the model
# (--workloads), on the five machines and the oracle.  Everything fits in
# HBM: every machine ties and equals the oracle.  With 1 MB of device
# memory it offloads: the machines order as the backing-store bandwidths
# their platforms give.  The tables re-plot with dlasim plot, the JSON is
# the schema's, bad options are one line each.
. test/lib.sh
W=$TMP/w
mkdir -p "$W"
# A GPT whose shape takes the study's layouts (heads and layers divisible
# by tp 8 and pp 4), small enough to simulate in a second.
printf 'name gpt3-175b\nlayers 4\nhidden 256\nheads 8\nseq 128\nvocab 512\nffn 1024\ndtype bf16\n' > "$W/gpt3-175b.llm"

if DLASIM_PROGRESS=1 "$DLASIM" study llm --workloads "$W" --models gpt3-175b --sizes 64 \
	--plot "$TMP/fig" --csv > "$TMP/fit.csv" 2> "$TMP/err"; then
	ok study_runs
else
	not_ok study_runs "$(head -c 300 "$TMP/err")"
fi
v() { # FILE FIGURE CONFIG COLUMN: one cell's value
	awk -F, -v f="$2" -v r="$3" -v c="$4" '$1 == f && $2 == r && $3 == c { print $5 }' "$1"
}
# The progress line names the study and its runs.
if grep -q 'study llm: 6/6 runs done' "$TMP/err"; then ok progress_line
else not_ok progress_line "$(head -c 300 "$TMP/err")"; fi

# Everything fits in the H100's 80 GB, so no byte goes to a backing store
# and the machines differ in nothing the run touches: the same iteration
# time on every one (the same simulation on the same NVLink domains and
# NICs), equal to the oracle's, to 1e-9 relative (floating-point noise of
# the event order; any modelled difference is far above it).
oracle=$(v "$TMP/fit.csv" iteration gpt3-175b/64 oracle)
holds fits_in_hbm "$(v "$TMP/fit.csv" memory gpt3-175b/64 total) < $(v "$TMP/fit.csv" memory gpt3-175b/64 hbm)"
for m in DC HC MC_LOCAL MC_BW_AWARE CXL; do
	close "fit_ties_oracle_$m" "$(v "$TMP/fit.csv" iteration gpt3-175b/64 $m)" "$oracle" 1e-9
	close "fit_speedup_one_$m" "$(v "$TMP/fit.csv" speedup gpt3-175b/64 $m)" 1 1e-9
	holds "fit_nothing_offloaded_$m" "$(v "$TMP/fit.csv" offloaded gpt3-175b/64 $m) == 0 && $(v "$TMP/fit.csv" breakdown gpt3-175b/64/$m offload) == 0"
done
# The breakdown adds up to the iteration (docs/llm.md, The breakdown).
sum=$(awk -F, '$1 == "breakdown" && $2 == "gpt3-175b/64/DC" { s += $5 } END { printf "%.12g", s }' "$TMP/fit.csv")
close breakdown_adds_up "$sum" "$(v "$TMP/fit.csv" iteration gpt3-175b/64 DC)" 1e-6

# The figures, the results file under its schema, and the figures drawn
# again from it and from the CSV with the same numbers.
for f in speedup breakdown memory; do
	if png_ok "$TMP/fig/$f.png"; then ok "${f}_png"; else not_ok "${f}_png" "not a 1100x620 PNG with a drawing"; fi
done
if python3 test/schema_check.py validate docs/schema/study-llm.schema.json "$TMP/fig/results.json" > "$TMP/schema" 2>&1; then
	ok results_schema
else
	not_ok results_schema "$(head -c 300 "$TMP/schema")"
fi
expect_ok replot_json "$DLASIM" plot "$TMP/fig/results.json" -o "$TMP/again"
expect_ok replot_csv "$DLASIM" plot "$TMP/fit.csv" -o "$TMP/csv"
for f in speedup breakdown memory; do
	if cmp -s "$TMP/fig/$f.dat" "$TMP/again/$f.dat"; then ok "replot_same_$f"
	else not_ok "replot_same_$f" "$(diff "$TMP/fig/$f.dat" "$TMP/again/$f.dat" | head -c 300)"; fi
	if [ -s "$TMP/csv/$f.png" ]; then ok "replot_csv_$f"; else not_ok "replot_csv_$f" "no figure"; fi
done

# Bad options: one line each, before anything runs.
expect_error bad_size "--sizes '65': not a list of 64, 256, 1024, 4096, 16384" "$DLASIM" study llm --sizes 65
expect_error bad_model "--models 'gpt4': not a list of gpt3-175b" "$DLASIM" study llm --models gpt4
expect_error bad_memory "--device-memory '0'" "$DLASIM" study llm --device-memory 0
expect_error bad_operand "unexpected|operand" "$DLASIM" study llm extra
expect_error no_workloads "cannot read $TMP/none/gpt3-175b.llm" "$DLASIM" study llm --workloads "$TMP/none" --models gpt3-175b
printf 'name gpt3-175b\nlayers 4\nhidden 240\nheads 6\nseq 128\nvocab 512\nffn 1024\n' > "$TMP/bad.llm"
mkdir -p "$TMP/bad" && cp "$TMP/bad.llm" "$TMP/bad/gpt3-175b.llm"
expect_error bad_layout "heads" "$DLASIM" study llm --workloads "$TMP/bad" --models gpt3-175b --sizes 64
expect_error plot_over_file "--plot '/dev/null/x'" "$DLASIM" study llm --models gpt3-175b --plot /dev/null/x

# With offload (after the fit above: the same runs with 1 MB of device
# memory, so the stand-in's 2.6 MB no longer fits): the machines order
# as their backing stores' bandwidths.  Each machine's bandwidth is read
# from its platform, written as the study writes it (docs/llm.md, study
# llm): the fair share of the slowest link on a device's route to the
# first host of its dlasim.backing, every device offloading at once
# (links shared by the devices whose routes cross them).  The page
# allocation is LOCAL on all four, so that route is where the bytes go.
if "$DLASIM" study llm --workloads "$W" --models gpt3-175b --sizes 64 --device-memory 1MB \
	--csv > "$TMP/off.csv" 2> "$TMP/err"; then
	ok offload_study_runs
else
	not_ok offload_study_runs "$(head -c 300 "$TMP/err")"
fi
share() { # TOPOLOGY: per-device backing-store bandwidth, B/s
	"$DLASIM" platform --topology "$1" --generation h100 --node-devices 8 --devices 64 \
		-o "$TMP/$1.xml" 2> /dev/null &&
	python3 - "$TMP/$1.xml" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
UNITS = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
def bw(text):
    m = re.fullmatch(r"([0-9.eE+]+)\s*([kKMGT]?)(Bps|B/s)", text)
    return float(m.group(1)) * UNITS[m.group(2)]
root = ET.parse(sys.argv[1]).getroot()
links = {l.get("id"): bw(l.get("bandwidth")) for l in root.iter("link")}
routes = {}
for r in root.iter("route"):
    ids = [c.get("id") for c in r.iter("link_ctn")]
    routes[(r.get("src"), r.get("dst"))] = ids
    routes.setdefault((r.get("dst"), r.get("src")), ids)
paths = []
for h in root.iter("host"):
    p = {q.get("id"): q.get("value") for q in h.findall("prop")}
    if p.get("dlasim.role") == "device":
        paths.append(routes[(h.get("id"), p["dlasim.backing"].split()[0])])
users = {}
for ids in paths:
    for i in set(ids):
        users[i] = users.get(i, 0) + 1
print("%.6g" % min(min(links[i] / users[i] for i in ids) for ids in paths))
EOF
}
bw_DC=$(share nvswitch) bw_HC=$(share gh200) bw_MC_LOCAL=$(share mc-nvswitch) bw_CXL=$(share cxl)
holds offload_bandwidths_read "${bw_DC:-0} > 0 && ${bw_HC:-0} > 0 && ${bw_MC_LOCAL:-0} > 0 && ${bw_CXL:-0} > 0"
# Not a vacuous ordering: the four do not all have the same bandwidth.
holds offload_bandwidths_differ "${bw_HC:-0} > 1.05 * ${bw_DC:-0} || ${bw_DC:-0} > 1.05 * ${bw_HC:-0} || ${bw_MC_LOCAL:-0} > 1.05 * ${bw_DC:-0}"
it_oracle=$(v "$TMP/off.csv" iteration gpt3-175b/64 oracle)
for a in DC HC MC_LOCAL CXL; do
	eval "ba=\$bw_$a"
	ta=$(v "$TMP/off.csv" iteration gpt3-175b/64 $a)
	holds "offload_moves_bytes_$a" "$(v "$TMP/off.csv" offloaded gpt3-175b/64 $a) > 0"
	# Waiting on the backing store only adds time: the oracle is fastest.
	holds "offload_oracle_fastest_$a" "$ta > $it_oracle"
	for b in DC HC MC_LOCAL CXL; do
		eval "bb=\$bw_$b"
		tb=$(v "$TMP/off.csv" iteration gpt3-175b/64 $b)
		# A backing store more than 5 % faster gives a shorter iteration.
		if awk "BEGIN { exit !($ba > 1.05 * $bb) }"; then
			holds "offload_order_${a}_before_$b" "$ta < $tb"
		fi
	done
done
