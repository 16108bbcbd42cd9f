* tilesolve tantrix tantrix_challenge_5: milp model
* incomplete: subloop cuts (each goal colour one loop, no separate smaller loops) are added by tilesolve while solving and are not in this file; a solution that breaks them is rejected by tilesolve verify
* variables: see tantrix_challenge_5.mps.map.json
*SENSE:Minimize
NAME          tantrix
ROWS
 N  OBJ
 E  cell_0_m1
 E  cell_m1_0
 E  cell_0_0
 E  cell_m1_1
 E  cell_0_1
 E  tile_1
 E  tile_2
 E  tile_3
 E  tile_4
 E  tile_5
 E  link_0_red
 E  match_0_yellow
 L  uza_0_yellow
 L  uzb_0_yellow
 E  match_0_blue
 L  uza_0_blue
 L  uzb_0_blue
 E  link_1_red
 E  match_1_yellow
 L  uza_1_yellow
 L  uzb_1_yellow
 E  match_1_blue
 L  uza_1_blue
 L  uzb_1_blue
 E  link_2_red
 E  match_2_yellow
 L  uza_2_yellow
 L  uzb_2_yellow
 E  match_2_blue
 L  uza_2_blue
 L  uzb_2_blue
 E  link_3_red
 E  match_3_yellow
 L  uza_3_yellow
 L  uzb_3_yellow
 E  match_3_blue
 L  uza_3_blue
 L  uzb_3_blue
 E  link_4_red
 E  match_4_yellow
 L  uza_4_yellow
 L  uzb_4_yellow
 E  match_4_blue
 L  uza_4_blue
 L  uzb_4_blue
 E  link_5_red
 E  match_5_yellow
 L  uza_5_yellow
 L  uzb_5_yellow
 E  match_5_blue
 L  uza_5_blue
 L  uzb_5_blue
 E  link_6_red
 E  match_6_blue
 L  uza_6_blue
 L  uzb_6_blue
 L  opena_0
 L  openb_0
 L  opena_1
 L  openb_1
 L  opena_2
 L  openb_2
 L  opena_3
 L  openb_3
 L  opena_4
 L  openb_4
 L  opena_5
 L  openb_5
 L  opena_6
 L  openb_6
 L  short_red_m1_0_m1_1_0_m1_0_0
 L  short_red_m1_0_m1_1_0_0
 L  short_red_m1_0_m1_1_0_0_0_1
 L  short_red_m1_0_0_m1_0_0
 L  short_red_m1_1_0_0_0_1
COLUMNS
    __dummy   OBJ        1.000000000000e+00
    ua_0_blue  match_0_blue  -1.000000000000e+00
    ua_0_blue  uza_0_blue   1.000000000000e+00
    ua_0_blue  opena_0    1.000000000000e+00
    ua_0_yellow  match_0_yellow  -1.000000000000e+00
    ua_0_yellow  uza_0_yellow   1.000000000000e+00
    ua_0_yellow  opena_0    1.000000000000e+00
    ua_1_blue  match_1_blue  -1.000000000000e+00
    ua_1_blue  uza_1_blue   1.000000000000e+00
    ua_1_blue  opena_1    1.000000000000e+00
    ua_1_yellow  match_1_yellow  -1.000000000000e+00
    ua_1_yellow  uza_1_yellow   1.000000000000e+00
    ua_1_yellow  opena_1    1.000000000000e+00
    ua_2_blue  match_2_blue  -1.000000000000e+00
    ua_2_blue  uza_2_blue   1.000000000000e+00
    ua_2_blue  opena_2    1.000000000000e+00
    ua_2_yellow  match_2_yellow  -1.000000000000e+00
    ua_2_yellow  uza_2_yellow   1.000000000000e+00
    ua_2_yellow  opena_2    1.000000000000e+00
    ua_3_blue  match_3_blue  -1.000000000000e+00
    ua_3_blue  uza_3_blue   1.000000000000e+00
    ua_3_blue  opena_3    1.000000000000e+00
    ua_3_yellow  match_3_yellow  -1.000000000000e+00
    ua_3_yellow  uza_3_yellow   1.000000000000e+00
    ua_3_yellow  opena_3    1.000000000000e+00
    ua_4_blue  match_4_blue  -1.000000000000e+00
    ua_4_blue  uza_4_blue   1.000000000000e+00
    ua_4_blue  opena_4    1.000000000000e+00
    ua_4_yellow  match_4_yellow  -1.000000000000e+00
    ua_4_yellow  uza_4_yellow   1.000000000000e+00
    ua_4_yellow  opena_4    1.000000000000e+00
    ua_5_blue  match_5_blue  -1.000000000000e+00
    ua_5_blue  uza_5_blue   1.000000000000e+00
    ua_5_blue  opena_5    1.000000000000e+00
    ua_5_yellow  match_5_yellow  -1.000000000000e+00
    ua_5_yellow  uza_5_yellow   1.000000000000e+00
    ua_5_yellow  opena_5    1.000000000000e+00
    ua_6_blue  match_6_blue  -1.000000000000e+00
    ua_6_blue  uza_6_blue   1.000000000000e+00
    ua_6_blue  opena_6    1.000000000000e+00
    ub_0_blue  match_0_blue   1.000000000000e+00
    ub_0_blue  uzb_0_blue   1.000000000000e+00
    ub_0_blue  openb_0    1.000000000000e+00
    ub_0_yellow  match_0_yellow   1.000000000000e+00
    ub_0_yellow  uzb_0_yellow   1.000000000000e+00
    ub_0_yellow  openb_0    1.000000000000e+00
    ub_1_blue  match_1_blue   1.000000000000e+00
    ub_1_blue  uzb_1_blue   1.000000000000e+00
    ub_1_blue  openb_1    1.000000000000e+00
    ub_1_yellow  match_1_yellow   1.000000000000e+00
    ub_1_yellow  uzb_1_yellow   1.000000000000e+00
    ub_1_yellow  openb_1    1.000000000000e+00
    ub_2_blue  match_2_blue   1.000000000000e+00
    ub_2_blue  uzb_2_blue   1.000000000000e+00
    ub_2_blue  openb_2    1.000000000000e+00
    ub_2_yellow  match_2_yellow   1.000000000000e+00
    ub_2_yellow  uzb_2_yellow   1.000000000000e+00
    ub_2_yellow  openb_2    1.000000000000e+00
    ub_3_blue  match_3_blue   1.000000000000e+00
    ub_3_blue  uzb_3_blue   1.000000000000e+00
    ub_3_blue  openb_3    1.000000000000e+00
    ub_3_yellow  match_3_yellow   1.000000000000e+00
    ub_3_yellow  uzb_3_yellow   1.000000000000e+00
    ub_3_yellow  openb_3    1.000000000000e+00
    ub_4_blue  match_4_blue   1.000000000000e+00
    ub_4_blue  uzb_4_blue   1.000000000000e+00
    ub_4_blue  openb_4    1.000000000000e+00
    ub_4_yellow  match_4_yellow   1.000000000000e+00
    ub_4_yellow  uzb_4_yellow   1.000000000000e+00
    ub_4_yellow  openb_4    1.000000000000e+00
    ub_5_blue  match_5_blue   1.000000000000e+00
    ub_5_blue  uzb_5_blue   1.000000000000e+00
    ub_5_blue  openb_5    1.000000000000e+00
    ub_5_yellow  match_5_yellow   1.000000000000e+00
    ub_5_yellow  uzb_5_yellow   1.000000000000e+00
    ub_5_yellow  openb_5    1.000000000000e+00
    ub_6_blue  match_6_blue   1.000000000000e+00
    ub_6_blue  uzb_6_blue   1.000000000000e+00
    ub_6_blue  openb_6    1.000000000000e+00
    MARK      'MARKER'                 'INTORG'
    x_0_0_1_0  cell_0_0   1.000000000000e+00
    x_0_0_1_0  tile_1     1.000000000000e+00
    x_0_0_1_0  link_0_red  -1.000000000000e+00
    x_0_0_1_0  match_2_blue  -1.000000000000e+00
    x_0_0_1_0  uzb_2_blue  -1.000000000000e+00
    x_0_0_1_0  match_4_blue   1.000000000000e+00
    x_0_0_1_0  uza_4_blue  -1.000000000000e+00
    x_0_0_1_0  link_5_red  -1.000000000000e+00
    x_0_0_1_0  opena_0    1.000000000000e+00
    x_0_0_1_0  opena_2    1.000000000000e+00
    x_0_0_1_0  openb_4    1.000000000000e+00
    x_0_0_1_0  opena_5    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_1_5  cell_0_0   1.000000000000e+00
    x_0_0_1_5  tile_1     1.000000000000e+00
    x_0_0_1_5  match_0_yellow  -1.000000000000e+00
    x_0_0_1_5  uzb_0_yellow  -1.000000000000e+00
    x_0_0_1_5  link_2_red  -1.000000000000e+00
    x_0_0_1_5  link_4_red   1.000000000000e+00
    x_0_0_1_5  match_5_blue  -1.000000000000e+00
    x_0_0_1_5  uzb_5_blue  -1.000000000000e+00
    x_0_0_1_5  opena_0    1.000000000000e+00
    x_0_0_1_5  opena_2    1.000000000000e+00
    x_0_0_1_5  openb_4    1.000000000000e+00
    x_0_0_1_5  opena_5    1.000000000000e+00
    x_0_0_1_5  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_0_0_1_5  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_2_0  cell_0_0   1.000000000000e+00
    x_0_0_2_0  tile_2     1.000000000000e+00
    x_0_0_2_0  match_0_blue  -1.000000000000e+00
    x_0_0_2_0  uzb_0_blue  -1.000000000000e+00
    x_0_0_2_0  link_2_red  -1.000000000000e+00
    x_0_0_2_0  match_4_blue   1.000000000000e+00
    x_0_0_2_0  uza_4_blue  -1.000000000000e+00
    x_0_0_2_0  link_5_red  -1.000000000000e+00
    x_0_0_2_0  opena_0    1.000000000000e+00
    x_0_0_2_0  opena_2    1.000000000000e+00
    x_0_0_2_0  openb_4    1.000000000000e+00
    x_0_0_2_0  opena_5    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_2_1  cell_0_0   1.000000000000e+00
    x_0_0_2_1  tile_2     1.000000000000e+00
    x_0_0_2_1  link_0_red  -1.000000000000e+00
    x_0_0_2_1  link_2_red  -1.000000000000e+00
    x_0_0_2_1  match_4_yellow   1.000000000000e+00
    x_0_0_2_1  uza_4_yellow  -1.000000000000e+00
    x_0_0_2_1  match_5_blue  -1.000000000000e+00
    x_0_0_2_1  uzb_5_blue  -1.000000000000e+00
    x_0_0_2_1  opena_0    1.000000000000e+00
    x_0_0_2_1  opena_2    1.000000000000e+00
    x_0_0_2_1  openb_4    1.000000000000e+00
    x_0_0_2_1  opena_5    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_2_5  cell_0_0   1.000000000000e+00
    x_0_0_2_5  tile_2     1.000000000000e+00
    x_0_0_2_5  match_0_yellow  -1.000000000000e+00
    x_0_0_2_5  uzb_0_yellow  -1.000000000000e+00
    x_0_0_2_5  match_2_blue  -1.000000000000e+00
    x_0_0_2_5  uzb_2_blue  -1.000000000000e+00
    x_0_0_2_5  link_4_red   1.000000000000e+00
    x_0_0_2_5  link_5_red  -1.000000000000e+00
    x_0_0_2_5  opena_0    1.000000000000e+00
    x_0_0_2_5  opena_2    1.000000000000e+00
    x_0_0_2_5  openb_4    1.000000000000e+00
    x_0_0_2_5  opena_5    1.000000000000e+00
    x_0_0_2_5  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_0_0_2_5  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_3_0  cell_0_0   1.000000000000e+00
    x_0_0_3_0  tile_3     1.000000000000e+00
    x_0_0_3_0  match_0_blue  -1.000000000000e+00
    x_0_0_3_0  uzb_0_blue  -1.000000000000e+00
    x_0_0_3_0  match_2_blue  -1.000000000000e+00
    x_0_0_3_0  uzb_2_blue  -1.000000000000e+00
    x_0_0_3_0  link_4_red   1.000000000000e+00
    x_0_0_3_0  link_5_red  -1.000000000000e+00
    x_0_0_3_0  opena_0    1.000000000000e+00
    x_0_0_3_0  opena_2    1.000000000000e+00
    x_0_0_3_0  openb_4    1.000000000000e+00
    x_0_0_3_0  opena_5    1.000000000000e+00
    x_0_0_3_0  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_0_0_3_0  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_3_1  cell_0_0   1.000000000000e+00
    x_0_0_3_1  tile_3     1.000000000000e+00
    x_0_0_3_1  match_0_blue  -1.000000000000e+00
    x_0_0_3_1  uzb_0_blue  -1.000000000000e+00
    x_0_0_3_1  link_2_red  -1.000000000000e+00
    x_0_0_3_1  match_4_yellow   1.000000000000e+00
    x_0_0_3_1  uza_4_yellow  -1.000000000000e+00
    x_0_0_3_1  link_5_red  -1.000000000000e+00
    x_0_0_3_1  opena_0    1.000000000000e+00
    x_0_0_3_1  opena_2    1.000000000000e+00
    x_0_0_3_1  openb_4    1.000000000000e+00
    x_0_0_3_1  opena_5    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_3_2  cell_0_0   1.000000000000e+00
    x_0_0_3_2  tile_3     1.000000000000e+00
    x_0_0_3_2  link_0_red  -1.000000000000e+00
    x_0_0_3_2  link_2_red  -1.000000000000e+00
    x_0_0_3_2  match_4_yellow   1.000000000000e+00
    x_0_0_3_2  uza_4_yellow  -1.000000000000e+00
    x_0_0_3_2  match_5_yellow  -1.000000000000e+00
    x_0_0_3_2  uzb_5_yellow  -1.000000000000e+00
    x_0_0_3_2  opena_0    1.000000000000e+00
    x_0_0_3_2  opena_2    1.000000000000e+00
    x_0_0_3_2  openb_4    1.000000000000e+00
    x_0_0_3_2  opena_5    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_4_4  cell_0_0   1.000000000000e+00
    x_0_0_4_4  tile_4     1.000000000000e+00
    x_0_0_4_4  match_0_yellow  -1.000000000000e+00
    x_0_0_4_4  uzb_0_yellow  -1.000000000000e+00
    x_0_0_4_4  link_2_red  -1.000000000000e+00
    x_0_0_4_4  link_4_red   1.000000000000e+00
    x_0_0_4_4  match_5_blue  -1.000000000000e+00
    x_0_0_4_4  uzb_5_blue  -1.000000000000e+00
    x_0_0_4_4  opena_0    1.000000000000e+00
    x_0_0_4_4  opena_2    1.000000000000e+00
    x_0_0_4_4  openb_4    1.000000000000e+00
    x_0_0_4_4  opena_5    1.000000000000e+00
    x_0_0_4_4  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_0_0_4_4  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_4_5  cell_0_0   1.000000000000e+00
    x_0_0_4_5  tile_4     1.000000000000e+00
    x_0_0_4_5  link_0_red  -1.000000000000e+00
    x_0_0_4_5  match_2_blue  -1.000000000000e+00
    x_0_0_4_5  uzb_2_blue  -1.000000000000e+00
    x_0_0_4_5  match_4_yellow   1.000000000000e+00
    x_0_0_4_5  uza_4_yellow  -1.000000000000e+00
    x_0_0_4_5  link_5_red  -1.000000000000e+00
    x_0_0_4_5  opena_0    1.000000000000e+00
    x_0_0_4_5  opena_2    1.000000000000e+00
    x_0_0_4_5  openb_4    1.000000000000e+00
    x_0_0_4_5  opena_5    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_5_0  cell_0_0   1.000000000000e+00
    x_0_0_5_0  tile_5     1.000000000000e+00
    x_0_0_5_0  link_0_red  -1.000000000000e+00
    x_0_0_5_0  match_2_blue  -1.000000000000e+00
    x_0_0_5_0  uzb_2_blue  -1.000000000000e+00
    x_0_0_5_0  link_4_red   1.000000000000e+00
    x_0_0_5_0  match_5_blue  -1.000000000000e+00
    x_0_0_5_0  uzb_5_blue  -1.000000000000e+00
    x_0_0_5_0  opena_0    1.000000000000e+00
    x_0_0_5_0  opena_2    1.000000000000e+00
    x_0_0_5_0  openb_4    1.000000000000e+00
    x_0_0_5_0  opena_5    1.000000000000e+00
    x_0_0_5_0  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_0_0_5_0  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_0_5_3  cell_0_0   1.000000000000e+00
    x_0_0_5_3  tile_5     1.000000000000e+00
    x_0_0_5_3  link_0_red  -1.000000000000e+00
    x_0_0_5_3  match_2_yellow  -1.000000000000e+00
    x_0_0_5_3  uzb_2_yellow  -1.000000000000e+00
    x_0_0_5_3  link_4_red   1.000000000000e+00
    x_0_0_5_3  match_5_yellow  -1.000000000000e+00
    x_0_0_5_3  uzb_5_yellow  -1.000000000000e+00
    x_0_0_5_3  opena_0    1.000000000000e+00
    x_0_0_5_3  opena_2    1.000000000000e+00
    x_0_0_5_3  openb_4    1.000000000000e+00
    x_0_0_5_3  opena_5    1.000000000000e+00
    x_0_0_5_3  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_0_0_5_3  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_1_2_1  cell_0_1   1.000000000000e+00
    x_0_1_2_1  tile_2     1.000000000000e+00
    x_0_1_2_1  link_4_red  -1.000000000000e+00
    x_0_1_2_1  link_6_red  -1.000000000000e+00
    x_0_1_2_1  opena_4    1.000000000000e+00
    x_0_1_2_1  opena_6    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_1_3_2  cell_0_1   1.000000000000e+00
    x_0_1_3_2  tile_3     1.000000000000e+00
    x_0_1_3_2  link_4_red  -1.000000000000e+00
    x_0_1_3_2  link_6_red  -1.000000000000e+00
    x_0_1_3_2  opena_4    1.000000000000e+00
    x_0_1_3_2  opena_6    1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_m1_2_5  cell_0_m1   1.000000000000e+00
    x_0_m1_2_5  tile_2     1.000000000000e+00
    x_0_m1_2_5  link_0_red   1.000000000000e+00
    x_0_m1_2_5  link_1_red  -1.000000000000e+00
    x_0_m1_2_5  openb_0    1.000000000000e+00
    x_0_m1_2_5  opena_1    1.000000000000e+00
    x_0_m1_2_5  short_red_m1_0_m1_1_0_m1_0_0   1.000000000000e+00
    x_0_m1_2_5  short_red_m1_0_0_m1_0_0   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_0_m1_3_0  cell_0_m1   1.000000000000e+00
    x_0_m1_3_0  tile_3     1.000000000000e+00
    x_0_m1_3_0  link_0_red   1.000000000000e+00
    x_0_m1_3_0  link_1_red  -1.000000000000e+00
    x_0_m1_3_0  openb_0    1.000000000000e+00
    x_0_m1_3_0  opena_1    1.000000000000e+00
    x_0_m1_3_0  short_red_m1_0_m1_1_0_m1_0_0   1.000000000000e+00
    x_0_m1_3_0  short_red_m1_0_0_m1_0_0   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_0_1_3  cell_m1_0   1.000000000000e+00
    x_m1_0_1_3  tile_1     1.000000000000e+00
    x_m1_0_1_3  link_1_red   1.000000000000e+00
    x_m1_0_1_3  match_2_blue   1.000000000000e+00
    x_m1_0_1_3  uza_2_blue  -1.000000000000e+00
    x_m1_0_1_3  link_3_red   1.000000000000e+00
    x_m1_0_1_3  openb_1    1.000000000000e+00
    x_m1_0_1_3  openb_2    1.000000000000e+00
    x_m1_0_1_3  openb_3    1.000000000000e+00
    x_m1_0_1_3  short_red_m1_0_m1_1_0_m1_0_0   2.000000000000e+00
    x_m1_0_1_3  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_0_1_3  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_0_1_3  short_red_m1_0_0_m1_0_0   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_0_2_3  cell_m1_0   1.000000000000e+00
    x_m1_0_2_3  tile_2     1.000000000000e+00
    x_m1_0_2_3  link_1_red   1.000000000000e+00
    x_m1_0_2_3  link_2_red   1.000000000000e+00
    x_m1_0_2_3  match_3_blue   1.000000000000e+00
    x_m1_0_2_3  uza_3_blue  -1.000000000000e+00
    x_m1_0_2_3  openb_1    1.000000000000e+00
    x_m1_0_2_3  openb_2    1.000000000000e+00
    x_m1_0_2_3  openb_3    1.000000000000e+00
    x_m1_0_2_3  short_red_m1_0_m1_1_0_m1_0_0   2.000000000000e+00
    x_m1_0_2_3  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_0_2_3  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_0_2_3  short_red_m1_0_0_m1_0_0   2.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_0_2_4  cell_m1_0   1.000000000000e+00
    x_m1_0_2_4  tile_2     1.000000000000e+00
    x_m1_0_2_4  match_1_blue   1.000000000000e+00
    x_m1_0_2_4  uza_1_blue  -1.000000000000e+00
    x_m1_0_2_4  link_2_red   1.000000000000e+00
    x_m1_0_2_4  link_3_red   1.000000000000e+00
    x_m1_0_2_4  openb_1    1.000000000000e+00
    x_m1_0_2_4  openb_2    1.000000000000e+00
    x_m1_0_2_4  openb_3    1.000000000000e+00
    x_m1_0_2_4  short_red_m1_0_m1_1_0_m1_0_0   2.000000000000e+00
    x_m1_0_2_4  short_red_m1_0_m1_1_0_0   2.000000000000e+00
    x_m1_0_2_4  short_red_m1_0_m1_1_0_0_0_1   2.000000000000e+00
    x_m1_0_2_4  short_red_m1_0_0_m1_0_0   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_0_3_4  cell_m1_0   1.000000000000e+00
    x_m1_0_3_4  tile_3     1.000000000000e+00
    x_m1_0_3_4  link_1_red   1.000000000000e+00
    x_m1_0_3_4  link_2_red   1.000000000000e+00
    x_m1_0_3_4  match_3_blue   1.000000000000e+00
    x_m1_0_3_4  uza_3_blue  -1.000000000000e+00
    x_m1_0_3_4  openb_1    1.000000000000e+00
    x_m1_0_3_4  openb_2    1.000000000000e+00
    x_m1_0_3_4  openb_3    1.000000000000e+00
    x_m1_0_3_4  short_red_m1_0_m1_1_0_m1_0_0   2.000000000000e+00
    x_m1_0_3_4  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_0_3_4  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_0_3_4  short_red_m1_0_0_m1_0_0   2.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_0_3_5  cell_m1_0   1.000000000000e+00
    x_m1_0_3_5  tile_3     1.000000000000e+00
    x_m1_0_3_5  match_1_yellow   1.000000000000e+00
    x_m1_0_3_5  uza_1_yellow  -1.000000000000e+00
    x_m1_0_3_5  link_2_red   1.000000000000e+00
    x_m1_0_3_5  link_3_red   1.000000000000e+00
    x_m1_0_3_5  openb_1    1.000000000000e+00
    x_m1_0_3_5  openb_2    1.000000000000e+00
    x_m1_0_3_5  openb_3    1.000000000000e+00
    x_m1_0_3_5  short_red_m1_0_m1_1_0_m1_0_0   2.000000000000e+00
    x_m1_0_3_5  short_red_m1_0_m1_1_0_0   2.000000000000e+00
    x_m1_0_3_5  short_red_m1_0_m1_1_0_0_0_1   2.000000000000e+00
    x_m1_0_3_5  short_red_m1_0_0_m1_0_0   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_0_4_2  cell_m1_0   1.000000000000e+00
    x_m1_0_4_2  tile_4     1.000000000000e+00
    x_m1_0_4_2  link_1_red   1.000000000000e+00
    x_m1_0_4_2  match_2_blue   1.000000000000e+00
    x_m1_0_4_2  uza_2_blue  -1.000000000000e+00
    x_m1_0_4_2  link_3_red   1.000000000000e+00
    x_m1_0_4_2  openb_1    1.000000000000e+00
    x_m1_0_4_2  openb_2    1.000000000000e+00
    x_m1_0_4_2  openb_3    1.000000000000e+00
    x_m1_0_4_2  short_red_m1_0_m1_1_0_m1_0_0   2.000000000000e+00
    x_m1_0_4_2  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_0_4_2  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_0_4_2  short_red_m1_0_0_m1_0_0   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_1_1_2  cell_m1_1   1.000000000000e+00
    x_m1_1_1_2  tile_1     1.000000000000e+00
    x_m1_1_1_2  link_3_red  -1.000000000000e+00
    x_m1_1_1_2  match_5_blue   1.000000000000e+00
    x_m1_1_1_2  uza_5_blue  -1.000000000000e+00
    x_m1_1_1_2  link_6_red   1.000000000000e+00
    x_m1_1_1_2  opena_3    1.000000000000e+00
    x_m1_1_1_2  openb_5    1.000000000000e+00
    x_m1_1_1_2  openb_6    1.000000000000e+00
    x_m1_1_1_2  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_1_1_2  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_1_2_2  cell_m1_1   1.000000000000e+00
    x_m1_1_2_2  tile_2     1.000000000000e+00
    x_m1_1_2_2  link_3_red  -1.000000000000e+00
    x_m1_1_2_2  link_5_red   1.000000000000e+00
    x_m1_1_2_2  match_6_blue   1.000000000000e+00
    x_m1_1_2_2  uza_6_blue  -1.000000000000e+00
    x_m1_1_2_2  opena_3    1.000000000000e+00
    x_m1_1_2_2  openb_5    1.000000000000e+00
    x_m1_1_2_2  openb_6    1.000000000000e+00
    x_m1_1_2_2  short_red_m1_0_m1_1_0_m1_0_0   1.000000000000e+00
    x_m1_1_2_2  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_1_2_2  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_1_2_2  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_1_2_3  cell_m1_1   1.000000000000e+00
    x_m1_1_2_3  tile_2     1.000000000000e+00
    x_m1_1_2_3  match_3_blue  -1.000000000000e+00
    x_m1_1_2_3  uzb_3_blue  -1.000000000000e+00
    x_m1_1_2_3  link_5_red   1.000000000000e+00
    x_m1_1_2_3  link_6_red   1.000000000000e+00
    x_m1_1_2_3  opena_3    1.000000000000e+00
    x_m1_1_2_3  openb_5    1.000000000000e+00
    x_m1_1_2_3  openb_6    1.000000000000e+00
    x_m1_1_2_3  short_red_m1_0_m1_1_0_m1_0_0   1.000000000000e+00
    x_m1_1_2_3  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_1_2_3  short_red_m1_0_m1_1_0_0_0_1   2.000000000000e+00
    x_m1_1_2_3  short_red_m1_1_0_0_0_1   2.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_1_3_3  cell_m1_1   1.000000000000e+00
    x_m1_1_3_3  tile_3     1.000000000000e+00
    x_m1_1_3_3  link_3_red  -1.000000000000e+00
    x_m1_1_3_3  link_5_red   1.000000000000e+00
    x_m1_1_3_3  match_6_blue   1.000000000000e+00
    x_m1_1_3_3  uza_6_blue  -1.000000000000e+00
    x_m1_1_3_3  opena_3    1.000000000000e+00
    x_m1_1_3_3  openb_5    1.000000000000e+00
    x_m1_1_3_3  openb_6    1.000000000000e+00
    x_m1_1_3_3  short_red_m1_0_m1_1_0_m1_0_0   1.000000000000e+00
    x_m1_1_3_3  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_1_3_3  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_1_3_3  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_1_3_4  cell_m1_1   1.000000000000e+00
    x_m1_1_3_4  tile_3     1.000000000000e+00
    x_m1_1_3_4  match_3_yellow  -1.000000000000e+00
    x_m1_1_3_4  uzb_3_yellow  -1.000000000000e+00
    x_m1_1_3_4  link_5_red   1.000000000000e+00
    x_m1_1_3_4  link_6_red   1.000000000000e+00
    x_m1_1_3_4  opena_3    1.000000000000e+00
    x_m1_1_3_4  openb_5    1.000000000000e+00
    x_m1_1_3_4  openb_6    1.000000000000e+00
    x_m1_1_3_4  short_red_m1_0_m1_1_0_m1_0_0   1.000000000000e+00
    x_m1_1_3_4  short_red_m1_0_m1_1_0_0   1.000000000000e+00
    x_m1_1_3_4  short_red_m1_0_m1_1_0_0_0_1   2.000000000000e+00
    x_m1_1_3_4  short_red_m1_1_0_0_0_1   2.000000000000e+00
    MARK      'MARKER'                 'INTEND'
    MARK      'MARKER'                 'INTORG'
    x_m1_1_4_1  cell_m1_1   1.000000000000e+00
    x_m1_1_4_1  tile_4     1.000000000000e+00
    x_m1_1_4_1  link_3_red  -1.000000000000e+00
    x_m1_1_4_1  match_5_blue   1.000000000000e+00
    x_m1_1_4_1  uza_5_blue  -1.000000000000e+00
    x_m1_1_4_1  link_6_red   1.000000000000e+00
    x_m1_1_4_1  opena_3    1.000000000000e+00
    x_m1_1_4_1  openb_5    1.000000000000e+00
    x_m1_1_4_1  openb_6    1.000000000000e+00
    x_m1_1_4_1  short_red_m1_0_m1_1_0_0_0_1   1.000000000000e+00
    x_m1_1_4_1  short_red_m1_1_0_0_0_1   1.000000000000e+00
    MARK      'MARKER'                 'INTEND'
RHS
    RHS       cell_0_m1   1.000000000000e+00
    RHS       cell_m1_0   1.000000000000e+00
    RHS       cell_0_0   1.000000000000e+00
    RHS       cell_m1_1   1.000000000000e+00
    RHS       cell_0_1   1.000000000000e+00
    RHS       tile_1     1.000000000000e+00
    RHS       tile_2     1.000000000000e+00
    RHS       tile_3     1.000000000000e+00
    RHS       tile_4     1.000000000000e+00
    RHS       tile_5     1.000000000000e+00
    RHS       link_0_red   0.000000000000e+00
    RHS       match_0_yellow   0.000000000000e+00
    RHS       uza_0_yellow   0.000000000000e+00
    RHS       uzb_0_yellow   0.000000000000e+00
    RHS       match_0_blue   0.000000000000e+00
    RHS       uza_0_blue   0.000000000000e+00
    RHS       uzb_0_blue   0.000000000000e+00
    RHS       link_1_red   0.000000000000e+00
    RHS       match_1_yellow   0.000000000000e+00
    RHS       uza_1_yellow   0.000000000000e+00
    RHS       uzb_1_yellow   0.000000000000e+00
    RHS       match_1_blue   0.000000000000e+00
    RHS       uza_1_blue   0.000000000000e+00
    RHS       uzb_1_blue   0.000000000000e+00
    RHS       link_2_red   0.000000000000e+00
    RHS       match_2_yellow   0.000000000000e+00
    RHS       uza_2_yellow   0.000000000000e+00
    RHS       uzb_2_yellow   0.000000000000e+00
    RHS       match_2_blue   0.000000000000e+00
    RHS       uza_2_blue   0.000000000000e+00
    RHS       uzb_2_blue   0.000000000000e+00
    RHS       link_3_red   0.000000000000e+00
    RHS       match_3_yellow   0.000000000000e+00
    RHS       uza_3_yellow   0.000000000000e+00
    RHS       uzb_3_yellow   0.000000000000e+00
    RHS       match_3_blue   0.000000000000e+00
    RHS       uza_3_blue   0.000000000000e+00
    RHS       uzb_3_blue   0.000000000000e+00
    RHS       link_4_red   0.000000000000e+00
    RHS       match_4_yellow   0.000000000000e+00
    RHS       uza_4_yellow   0.000000000000e+00
    RHS       uzb_4_yellow   0.000000000000e+00
    RHS       match_4_blue   0.000000000000e+00
    RHS       uza_4_blue   0.000000000000e+00
    RHS       uzb_4_blue   0.000000000000e+00
    RHS       link_5_red   0.000000000000e+00
    RHS       match_5_yellow   0.000000000000e+00
    RHS       uza_5_yellow   0.000000000000e+00
    RHS       uzb_5_yellow   0.000000000000e+00
    RHS       match_5_blue   0.000000000000e+00
    RHS       uza_5_blue   0.000000000000e+00
    RHS       uzb_5_blue   0.000000000000e+00
    RHS       link_6_red   0.000000000000e+00
    RHS       match_6_blue   0.000000000000e+00
    RHS       uza_6_blue   0.000000000000e+00
    RHS       uzb_6_blue   0.000000000000e+00
    RHS       opena_0    1.000000000000e+00
    RHS       openb_0    1.000000000000e+00
    RHS       opena_1    1.000000000000e+00
    RHS       openb_1    1.000000000000e+00
    RHS       opena_2    1.000000000000e+00
    RHS       openb_2    1.000000000000e+00
    RHS       opena_3    1.000000000000e+00
    RHS       openb_3    1.000000000000e+00
    RHS       opena_4    1.000000000000e+00
    RHS       openb_4    1.000000000000e+00
    RHS       opena_5    1.000000000000e+00
    RHS       openb_5    1.000000000000e+00
    RHS       opena_6    1.000000000000e+00
    RHS       openb_6    1.000000000000e+00
    RHS       short_red_m1_0_m1_1_0_m1_0_0   3.000000000000e+00
    RHS       short_red_m1_0_m1_1_0_0   2.000000000000e+00
    RHS       short_red_m1_0_m1_1_0_0_0_1   3.000000000000e+00
    RHS       short_red_m1_0_0_m1_0_0   2.000000000000e+00
    RHS       short_red_m1_1_0_0_0_1   2.000000000000e+00
BOUNDS
 FX BND       __dummy    0.000000000000e+00
 UP BND       ua_0_blue   1.000000000000e+00
 UP BND       ua_0_yellow   1.000000000000e+00
 UP BND       ua_1_blue   1.000000000000e+00
 UP BND       ua_1_yellow   1.000000000000e+00
 UP BND       ua_2_blue   1.000000000000e+00
 UP BND       ua_2_yellow   1.000000000000e+00
 UP BND       ua_3_blue   1.000000000000e+00
 UP BND       ua_3_yellow   1.000000000000e+00
 UP BND       ua_4_blue   1.000000000000e+00
 UP BND       ua_4_yellow   1.000000000000e+00
 UP BND       ua_5_blue   1.000000000000e+00
 UP BND       ua_5_yellow   1.000000000000e+00
 UP BND       ua_6_blue   1.000000000000e+00
 UP BND       ub_0_blue   1.000000000000e+00
 UP BND       ub_0_yellow   1.000000000000e+00
 UP BND       ub_1_blue   1.000000000000e+00
 UP BND       ub_1_yellow   1.000000000000e+00
 UP BND       ub_2_blue   1.000000000000e+00
 UP BND       ub_2_yellow   1.000000000000e+00
 UP BND       ub_3_blue   1.000000000000e+00
 UP BND       ub_3_yellow   1.000000000000e+00
 UP BND       ub_4_blue   1.000000000000e+00
 UP BND       ub_4_yellow   1.000000000000e+00
 UP BND       ub_5_blue   1.000000000000e+00
 UP BND       ub_5_yellow   1.000000000000e+00
 UP BND       ub_6_blue   1.000000000000e+00
 BV BND       x_0_0_1_0
 BV BND       x_0_0_1_5
 BV BND       x_0_0_2_0
 BV BND       x_0_0_2_1
 BV BND       x_0_0_2_5
 BV BND       x_0_0_3_0
 BV BND       x_0_0_3_1
 BV BND       x_0_0_3_2
 BV BND       x_0_0_4_4
 BV BND       x_0_0_4_5
 BV BND       x_0_0_5_0
 BV BND       x_0_0_5_3
 BV BND       x_0_1_2_1
 BV BND       x_0_1_3_2
 BV BND       x_0_m1_2_5
 BV BND       x_0_m1_3_0
 BV BND       x_m1_0_1_3
 BV BND       x_m1_0_2_3
 BV BND       x_m1_0_2_4
 BV BND       x_m1_0_3_4
 BV BND       x_m1_0_3_5
 BV BND       x_m1_0_4_2
 BV BND       x_m1_1_1_2
 BV BND       x_m1_1_2_2
 BV BND       x_m1_1_2_3
 BV BND       x_m1_1_3_3
 BV BND       x_m1_1_3_4
 BV BND       x_m1_1_4_1
ENDATA
