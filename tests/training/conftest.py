"""What the training tests share: a small pool of distractor sentences about three subjects."""

from fever_core.training.distractors import PoolSentence

POOL = [
    PoolSentence("Paris", "Paris is the capital and most populous city of France."),
    PoolSentence("Paris", "The city is a major railway, highway and air-transport hub."),
    PoolSentence("Berlin", "Berlin is the capital and largest city of Germany."),
    PoolSentence("Berlin", "Berlin straddles the banks of the Spree river."),
    PoolSentence("Tiger", "The tiger is the largest living cat species."),
    PoolSentence("Tiger", "It is an apex predator, primarily preying on ungulates."),
]
