# procedure prepare_buildings (rules/solo.rules:29)
def procedure_prepare_buildings(st):
    ctr = st.ctr
    z = st.z
    if st.cov is not None: st.cov[7] += 1
    # 30: for each level in [1, 2, 3, 4]:
    for s0 in tuple([1, 2, 3, 4]):
        # 31: pick b in box where b is building and b.level == level and not (any x in building_supply where x.colour == b.colour) at random:
        t9 = [v13 for v13 in z[0] if ((v13 in kind_building) and (field_level[v13] == s0) and (not any((field_colour[v14] == field_colour[v13]) for v14 in z[4])))]
        if t9:
            s1 = R_pick(st, t9)
            # 32: move b to building_supply
            t10 = s1
            if t10 is None: R_move_all(st, None, 0, False, K26)
            R_move(st, t10, 4, False)

# constants read above (values from the rules and card files):
#   K26 = rules/solo.rules:32:13
