run {rules} --players 2 --bots random --seed 1 --set level=hard
