mock_provider "aws" {
  alias = "by_region"
  #       ^^^^^^^^^^^ error[test-provider-for-each-mismatch]: must use `for_each` too
}

provider "aws" {
  alias    = "single"
  for_each = toset(["a"])
 #^^^^^^^^ error[test-provider-for-each-mismatch]: must not have one either
}

mock_provider "aws" {
  alias    = "passed"
  for_each = toset(["a"])
 #^^^^^^^^ error[test-provider-for-each-mismatch]: passed into the module under test
}

provider "aws" {
  alias    = "test_only"
  for_each = toset(["a"])
 #^^^^^^^^ error[test-provider-for-each-mismatch]: exists only in this test
}

mock_provider "google" {
  for_each = toset(["a"])
 #^^^^^^^^ error[provider-for-each-without-alias]
}

provider "aws" {
  alias = "plain"
}

run "keyed" {
  providers = {
    aws = aws.plain["x"]
    #               ^^^ error[test-provider-instance-key]
  }
}

run "collection" {
  providers = {
    aws = aws.test_only
    #     ^^^^^^^^^^^^^ error[test-provider-instance-key]
  }
}
