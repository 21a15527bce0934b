# turn (rules/catalyst.rules:186)
def turn_label(st, L=None):
    try:
        # 186: may choose c in in_play where ready(c) as "spend a chain token to activate {c.name}":
        return (K75 + R_render(field_name[L[1]]))
    except Exception as t0:
        raise R_fail(t0, K76) from t0

# turn (rules/catalyst.rules:200)
def turn_label_2(st, L=None):
    try:
        # 200: choose c in playing_area as "move {c.name} into a building":
        return (K83 + R_render(field_name[L[2]]) + K84)
    except Exception as t0:
        raise R_fail(t0, K85) from t0

# turn (rules/catalyst.rules:181)
def turn(st, fr):
    L = fr[2]
    ctr = st.ctr
    z = st.z
    pc = fr[1]
    while True:
        if pc < 4:
            if pc == 0:
                L.extend([None] * 3)
                if st.cov is not None: st.cov[21] += 1
                pc = 1
            if pc == 1:
                # 182: choose action
                vals = []
                vals.append(0)
                # 172: action recruit "Recruit a Catalyst" when can_recruit:
                for v32 in z[3]:
                    if v32 is not None and ((max(0, (field_cost[v32] + K35[(z[st.loc[v32]].index(v32))]))) <= ctr[0][st.me]):
                        vals.append(1)
                        break
                # 176: action activate_one "Activate a Catalyst" when any c in in_play where ready(c):
                for v33 in (z[7 + st.me] + [v35 for v34 in z[11 + st.me] for v35 in z[15 + v34] if v35 is not None]):
                    if (ctr[3][v33] == 0):
                        vals.append(2)
                        break
                # 182: choose action
                if not vals: R_no_action(K73)
                if len(vals) == 1:
                    L[0] = vals[0]
                    pc = 2
                    continue
                st.decider = st.me; st.point = 8; st.option_ids = list(map(K74.__getitem__, vals)); st.option_values = vals
                return S
            if pc == 2:
                if L[0] == 0:
                    action_collect(st)
                elif L[0] == 1:
                    fr[1] = 3
                    nf = [17, 0, []]
                    st.frames.append(nf)
                    if action_recruit(st, nf) is S: return S
                elif L[0] == 2:
                    fr[1] = 3
                    nf = [18, 0, []]
                    st.frames.append(nf)
                    if action_activate_one(st, nf) is S: return S
                pc = 3
            if pc == 3:
                # 185: repeat while chain_tokens > 0:
                if not (ctr[2][st.me] > 0):
                    pc = 7
                    continue
                pc = 4
        if pc < 8:
            if pc == 4:
                # 186: may choose c in in_play where ready(c) as "spend a chain token to activate {c.name}":
                vals = [v36 for v36 in (z[7 + st.me] + [v38 for v37 in z[11 + st.me] for v38 in z[15 + v37] if v38 is not None]) if (ctr[3][v36] == 0)]
                if not vals:
                    pc = 7
                    continue
                ids = list(map(CARD_IDS.__getitem__, vals)); ids.append(K77); vals.append(K78)
                st.decider = st.me; st.point = 9; st.option_ids = ids; st.option_values = vals
                return S
            if pc == 5:
                # 187: pay 1 chain_tokens
                t24 = ctr[2]; t25 = st.me; t26 = 1
                if t26 < 0 or t24[t25] - t26 < 0:
                    raise R_cannot_pay(t26, t24[t25], K79, K80)
                t24[t25] -= t26
                # 188: activate(c)
                fr[1] = 6
                nf = [15, 0, [L[1]]]
                st.frames.append(nf)
                if procedure_activate(st, nf) is S: return S
                pc = 6
            if pc == 6:
                # 185: repeat while chain_tokens > 0:
                st.steps += 1
                if st.steps > BUDGET: R_runaway(st, K81)
                pc = 3
                continue
            if pc == 7:
                # 193: for each c in in_play where activated of c == 1:
                for s2 in tuple((z[7 + st.me] + [v40 for v39 in z[11 + st.me] for v40 in z[15 + v39] if v40 is not None])):
                    if not (ctr[3][s2] == 1): continue
                    # 194: set activated of c to 0
                    ctr[3][s2] = 0
                    # 195: move c to scoring_pile
                    t27 = s2
                    if t27 is None: R_move_all(st, None, 0, False, K82)
                    R_move(st, t27, 95 + st.me, False)
                # 197: set chain_tokens to 0
                ctr[2][st.me] = 0
                pc = 8
        if pc < 12:
            if pc == 8:
                # 199: repeat while size(playing_area) > 0 and size(empty_buildings) > 0:
                if not (((len(z[7 + st.me])) > 0) and ((len([v41 for v41 in z[11 + st.me] if ((1 - z[15 + v41].count(None)) == 0)])) > 0)):
                    pc = 12
                    continue
                pc = 9
            if pc == 9:
                # 200: choose c in playing_area as "move {c.name} into a building":
                vals = [v42 for v42 in z[7 + st.me]]
                if not vals:
                    pc = 11
                    continue
                if len(vals) == 1:
                    L[2] = vals[0]
                    pc = 10
                    continue
                ids = list(map(CARD_IDS.__getitem__, vals))
                st.decider = st.me; st.point = 10; st.option_ids = ids; st.option_values = vals
                return S
            if pc == 10:
                # 201: place_recruit(c)
                fr[1] = 11
                nf = [13, 0, [L[2]]]
                st.frames.append(nf)
                if procedure_place_recruit(st, nf) is S: return S
                pc = 11
            if pc == 11:
                # 199: repeat while size(playing_area) > 0 and size(empty_buildings) > 0:
                st.steps += 1
                if st.steps > BUDGET: R_runaway(st, K86)
                pc = 8
                continue
        if pc < 16:
            if pc == 12:
                # 204: slide market
                R_slide(st, 3)
                # 205: refill market from deck
                R_refill(st, 3, 1)
                # 207: if coins > coin_limit:
                if (ctr[0][st.me] > 8):
                    # 208: set coins to coin_limit
                    t28 = 8
                    if t28 < 0: t28 = 0
                    ctr[0][st.me] = t28
                st.frames.pop()
                return None

# constants read above (values from the rules and card files):
#   K75 = 'spend a chain token to activate '
#   K76 = rules/catalyst.rules:186:9
#   K83 = 'move '
#   K84 = ' into a building'
#   K85 = rules/catalyst.rules:200:9
#   K35 = [1, 0, 0, -1, -1]
#   K73 = rules/catalyst.rules:182:5
#   K74 = ['collect', 'recruit', 'activate_one']
#   K77 = 'pass'
#   K78 = '<pass>'
#   K79 = 'chain_tokens'
#   K80 = rules/catalyst.rules:187:13
#   K81 = rules/catalyst.rules:185:5
#   K82 = rules/catalyst.rules:195:9
#   K86 = rules/catalyst.rules:199:5
