set terminal svg size 640,600 dynamic noenhanced font 'sans,11'
set output 'dram_writes.svg'
set datafile separator ','
set title 'dram_writes: r = 0.9998, MAPE = 206.1%, N = 46 (34 at 0 not shown)'
set xlabel 'GPGPU-Sim dev 6b244a5d SM2_GTX480 (dram_writes)'
set ylabel 'ptxemu, gtx480 (dram_writes)'
set size square
set grid
set key top left
set logscale xy
set xrange [33.6:318220]
set yrange [33.6:318220]
plot x with lines lc rgb '#888888' dt 2 title 'y = x', 'dram_writes.csv' using 1:($1 > 0 && $2 > 0 && $3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'first half', 'dram_writes.csv' using 1:($1 > 0 && $2 > 0 && $3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 lc rgb '#d62728' title 'second half'
