#!/usr/bin/python3
# Prints the reference values of mann_whitney_test.cpp: scipy.stats.mannwhitneyu (SciPy 1.10,
# Debian python3-scipy), two-sided, default method and continuity correction.

from scipy.stats import mannwhitneyu
cases = [
 ([1,2,3],[4,5,6]),
 ([1.5,2.5,3.5,4.5],[1,2,3,4]),
 ([10,11,12,13,14],[15,16,17,18,19]),
 ([3.1,4.2,5.3,6.4,7.5,8.6,9.7],[1.0,2.0,3.3,4.4,5.5,6.6,7.7,8.8,9.9,10.1]),
 ([1,2,2,3,4],[2,3,5,6,7]),
 ([float(i) for i in range(9)],[i+0.5 for i in range(12)]),
 ([5,5,5],[5,5,5]),
 ([1,2,3,4,5,6,7,8,9,10,11,12],[3,4,5,6,7,8,9,10,11,12,13,14,15]),
]
for x,y in cases:
    r = mannwhitneyu(x,y)
    print(x, y, repr(float(r.statistic)), repr(float(r.pvalue)))
