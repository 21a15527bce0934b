# procedure acquire_building (rules/catalyst.rules:146)
def procedure_acquire_building_label(st, L=None):
    z = st.z
    try:
        # 146: choose b in building_supply where on_top(b) and not owns_colour(b.colour) and building_price(b) <= coins as "acquire {b.name} (level {b.level}...
        return (K45 + R_render(field_name[L[0]]) + K46 + R_render(field_level[L[0]]) + K47 + R_render(((1 + (K48[st.n] * ((len(K26[st.n])) - len([1 for v20 in z[4] if (field_colour[v20] == field_colour[L[0]])])))) + (len(z[11 + st.me])))) + K49)
    except Exception as t0:
        raise R_fail(t0, K50) from t0

# procedure acquire_building (rules/catalyst.rules:151)
def procedure_acquire_building_label_2(st, L=None):
    try:
        # 151: choose c in playing_area where ready(c) as "put {c.name} in your new {b.name}":
        return (K53 + R_render(field_name[L[1]]) + K54 + R_render(field_name[L[0]]))
    except Exception as t0:
        raise R_fail(t0, K55) from t0

# procedure acquire_building (rules/catalyst.rules:145)
def procedure_acquire_building(st, fr):
    L = fr[2]
    ctr = st.ctr
    z = st.z
    pc = fr[1]
    while True:
        if pc < 3:
            if pc == 0:
                L.extend([None] * 2)
                if st.cov is not None: st.cov[14] += 1
                pc = 1
            if pc == 1:
                # 146: choose b in building_supply where on_top(b) and not owns_colour(b.colour) and building_price(b) <= coins as "acquire {b.name} (level {b.level}...
                vals = [v21 for v21 in z[4] if ((field_level[v21] == R_lowest([field_level[v22] for v22 in z[4] if (field_colour[v22] == field_colour[v21])])) and (not define_owns_colour(st, field_colour[v21])) and (((1 + (K48[st.n] * ((len(K26[st.n])) - len([1 for v24 in z[4] if (field_colour[v24] == field_colour[v21])])))) + (len(z[11 + st.me]))) <= ctr[0][st.me]))]
                if not vals:
                    pc = 5
                    continue
                if len(vals) == 1:
                    L[0] = vals[0]
                    pc = 2
                    continue
                ids = list(map(CARD_IDS.__getitem__, vals))
                st.decider = st.me; st.point = 2; st.option_ids = ids; st.option_values = vals
                return S
            if pc == 2:
                # 147: pay building_price(b) coins
                t14 = ctr[0]; t15 = st.me; t16 = ((1 + (K48[st.n] * ((len(K26[st.n])) - len([1 for v25 in z[4] if (field_colour[v25] == field_colour[L[0]])])))) + (len(z[11 + st.me])))
                if t16 < 0 or t14[t15] - t16 < 0:
                    raise R_cannot_pay(t16, t14[t15], K38, K51)
                t14[t15] -= t16
                # 148: move b to buildings
                t17 = L[0]
                if t17 is None: R_move_all(st, None, 0, False, K52)
                R_move(st, t17, 11 + st.me, False)
                pc = 3
        if pc < 6:
            if pc == 3:
                # 151: choose c in playing_area where ready(c) as "put {c.name} in your new {b.name}":
                vals = [v26 for v26 in z[7 + st.me] if (ctr[3][v26] == 0)]
                if not vals:
                    pc = 5
                    continue
                if len(vals) == 1:
                    L[1] = vals[0]
                    pc = 4
                    continue
                ids = list(map(CARD_IDS.__getitem__, vals))
                st.decider = st.me; st.point = 3; st.option_ids = ids; st.option_values = vals
                return S
            if pc == 4:
                # 152: move c to occupant of b
                t18 = L[1]
                if t18 is None: R_move_all(st, None, 0, False, K56)
                R_move(st, t18, 15 + L[0], False)
                pc = 5
            if pc == 5:
                st.frames.pop()
                return None

# constants read above (values from the rules and card files):
#   K45 = 'acquire '
#   K46 = ' (level '
#   K47 = ') for '
#   K48 = {2: 2, 3: 1, 4: 1}
#   K26 = {2: [1, 3], 3: [1, 2, 3], 4: [1, 2, 3, 4]}
#   K49 = ' coins'
#   K50 = rules/catalyst.rules:146:5
#   K53 = 'put '
#   K54 = ' in your new '
#   K55 = rules/catalyst.rules:151:9
#   K38 = 'coins'
#   K51 = rules/catalyst.rules:147:9
#   K52 = rules/catalyst.rules:148:9
#   K56 = rules/catalyst.rules:152:13
