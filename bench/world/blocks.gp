# The chart of bench_world_blocks (docs/world-measurements.md, "Block size"): what a chunked
# archetype's block size does to its loops, its ops and its memory. bench_world_blocks pipes
# $data (one block per series and n: its quoted title, then rows "series block_KiB n
# iterate/raw iterate/raw_cold update/raw update/raw_cold spawn_ns move_pair_ns get1_ns
# bytes/entity bytes_20"), nblocks and outfile, then `load`s this file.
set terminal pngcairo size 1280,900 noenhanced
set output outfile
set multiplot layout 2,2 title "chunked archetypes against block size (min of the passes)"
set logscale x 2
set xlabel "block KiB (growing: the largest block)"
set grid
set key top right
set title "iterate over {P,V} / raw loop: warm (solid), cold caches (dashed)"
set ylabel "ratio"
plot for [i=0:nblocks-1] $data index i using 2:4 with linespoints pointtype 7 linecolor i + 1 title columnheader(1), \
     for [i=0:nblocks-1] $data index i using 2:5 with linespoints pointtype 7 dashtype 2 linecolor i + 1 notitle
set title "the seed's update / raw loop: warm (solid), cold caches (dashed)"
plot for [i=0:nblocks-1] $data index i using 2:6 with linespoints pointtype 7 linecolor i + 1 title columnheader(1), \
     for [i=0:nblocks-1] $data index i using 2:7 with linespoints pointtype 7 dashtype 2 linecolor i + 1 notitle
set title "spawn (solid), move_pair (dashed), get1 (dotted)"
set ylabel "ns per entity"
set key off
plot for [i=0:nblocks-1] $data index i using 2:8 with linespoints pointtype 7 linecolor i + 1, \
     for [i=0:nblocks-1] $data index i using 2:9 with linespoints pointtype 7 dashtype 2 linecolor i + 1, \
     for [i=0:nblocks-1] $data index i using 2:10 with linespoints pointtype 7 dashtype 3 linecolor i + 1
set title "bytes per {P,V} entity (solid); KiB held by 20 entities (dashed, right)"
set ylabel "bytes per entity"
set y2label "KiB"
set y2tics
set logscale y2 2
plot for [i=0:nblocks-1] $data index i using 2:11 with linespoints pointtype 7 linecolor i + 1, \
     for [i=0:nblocks-1] $data index i using 2:($12 / 1024) axes x1y2 with linespoints pointtype 7 dashtype 2 linecolor i + 1
unset multiplot
