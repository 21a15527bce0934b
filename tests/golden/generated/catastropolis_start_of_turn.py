# at start of turn (rules/catastropolis/catastropolis.rules:373)
def at_start_of_turn(st, fr):
    L = fr[2]
    ctr = st.ctr
    z = st.z
    pc = fr[1]
    while True:
        if pc < 3:
            if pc == 0:
                L.extend([None] * 6)
                if st.cov is not None: st.cov[29] += 1
                # 374: for each c in powers where c.timing == "start of turn":
                L[1] = tuple(z[18 + st.me]); L[2] = 0
                pc = 1
            if pc == 1:
                t43 = L[2]; t44 = L[1]
                while t43 < len(t44):
                    L[0] = t44[t43]; t43 += 1
                    if (field_timing[L[0]] == K119): break
                else:
                    t43 = -1
                if t43 < 0:
                    pc = 4
                    continue
                L[2] = t43
                # 375: resolve all of c.effects
                L[3] = field_effects[L[0]]; L[5] = 0
                pc = 2
            if pc == 2:
                t45 = L[5]
                if t45 >= len(L[3]):
                    pc = 1
                    continue
                t46 = L[3][t45]
                if len(t46) == 1:
                    L[5] = t45 + 1; L[4] = t46[0]
                    pc = 3
                    continue
                st.decider = st.me; st.point = 12; st.option_ids = list(t46); st.option_values = list(t46)
                return S
        if pc < 6:
            if pc == 3:
                fr[1] = 2
                if R_effect(st, L[4], K120) is S: return S
                pc = 2
                continue
            if pc == 4:
                st.frames.pop()
                return None

# constants read above (values from the rules and card files):
#   K119 = 'start of turn'
#   K120 = rules/catastropolis/catastropolis.rules:375:9
