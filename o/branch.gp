# Made by vicont; inside its directory 'gnuplot THIS.gp' redraws the PNG,
# 'gnuplot -e "format='pdf'" THIS.gp' the PDF (or 'svg' the SVG).
if (!exists('format')) format = 'png'
if (format eq 'pdf') {
  set terminal pdfcairo size 11.4583in,18.9583in noenhanced font 'sans,10'
} else {
  if (format eq 'svg') {
    set terminal svg size 1100,1820 dynamic noenhanced font 'sans,10'
  } else {
    set terminal pngcairo size 1100,1820 noenhanced font 'sans,10'
  }
}
set output 'branch.'.format
set datafile separator ','
set datafile columnheaders
set grid
set key outside right top vertical
set multiplot layout 4,1 title 'periodic orbits of two-body (n = 1) continued in lambda' font 'sans,12'
set lmargin at screen 0.09
set rmargin at screen 0.776818
set tmargin 2.5
set autoscale x
set autoscale y
unset xlabel
set ylabel 'max x1 [m]'
set object 1 rectangle from first 0.55023042536014199, graph 0 to first 0.58150310502198321, graph 1 behind fc rgb '#ececec' fs solid 1.0 noborder
set xrange [0.04200000000000001:3.0579999999999998]
set arrow 1003 from first 0.56473042536014195, first 0.021198648679529156 to graph 0.17331910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1003 '4' at graph 0.17331910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2003 '' at first 0.56473042536014195, first 0.021198648679529156 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1004 from first 0.56615255075933146, first 0.019187891349166281 to graph 0.20531910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1004 '5' at graph 0.20531910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2004 '' at first 0.56615255075933146, first 0.019187891349166281 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1000 from first 0.56700277901291807, first 0.024657232618164687 to graph 0.23731910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1000 '1' at graph 0.23731910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2000 '' at first 0.56700277901291807, first 0.024657232618164687 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1001 from first 0.56700282467838037, first 0.024657233283423161 to graph 0.26931910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1001 '2' at graph 0.26931910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2001 '' at first 0.56700282467838037, first 0.024657233283423161 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1002 from first 0.56700310502198326, first 0.024657001395116555 to graph 0.30131910655177119, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1002 '3' at graph 0.30131910655177119, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2002 '' at first 0.56700310502198326, first 0.024657001395116555 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
plot 'branch.csv' using 'lambda':(column('draw_stable') > 0 ? column('A_max:x1') : NaN) with lines lw 1.6 lc rgb '#1f4e9a' title 'stable', \
     'branch.csv' using 'lambda':(column('draw_unstable') > 0 ? column('A_max:x1') : NaN) with lines lw 1.6 dt 2 lc rgb '#c0392b' title 'unstable', \
     keyentry with points pt 6 ps 1.0 lc rgb 'black' title '1  GR1  lambda = 0.56700278', \
     keyentry with points pt 6 ps 1.0 lc rgb 'black' title '2  NS1  lambda = 0.56700282', \
     keyentry with points pt 6 ps 1.0 lc rgb 'black' title '3  LP1  lambda = 0.5670031', \
     keyentry with points pt 6 ps 1.0 lc rgb 'black' title '4  LP2  lambda = 0.56473', \
     keyentry with points pt 6 ps 1.0 lc rgb 'black' title '5  NS2  lambda = 0.566153'
unset arrow
unset label
unset object 1
unset xlabel
set yrange [0.017331860439531114:0.025199853561480089]
set label 2 'zoom on the shaded interval above' at graph 0.01, graph 0.96 left font 'sans,9' tc rgb '#555555'
set xrange [0.55023042536014199:0.58150310502198321]
set arrow 1003 from first 0.56473042536014195, first 0.021198648679529156 to graph 0.4636634965980479, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1003 '4' at graph 0.4636634965980479, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2003 '' at first 0.56473042536014195, first 0.021198648679529156 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1004 from first 0.56615255075933146, first 0.019187891349166281 to graph 0.5091385059214345, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1004 '5' at graph 0.5091385059214345, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2004 '' at first 0.56615255075933146, first 0.019187891349166281 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1000 from first 0.56700277901291807, first 0.024657232618164687 to graph 0.54113850592143453, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1000 '1' at graph 0.54113850592143453, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2000 '' at first 0.56700277901291807, first 0.024657232618164687 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1001 from first 0.56700282467838037, first 0.024657233283423161 to graph 0.57313850592143456, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1001 '2' at graph 0.57313850592143456, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2001 '' at first 0.56700282467838037, first 0.024657233283423161 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1002 from first 0.56700310502198326, first 0.024657001395116555 to graph 0.60513850592143459, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1002 '3' at graph 0.60513850592143459, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2002 '' at first 0.56700310502198326, first 0.024657001395116555 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
plot 'branch.csv' using 'lambda':(column('draw_stable') > 0 ? column('A_max:x1') : NaN) with lines lw 1.6 lc rgb '#1f4e9a' notitle, \
     'branch.csv' using 'lambda':(column('draw_unstable') > 0 ? column('A_max:x1') : NaN) with lines lw 1.6 dt 2 lc rgb '#c0392b' notitle
unset arrow
unset label
unset label 2
set autoscale y
set autoscale x
set autoscale y
unset xlabel
set ylabel 'max x2 [m]'
set object 1 rectangle from first 0.55023042536014199, graph 0 to first 0.58150310502198321, graph 1 behind fc rgb '#ececec' fs solid 1.0 noborder
set xrange [0.04200000000000001:3.0579999999999998]
set arrow 1003 from first 0.56473042536014195, first 0.039841678381832897 to graph 0.17331910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1003 '4' at graph 0.17331910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2003 '' at first 0.56473042536014195, first 0.039841678381832897 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1004 from first 0.56615255075933146, first 0.044447772668619191 to graph 0.20531910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1004 '5' at graph 0.20531910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2004 '' at first 0.56615255075933146, first 0.044447772668619191 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1000 from first 0.56700277901291807, first 0.034804969866385871 to graph 0.23731910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1000 '1' at graph 0.23731910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2000 '' at first 0.56700277901291807, first 0.034804969866385871 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1001 from first 0.56700282467838037, first 0.034804974421511731 to graph 0.26931910655177116, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1001 '2' at graph 0.26931910655177116, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2001 '' at first 0.56700282467838037, first 0.034804974421511731 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1002 from first 0.56700310502198326, first 0.034805315690755831 to graph 0.30131910655177119, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1002 '3' at graph 0.30131910655177119, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2002 '' at first 0.56700310502198326, first 0.034805315690755831 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
plot 'branch.csv' using 'lambda':(column('draw_stable') > 0 ? column('A_max:x2') : NaN) with lines lw 1.6 lc rgb '#1f4e9a' notitle, \
     'branch.csv' using 'lambda':(column('draw_unstable') > 0 ? column('A_max:x2') : NaN) with lines lw 1.6 dt 2 lc rgb '#c0392b' notitle
unset arrow
unset label
unset object 1
set xlabel 'lambda [-]'
set yrange [0.032964313368783867:0.054748467634616861]
set label 2 'zoom on the shaded interval above' at graph 0.01, graph 0.96 left font 'sans,9' tc rgb '#555555'
set xrange [0.55023042536014199:0.58150310502198321]
set arrow 1003 from first 0.56473042536014195, first 0.039841678381832897 to graph 0.4636634965980479, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1003 '4' at graph 0.4636634965980479, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2003 '' at first 0.56473042536014195, first 0.039841678381832897 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1004 from first 0.56615255075933146, first 0.044447772668619191 to graph 0.5091385059214345, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1004 '5' at graph 0.5091385059214345, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2004 '' at first 0.56615255075933146, first 0.044447772668619191 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1000 from first 0.56700277901291807, first 0.034804969866385871 to graph 0.54113850592143453, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1000 '1' at graph 0.54113850592143453, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2000 '' at first 0.56700277901291807, first 0.034804969866385871 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1001 from first 0.56700282467838037, first 0.034804974421511731 to graph 0.57313850592143456, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1001 '2' at graph 0.57313850592143456, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2001 '' at first 0.56700282467838037, first 0.034804974421511731 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
set arrow 1002 from first 0.56700310502198326, first 0.034805315690755831 to graph 0.60513850592143459, graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back
set label 1002 '3' at graph 0.60513850592143459, graph 1 center offset 0,0.7 font 'sans,8' tc rgb 'black' front
set label 2002 '' at first 0.56700310502198326, first 0.034805315690755831 point pt 6 ps 1.3 lw 1.5 lc rgb 'black' front
plot 'branch.csv' using 'lambda':(column('draw_stable') > 0 ? column('A_max:x2') : NaN) with lines lw 1.6 lc rgb '#1f4e9a' notitle, \
     'branch.csv' using 'lambda':(column('draw_unstable') > 0 ? column('A_max:x2') : NaN) with lines lw 1.6 dt 2 lc rgb '#c0392b' notitle
unset arrow
unset label
unset label 2
set autoscale y
unset multiplot
