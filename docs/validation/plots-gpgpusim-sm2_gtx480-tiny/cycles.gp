set terminal svg size 640,600 dynamic noenhanced font 'sans,11'
set output 'cycles.svg'
set datafile separator ','
set title 'cycles: r = 0.9870, MAPE = 11.1%, N = 300'
set xlabel 'GPGPU-Sim dev 6b244a5d SM2_GTX480 (cycles)'
set ylabel 'ptxemu, gtx480 (cycles)'
set size square
set grid
set key top left
set logscale xy
set xrange [422.4:3.12952e+06]
set yrange [422.4:3.12952e+06]
plot x with lines lc rgb '#888888' dt 2 title 'y = x', 'cycles.csv' using 1:($1 > 0 && $2 > 0 && $3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'first half', 'cycles.csv' using 1:($1 > 0 && $2 > 0 && $3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 lc rgb '#d62728' title 'second half'
