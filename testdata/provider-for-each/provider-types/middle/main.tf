module "inner" {
  source = "../child"
  providers = {
    aws = aws
  }
}
