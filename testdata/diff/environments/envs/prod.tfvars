regions = ["eu-west-1", "us-east-1"]
