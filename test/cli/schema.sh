#!/bin/sh
# Every command's JSON output against its JSON Schema (docs/schema/, read
# by Debian's python3-jsonschema): a run of each command and mode, studies
# on reduced inputs.  The schemas are closed, so a field written without a
# schema entry fails here; docs/outputs.md lists exactly the schemas'
# fields, types and units (test/schema_check.py docs).
. test/lib.sh
PY=/usr/bin/python3
CHECK="$PY test/schema_check.py"
S=docs/schema
J=$TMP/json
mkdir -p "$J"
if ! $PY -c 'import jsonschema' 2> /dev/null; then
	not_ok "python3-jsonschema" "$PY cannot import jsonschema (sh deps.sh installs it)"
	exit 1
fi

# run NAME CMD...: CMD's standard output in $J/NAME.json; a run that fails
# is a failure of its own (its JSON is not checked).  Safe in the background.
run() {
	name=$1
	shift
	if "$@" > "$J/$name.json" 2> "$TMP/$name.err"; then return 0; fi
	not_ok "$name" "exit $?: $(head -c 300 "$TMP/$name.err")"
	rm -f "$J/$name.json"
}

# check SCHEMA NAME...: each $J/NAME.json is valid under docs/schema/SCHEMA.schema.json.
check() {
	schema=$1
	shift
	files=
	for n in "$@"; do
		[ -f "$J/$n.json" ] && files="$files $J/$n.json"
	done
	[ -n "$files" ] || return 0
	$CHECK validate "$S/$schema.schema.json" $files > "$TMP/v" 2>&1
	rc=$?
	for n in "$@"; do
		[ -f "$J/$n.json" ] || continue
		if grep -q "^$J/$n.json: " "$TMP/v"; then
			not_ok "$schema: $n" "$(grep "^$J/$n.json: " "$TMP/v" | head -c 600)"
		elif [ $rc -ne 0 ] && ! grep -q "^$J/" "$TMP/v"; then
			not_ok "$schema: $n" "the check failed: $(head -c 300 "$TMP/v")"
		else
			ok "$schema: $n"
		fi
	done
}

# The two longest runs go first, in the background: study tm on the
# workloads cut to two layers each, study nvm on 2 transactions a core.
mkdir -p "$TMP/tm"
for f in workloads/tm/*.tm; do
	sed 's/^layers .*/layers 2/' "$f" > "$TMP/tm/$(basename "$f")"
done
run study-tm $DLASIM study tm --workloads "$TMP/tm" --json &
run study-nvm $DLASIM study nvm --tx 2 --json &

# ---- the schemas and docs/outputs.md ----
if $CHECK docs docs > "$TMP/v" 2>&1; then ok "docs/schema and docs/outputs.md agree"
else not_ok "docs/schema and docs/outputs.md agree" "$(head -c 600 "$TMP/v")"; fi

# ---- coll: every operation, a ring and a switched fabric ----
$DLASIM platform --topology switch --devices 8 -o "$TMP/sw8.xml" > /dev/null
for op in allreduce allgather reducescatter broadcast; do
	run coll-$op $DLASIM coll --platform dc-8 --op $op --bytes 1MB --json
done
run coll-broadcast-root $DLASIM coll --platform dc-8 --op broadcast --bytes 1MB --root 3 --json
run coll-alltoall $DLASIM coll --platform "$TMP/sw8.xml" --op alltoall --bytes 1MB --coll alltoall --json
run coll-hd $DLASIM coll --platform "$TMP/sw8.xml" --op allreduce --bytes 1MB --coll hd --json
check coll coll-allreduce coll-allgather coll-reducescatter coll-broadcast coll-broadcast-root coll-hd coll-alltoall

# ---- train: DNN data and model parallel, Chakra, no overlaying, options ----
run train-data $DLASIM train --platform mc-ring-8 --workload alexnet --page-alloc bw_aware --json
run train-local $DLASIM train --platform mc-ring-8 --workload alexnet --page-alloc local --json
run train-model $DLASIM train --platform dc-8 --workload alexnet --parallel model --json
run train-inf $DLASIM train --platform dc-8 --workload alexnet --device-memory inf --json
run train-tpuv2 $DLASIM train --platform dc-8 --workload alexnet --device tpuv2 --overlay-compression 2 --json
run train-chakra $DLASIM train --platform dc-8 --workload workloads/chakra/chain.et --json
run train-chakra-mem $DLASIM train --platform mc-ring-8 --workload workloads/chakra/memory.et --page-alloc bw_aware --json
check train train-data train-local train-model train-inf train-tpuv2 train-chakra train-chakra-mem
holds "train: --device-memory inf is null, a Chakra trace's batch null" \
	"$(grep -c '"device_memory_bytes": null' "$J/train-inf.json") == 1 && $(grep -c '"batch": null' "$J/train-chakra.json") == 1"

# ---- tier: HBM only, horizontal and vertical policies ----
for p in hbm_only hor_on ver_off tm_training; do
	run tier-$p $DLASIM tier --workload bert-large --policy $p --json
done
run tier-scaled $DLASIM tier --workload t5 --policy tm_training --tier1-ratio 100 --batch-scale 2 --tier2-bw-scale 0.5 --json
check tier tier-hbm_only tier-hor_on tier-ver_off tier-tm_training tier-scaled

# ---- dram: DDR4 and NVM ----
awk 'BEGIN { for (i = 0; i < 64; i++) printf "0x%x %s 0\n", i * 8, i % 4 ? "READ" : "WRITE" }' > "$TMP/row.trace"
run dram-ddr4 $DLASIM dram --config ddr4-2400-x8-2ch2rk --trace "$TMP/row.trace" --json
run dram-nvm $DLASIM dram --config platforms/dram/nvm.conf --trace "$TMP/row.trace" --json
check dram dram-ddr4 dram-nvm

# ---- nna: both dataflows, both placements ----
run nna-ws $DLASIM nna --workload workloads/nna/facerec.dnn --json
run nna-arai-lap $DLASIM nna --workload workloads/nna/facerec.dnn --dataflow arai --dram-place lap --json
check nna nna-ws nna-arai-lap

# ---- nvm: a run audited, another mapping and allocator, the write sets ----
run nvm-check $DLASIM nvm --workload mix1 --persist lad --tx 40 --check --json
run nvm-line $DLASIM nvm --workload btree --persist redu:blom=1 --log-alloc lalea --interleave line --tx 40 --json
run nvm-write-sets $DLASIM nvm --write-sets --tx 50 --json
check nvm nvm-check nvm-line
check nvm-write-sets nvm-write-sets

# ---- llm: a pipeline with data parallelism, a mixture of experts ----
$DLASIM platform --topology switch --devices 8 --device a100-sxm-80gb -o "$TMP/a100.xml" 2> /dev/null
run llm-gpt $DLASIM llm --platform "$TMP/a100.xml" --workload megatron-1.7b --global-batch 8 --pp 2 --dp 4 --zero 1 --json
run llm-moe $DLASIM llm --platform "$TMP/a100.xml" --workload mixtral-8x7b --global-batch 8 --dp 8 --ep 8 --zero 3 --recompute selective --sequence-parallel --json
# offload to Grace memory (offload_s, offloaded_bytes, ...), and the oracle
# (device_memory_bytes null)
$DLASIM platform --topology gh200 --devices 8 --device gh200 -o "$TMP/gh200.xml" 2> /dev/null
run llm-offload $DLASIM llm --platform "$TMP/gh200.xml" --workload megatron-1.7b --global-batch 4 --device-memory 12GB --offload --json
run llm-oracle $DLASIM llm --platform "$TMP/gh200.xml" --workload megatron-1.7b --global-batch 4 --device-memory inf --json
check llm llm-gpt llm-moe llm-offload llm-oracle

# ---- plugins ----
run plugins $DLASIM plugins --json
check plugins plugins

# ---- studies, on reduced inputs ----
# mcdla on tiny networks (the shape of the output, not its numbers).
mkdir -p "$TMP/tiny" "$TMP/plugins"
for w in alexnet googlenet vgg-e resnet-34 rnn-gemv rnn-lstm-1 rnn-lstm-2 rnn-gru; do
	printf 'network %s\ninput data channels=3 height=8 width=8\nconv c out=8 kernel=3\nfc f out=10\n' $w > "$TMP/tiny/$w.dnn"
done
run study-mcdla $DLASIM study mcdla --workloads "$TMP/tiny" --sensitivity --power --json
run study-mcdla-batches $DLASIM study mcdla --workloads "$TMP/tiny" --parallel data --designs 'MC-DLA(B)' --batch 128,256 --json
run study-mcdla-scale-out $DLASIM study mcdla --workloads "$TMP/tiny" --devices 16 --scale-out --designs 'MC-DLA(B)' --parallel data --json
run study-mcdla-scale $DLASIM study mcdla --workloads "$TMP/tiny" --devices 8,16 --designs 'MC-DLA(B)' --json
# Failed runs: a plugin that fails under bw_aware's name (as in
# study_failed_runs.sh); their fields are null, with their error.
cp "$BUILD/test-plugins/page_bad_node.so" "$TMP/plugins/page-bw_aware.so"
if DLASIM_PLUGIN_PATH="$TMP/plugins" $DLASIM study mcdla --workloads "$TMP/tiny" --parallel data --designs 'MC-DLA(B)' --power --json \
	> "$J/study-mcdla-failed.json" 2> "$TMP/err"; then
	not_ok "study-mcdla-failed" "exit 0 with a failing plugin"
fi
DLASIM_PLUGIN_PATH="$TMP/plugins" $DLASIM study mcdla --workloads "$TMP/tiny" --devices 8,16 --designs 'MC-DLA(B)' --json \
	> "$J/study-mcdla-scale-failed.json" 2> /dev/null
holds "study mcdla: the failed runs null, with their error" \
	"$(grep -c '"error": ' "$J/study-mcdla-failed.json") == 8 && $(grep -c '"iteration_time_s": null' "$J/study-mcdla-failed.json") == 8"
check study-mcdla study-mcdla study-mcdla-batches study-mcdla-scale-out study-mcdla-failed
check study-mcdla-scale study-mcdla-scale study-mcdla-scale-failed

wait
check study-tm study-tm

run study-nna $DLASIM study nna --models fr --sizes 16,32 --json
check study-nna study-nna

# study llm's layout for GPT-3 at 64 devices with a small stand-in model.
mkdir -p "$TMP/llm"
printf 'name gpt3-175b\nlayers 4\nhidden 256\nheads 8\nseq 128\nvocab 512\nffn 1024\n' > "$TMP/llm/gpt3-175b.llm"
run study-llm $DLASIM study llm --workloads "$TMP/llm" --models gpt3-175b --sizes 64 --json
check study-llm study-llm

check study-nvm study-nvm

# ---- merge --json of two small sweeps ----
printf 'command = coll\nplatform = dc-8\nop = allreduce broadcast\nbytes = 1MB\n' > "$TMP/coll.spec"
printf 'command = train\nplatform = dc-8\nworkload = %s/alexnet.dnn\nbatch = 16\ndevice-memory = 16GB inf\n' "$TMP/tiny" > "$TMP/train.spec"
printf 'command = nna\nworkload = workloads/nna/facerec.dnn\ndram-place = roma lap\nsa = 16\n' > "$TMP/nna.spec"
printf 'command = nvm\nworkload = btree\npersist = lad redu:blom=1\ninterleave = line\ntx = 20\n' > "$TMP/nvm.spec"
printf 'command = dram\nconfig = ddr4-2400-x8-2ch2rk platforms/dram/nvm.conf\ntrace = %s\n' "$TMP/row.trace" > "$TMP/dram.spec"
printf 'command = tier\nworkload = bert-large\npolicy = hbm_only\n' > "$TMP/tier.spec"
for s in coll train tier nna nvm dram; do
	if $DLASIM sweep "$TMP/$s.spec" --out "$TMP/sweep-$s" > /dev/null 2> "$TMP/err" &&
	   sh "$TMP/sweep-$s/runs.txt" 2> "$TMP/err"; then
		run merge-$s $DLASIM merge "$TMP/sweep-$s" --json
	else
		not_ok "merge-$s" "the sweep failed: $(head -c 300 "$TMP/err")"
	fi
done
check merge merge-coll merge-train merge-tier merge-nna merge-nvm merge-dram

# ---- every JSON above names the dlasim that wrote it ----
# A result's first member, each element's of a top-level array (plugins,
# nvm --write-sets), a member of each merged row: this build's version.
want=$($DLASIM --version | cut -d' ' -f2)
$PY - "$want" "$J"/*.json > "$TMP/v" 2>&1 <<'PYEOF'
import json, sys
want, bad = sys.argv[1], 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    objs = doc if isinstance(doc, list) else [doc]
    first = not path.rsplit("/", 1)[1].startswith("merge")
    if not objs or any(o.get("dlasim_version") != want or (first and list(o)[0] != "dlasim_version")
                       for o in objs):
        print(path.rsplit("/", 1)[1]); bad += 1
print("%d files" % (len(sys.argv) - 2))
sys.exit(bad > 0)
PYEOF
if [ $? -eq 0 ]; then ok "every JSON begins with dlasim_version $want ($(tail -1 "$TMP/v"))"
else not_ok "every JSON begins with dlasim_version $want" "not in: $(head -c 400 "$TMP/v" | tr '\n' ' ')"; fi

# ---- the check can fail ----
# A field no schema names, a required field missing, a number null where
# the program never writes one: each fails validation.
if [ -f "$J/coll-allreduce.json" ]; then
	sed 's/^{$/{ "new_field_s": 1,/' "$J/coll-allreduce.json" > "$TMP/extra.json"
	sed '/"simulated_time_s"/d' "$J/coll-allreduce.json" > "$TMP/missing.json"
	sed 's/"bus_bandwidth_Bps": .*/"bus_bandwidth_Bps": null/' "$J/coll-allreduce.json" > "$TMP/null.json"
	# fails NAME WORD: $TMP/NAME.json fails validation with WORD in the reason.
	fails() {
		if $CHECK validate $S/coll.schema.json "$TMP/$1.json" > "$TMP/v" 2>&1; then
			not_ok "a result with $1 fails" "validated"
		elif grep -q "$2" "$TMP/v"; then
			ok "a result with $1 fails"
		else
			not_ok "a result with $1 fails" "the reason does not name $2: $(head -c 300 "$TMP/v")"
		fi
	}
	fails extra new_field_s
	fails missing simulated_time_s
	fails null bus_bandwidth_Bps
fi
# A field of a schema that docs/outputs.md does not list, and one listed
# that no schema has: the docs check fails, naming it.
mkdir -p "$TMP/docs"
cp -r docs/schema "$TMP/docs/"
grep -v '^| `simulated_time_s` ' docs/outputs.md > "$TMP/docs/outputs.md"
if $CHECK docs "$TMP/docs" > "$TMP/v" 2>&1; then not_ok "outputs.md without a field fails" "passed"
elif grep -q 'simulated_time_s is in coll.schema.json but not in its table' "$TMP/v"; then ok "outputs.md without a field fails"
else not_ok "outputs.md without a field fails" "$(head -c 300 "$TMP/v")"; fi
sed 's/^| `rings` /| `rings_declared` /' docs/outputs.md > "$TMP/docs/outputs.md"
if $CHECK docs "$TMP/docs" > "$TMP/v" 2>&1; then not_ok "outputs.md with a field no schema has fails" "passed"
elif grep -q 'rings_declared is in its table but not in coll.schema.json' "$TMP/v"; then ok "outputs.md with a field no schema has fails"
else not_ok "outputs.md with a field no schema has fails" "$(head -c 300 "$TMP/v")"; fi
