# The look every make bench chart shares (bench/runner/gp.c loads it before each chart): white
# background, a light grid, the key outside the plot, axes labels in plain units.
set termoption noenhanced
set border 3 lw 1 lc rgb '#404040'
set tics nomirror out
set grid xtics ytics mxtics mytics lt 1 lw 1 lc rgb '#d4d4d4', lt 1 lw 1 lc rgb '#ececec'
set key noautotitle box lc rgb '#c0c0c0' samplen 3 spacing 1.1
set datafile missing 'NaN'
# A value written over its bar: 3 significant digits, no exponent.
fmt(v) = v != v ? '' : abs(v) >= 100 ? sprintf('%.0f', v) : abs(v) >= 10 ? sprintf('%.1f', v) : \
         abs(v) >= 1 ? sprintf('%.2f', v) : abs(v) >= 0.01 ? sprintf('%.3f', v) : sprintf('%.2g', v)
