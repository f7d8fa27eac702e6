# Variant of chinchilla.tm toward Table 3's data per chip (docs/validation/tm.md, A):
# Table 3's data per iteration needs a chip to run each layer's GEMMs
# wider than model parallelism leaves them, so here model_parallel is 1
# (full-width GEMMs, the same sequences per chip).
# The rest is chinchilla.tm's:
# Chinchilla (Hoffmann et al. 2022, "Training Compute-Optimal Large Language
# Models", Table 4: 80 layers, d_model 8192, 64 heads, key/value size 128,
# 70B parameters; feed-forward 4 x d_model; SentencePiece vocabulary of
# 32,000).  Sequence, batch and parallelism: TM-Training Table 3.
name            chinchilla-wide
params          70e9
layers          80
d_model         8192
heads           64
head_dim        128
d_ff            32768
vocab           32000
seq             2048
batch           2048
pods            2
model_parallel  1
data_parallel   256
