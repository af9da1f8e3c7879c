# One chart of bench_csr: median time per op against n_rows, one line per variant, log-log.
# bench_csr pipes it: $data (one block per variant: its quoted name, then "n_rows ms" lines,
# blocks separated by two blank lines), nblocks, op, dist and outfile, then `load`s this file.
set terminal pngcairo size 960,640 noenhanced
set output outfile
set title sprintf("jagged index: %s, %s distribution, 6 items per row (median of the runs)", op, dist)
set logscale xy
set xlabel "n_rows"
set ylabel "ms per op"
set format x "%.0s%c"
set key outside right
set grid
plot for [i=0:nblocks-1] $data index i using 1:2 with linespoints pointtype 7 title columnheader(1)
