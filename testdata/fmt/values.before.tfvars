region = "eu-west-1"
tags = {
  Env  = "prod"
  Team = "infra" # owners
}
azs = ["a", "b"]
