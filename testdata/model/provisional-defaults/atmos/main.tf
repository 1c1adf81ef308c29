# atmos runs the components below with the variables of its stacks (atmos.yaml is here).
