set terminal svg size 640,600 dynamic noenhanced font 'sans,11'
set output 'dram_writes.svg'
set datafile separator ','
set title 'dram_writes: r = n/a, MAPE = n/a, N = 26 (26 at 0 not shown)'
set xlabel 'GPGPU-Sim 6b244a5d3be7811f16c312905c1c7fee137ac7a4 (gpgpu-sim_distribution dev (dram_writes)'
set ylabel 'ptxemu, gtx480 (dram_writes)'
set size square
set grid
set key top left
set logscale xy
set xrange [0.8:12.5]
set yrange [0.8:12.5]
plot x with lines lc rgb '#888888' dt 2 title 'y = x', 'dram_writes.csv' using 1:($1 > 0 && $2 > 0 && $3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'first half', 'dram_writes.csv' using 1:($1 > 0 && $2 > 0 && $3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 lc rgb '#d62728' title 'second half'
