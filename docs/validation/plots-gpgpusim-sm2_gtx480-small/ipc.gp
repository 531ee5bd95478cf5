set terminal svg size 640,600 dynamic noenhanced font 'sans,11'
set output 'ipc.svg'
set datafile separator ','
set title 'ipc: r = 0.9695, MAPE = 15.9%, N = 46'
set xlabel 'GPGPU-Sim dev 6b244a5d SM2_GTX480 (ipc)'
set ylabel 'ptxemu, gtx480 (ipc)'
set size square
set grid
set key top left
set logscale xy
set xrange [5.23105:870.655]
set yrange [5.23105:870.655]
plot x with lines lc rgb '#888888' dt 2 title 'y = x', 'ipc.csv' using 1:($1 > 0 && $2 > 0 && $3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'first half', 'ipc.csv' using 1:($1 > 0 && $2 > 0 && $3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 lc rgb '#d62728' title 'second half'
