set terminal svg size 640,600 dynamic noenhanced font 'sans,11'
set output 'warp_instructions.svg'
set datafile separator ','
set title 'warp_instructions: r = 1.0000, MAPE = 0.7%, N = 46'
set xlabel 'GPGPU-Sim dev 6b244a5d SM2_GTX480 (warp_instructions)'
set ylabel 'ptxemu, gtx480 (warp_instructions)'
set size square
set grid
set key top left
set logscale xy
set xrange [331.2:2.71872e+06]
set yrange [331.2:2.71872e+06]
plot x with lines lc rgb '#888888' dt 2 title 'y = x', 'warp_instructions.csv' using 1:($1 > 0 && $2 > 0 && $3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'first half', 'warp_instructions.csv' using 1:($1 > 0 && $2 > 0 && $3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 lc rgb '#d62728' title 'second half'
