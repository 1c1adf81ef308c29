mock_provider "aws" {
  alias    = "by_region"
  for_each = var.aws_regions
}

mock_provider "aws" {
  alias = "single"
}

run "initial_create" {
  variables {
    aws_regions = {
      faked-region-a = {}
    }
  }
}
