cards {rules} --where "name == Alpha"
