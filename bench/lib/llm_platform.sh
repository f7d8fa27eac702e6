# llm_platform NODES FILE: the machine of Megatron-LM's scaling table for the
# llm benchmarks (docs/validation/llm.md, "Machine"), every device an A100
# of efficiency 0.542 (a100-megatron.xml).  LLM_MACHINE selects it:
#   nvswitch (the machine of record of the validation): DGX A100 nodes, 8 devices
#     on an NVSwitch plane (12 NVLink3 links of 25 GB/s per direction per
#     device) and one 200 Gb/s HDR NIC per device on a rail-optimized fat
#     tree (the generator's --generation a100);
#   dc (default): the generator's ring node with the same links, 25 GB/s
#     per device into a non-blocking scale-out fabric (the validation's
#     earlier stand-in; bench/llm_scale.sh's machine).
llm_platform() {
	case "${LLM_MACHINE:-dc}" in
	nvswitch)
		$D platform --topology nvswitch --generation a100 --nodes "$1" \
			--device bench/lib/a100-megatron.xml -o "$2" 2> /dev/null ;;
	dc)
		$D platform --topology dc --nodes "$1" --links-per-device 12 --link-bandwidth 25GBps \
			--uplink-bandwidth 25GBps --device bench/lib/a100-megatron.xml -o "$2" 2> /dev/null ;;
	*)
		echo "llm_platform: LLM_MACHINE must be nvswitch or dc, not '$LLM_MACHINE'" >&2
		return 1 ;;
	esac
}
