# procedure recruit_one (rules/catalyst.rules:128)
def procedure_recruit_one_label(st, L=None):
    z = st.z
    try:
        # 128: choose c in market where price(c) <= coins as "recruit {c.name} from space {slot(c) + 1} for {price(c)} coins":
        return (K32 + R_render(field_name[L[0]]) + K33 + R_render(((z[st.loc[L[0]]].index(L[0])) + 1)) + K34 + R_render((max(0, (field_cost[L[0]] + K35[(z[st.loc[L[0]]].index(L[0]))])))) + K36)
    except Exception as t0:
        raise R_fail(t0, K37) from t0

# procedure recruit_one (rules/catalyst.rules:127)
def procedure_recruit_one(st, fr):
    L = fr[2]
    ctr = st.ctr
    z = st.z
    pc = fr[1]
    while True:
        if pc < 3:
            if pc == 0:
                L.extend([None] * 1)
                if st.cov is not None: st.cov[11] += 1
                pc = 1
            if pc == 1:
                # 128: choose c in market where price(c) <= coins as "recruit {c.name} from space {slot(c) + 1} for {price(c)} coins":
                vals = [v16 for v16 in z[3] if v16 is not None if ((max(0, (field_cost[v16] + K35[(z[st.loc[v16]].index(v16))]))) <= ctr[0][st.me])]
                if not vals:
                    pc = 3
                    continue
                if len(vals) == 1:
                    L[0] = vals[0]
                    pc = 2
                    continue
                ids = list(map(CARD_IDS.__getitem__, vals))
                st.decider = st.me; st.point = 0; st.option_ids = ids; st.option_values = vals
                return S
            if pc == 2:
                # 129: recruit_card(c)
                fr[1] = 3
                nf = [12, 0, [L[0]]]
                st.frames.append(nf)
                if procedure_recruit_card(st, nf) is S: return S
                pc = 3
        if pc < 6:
            if pc == 3:
                st.frames.pop()
                return None

# constants read above (values from the rules and card files):
#   K32 = 'recruit '
#   K33 = ' from space '
#   K34 = ' for '
#   K35 = [1, 0, 0, -1, -1]
#   K36 = ' coins'
#   K37 = rules/catalyst.rules:128:5
