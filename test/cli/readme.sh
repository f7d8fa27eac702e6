#!/bin/sh
# The tour of README.md, command by command, so that it cannot rot: every
# line of its code block runs from the top of the tree and exits 0.  Its
# results go to a temporary results/, and the largest runs are made
# smaller (README.md says which):
#   --nodes 512 (4096 devices)     -> --nodes 8
#   --devices 1024                 -> --devices 256
#   --devices 8,64,512             -> --devices 8,64
#   study nna --models fr,alexnet  -> --models fr --sizes ''
#   study nvm                      -> --quick --tx 100
#   study llm --models gpt3-175b   -> a 4-layer stand-in of the same shape
. "$(dirname "$0")/../lib.sh"

sed -n '/^## A tour/,/^## /p' README.md | awk '/^```/ { inside = !inside; next } inside' |
	grep -v '^#' | grep -v '^[[:space:]]*$' > "$TMP/tour"
n=$(grep -c . "$TMP/tour")
if [ "$n" -lt 20 ]; then
	not_ok "README tour" "only $n commands found under '## A tour'"
	exit 0
fi

# Quote for a sed replacement (paths may hold & or #).
esc() { printf '%s' "$1" | sed 's/[&#\\]/\\&/g'; }
mkdir -p "$TMP/results" "$TMP/llm"
# A GPT that takes study llm's GPT-3 layouts (heads and layers divisible by
# tp 8 and pp 4), simulated in a second.
printf 'name gpt3-175b\nlayers 4\nhidden 256\nheads 8\nseq 128\nvocab 512\nffn 1024\ndtype bf16\n' \
	> "$TMP/llm/gpt3-175b.llm"
llm=$(esc "$TMP/llm")
results=$(esc "$TMP/results/")
dlasim=$(esc "$DLASIM")
sed -e "s#build/dlasim#$dlasim#g" -e "s#results/#$results#g" \
    -e 's#--nodes 512#--nodes 8#' -e 's#--devices 1024#--devices 256#' \
    -e 's#--devices 8,64,512#--devices 8,64#' \
    -e "s#study nna --models fr,alexnet#study nna --models fr --sizes ''#" \
    -e 's#study nvm #study nvm --quick --tx 100 #' \
    -e "s#study llm --models#study llm --workloads $llm --models#" "$TMP/tour" > "$TMP/runs"

i=0
while IFS= read -r line; do
	i=$((i + 1))
	# The README's line, shown without its backslashes (echo reads them).
	shown=$(sed -n "${i}p" "$TMP/tour" | tr -d '\\' | cut -c1-90)
	if sh -c "$line" > "$TMP/out.$i" 2> "$TMP/err.$i" < /dev/null; then
		ok "tour $i: $shown"
	else
		not_ok "tour $i: $shown" "exit $?: $(grep -v warning "$TMP/err.$i" | tr -d '\\' | head -c 300)"
	fi
done < "$TMP/runs"

# What the tour says it makes is there.
for f in mc1024.xml links.csv alexnet.png mcdla.csv tm.csv nna.csv nvm.csv mc.csv \
	 mcdla-figs/fig13-data.png nna nvm llm-figs; do
	if [ -s "$TMP/results/$f" ] || [ -d "$TMP/results/$f" ]; then ok "tour made results/$f"
	else not_ok "tour made results/$f" "missing"; fi
done
