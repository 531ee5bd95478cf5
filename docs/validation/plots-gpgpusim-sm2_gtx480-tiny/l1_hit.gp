set terminal svg size 640,600 dynamic noenhanced font 'sans,11'
set output 'l1_hit.svg'
set datafile separator ','
set title 'l1_hit: r = 0.8832, MAPE = 34.6%, N = 300'
set xlabel 'GPGPU-Sim dev 6b244a5d SM2_GTX480 (l1_hit)'
set ylabel 'ptxemu, gtx480 (l1_hit)'
set size square
set grid
set key top left
set xrange [0:1]
set yrange [0:1]
plot x with lines lc rgb '#888888' dt 2 title 'y = x', 'l1_hit.csv' using 1:($3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'first half', 'l1_hit.csv' using 1:($3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 lc rgb '#d62728' title 'second half'
