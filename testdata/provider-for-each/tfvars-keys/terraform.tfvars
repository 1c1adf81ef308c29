regions = ["us-east-1", "eu-west-1"]
