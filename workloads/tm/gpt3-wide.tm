# Variant of gpt3.tm toward Table 3's data per chip (docs/validation/tm.md, A):
# Table 3's data per iteration needs a chip to run each layer's GEMMs
# wider than model parallelism leaves them, so here model_parallel is 1
# (full-width GEMMs, the same sequences per chip).
# The rest is gpt3.tm's:
# GPT-3 175B (Brown et al. 2020, "Language Models are Few-Shot Learners",
# Table 2.1: 96 layers, d_model 12288, 96 heads of 128, feed-forward
# 4 x d_model, context 2048; BPE vocabulary of 50,257 as GPT-2).
# Sequence, batch and parallelism: TM-Training Table 3.
name            gpt3-wide
params          175e9
layers          96
d_model         12288
heads           96
head_dim        128
d_ff            49152
vocab           50257
seq             2048
batch           2048
pods            2
model_parallel  1
data_parallel   256
