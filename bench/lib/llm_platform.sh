# llm_platform NODES FILE: A100 DGX-like nodes of 8 devices for the llm
# benchmarks (docs/validation/llm.md, "Machine"): 12 NVLink3 links of
# 25 GB/s per direction per device inside the node, 25 GB/s per device
# (one 200 Gb/s InfiniBand HCA) into the non-blocking scale-out fabric;
# each device an A100 of efficiency 0.542 (a100-megatron.xml).
llm_platform() {
	$D platform --topology dc --nodes "$1" --links-per-device 12 --link-bandwidth 25GBps \
		--uplink-bandwidth 25GBps --device bench/lib/a100-megatron.xml -o "$2" 2> /dev/null
}
