# T5-11B (Raffel et al. 2020, "Exploring the Limits of Transfer Learning
# with a Unified Text-to-Text Transformer", Section 3.7: d_model 1024,
# d_ff 65,536, d_kv 128, 128 heads, 24 blocks in the encoder and 24 in the
# decoder; SentencePiece vocabulary of 32,000 (32,128 in the released
# checkpoints)).  24 encoder blocks (self-attention, feed-forward) and 24
# decoder blocks (self-attention, cross-attention over the encoder's
# output, feed-forward); the decoder runs over as many tokens as the
# encoder (Table 3 gives one sequence length).  Sequence, batch and
# parallelism: TM-Training Table 3.
name            t5
params          11e9
layers          24
decoder_layers  24
d_model         1024
heads           128
head_dim        128
d_ff            65536
vocab           32128
seq             512
batch           128
pods            1
model_parallel  1
data_parallel   16
