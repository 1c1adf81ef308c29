regions = ["eu-west-1"]
