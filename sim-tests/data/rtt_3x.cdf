# Base RTTs in microseconds with 3x variation (70-210 us), long-tailed like ECN♯ §4.1
# Table 1 / Fig. 1: the large-scale simulation's 80-240 us distribution (mean ~137, p90 ~220,
# §4.5) scaled by 210/240. Mean 117 us, p90 195 us. Linearly interpolated.
70 0
90 0.4
120 0.65
160 0.8
195 0.9
210 1
