# dlasim-expect: layers '4294967297': out of range \(1 to 4096\)
# layers 2^32 + 1 simulated one layer and reported 7.8e18 parameters.
# BERT-Large (Devlin et al. 2018, "BERT: Pre-training of Deep Bidirectional
# Transformers for Language Understanding", Section 3: L=24, H=1024, A=16,
# 340M parameters; feed-forward 4H; WordPiece vocabulary of 30,000 tokens,
# 30,522 in the released model).  Sequence, batch and parallelism:
# TM-Training Table 3.  Format: docs/tier.md.
name            bert-large
params          340e6
layers          4294967297
d_model         1024
heads           16
head_dim        64
d_ff            4096
vocab           30522
seq             512
batch           256
pods            1
model_parallel  1
data_parallel   4
