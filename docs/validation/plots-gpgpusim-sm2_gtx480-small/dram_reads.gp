set terminal svg size 640,600 dynamic noenhanced font 'sans,11'
set output 'dram_reads.svg'
set datafile separator ','
set title 'dram_reads: r = 1.0000, MAPE = 52.8%, N = 46 (19 at 0 not shown)'
set xlabel 'GPGPU-Sim dev 6b244a5d SM2_GTX480 (dram_reads)'
set ylabel 'ptxemu, gtx480 (dram_reads)'
set size square
set grid
set key top left
set logscale xy
set xrange [6.4:358446]
set yrange [6.4:358446]
plot x with lines lc rgb '#888888' dt 2 title 'y = x', 'dram_reads.csv' using 1:($1 > 0 && $2 > 0 && $3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'first half', 'dram_reads.csv' using 1:($1 > 0 && $2 > 0 && $3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 lc rgb '#d62728' title 'second half'
