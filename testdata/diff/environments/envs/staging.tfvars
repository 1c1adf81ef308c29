regions = ["us-east-1"]
