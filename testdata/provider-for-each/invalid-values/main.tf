variable "secret_regions" {
  type      = set(string)
  default   = ["us"]
  sensitive = true
}

provider "aws" {
  alias    = "list"
  for_each = ["us", "eu"]
  #          ^^^^^^^^^^^^ error[provider-for-each-invalid]: toset
}

provider "aws" {
  alias    = "null"
  for_each = null
  #          ^^^^ error[provider-for-each-invalid]: null
}

provider "aws" {
  alias    = "numbers"
  for_each = toset([1, 2])
  #          ^^^^^^^^^^^^^ error[provider-for-each-invalid]
}

provider "aws" {
  alias    = "secret"
  for_each = var.secret_regions
  #          ^^^^^^^^^^^^^^^^^^ error[provider-for-each-invalid]: sensitive
}

provider "aws" {
  alias    = "ok"
  for_each = { "1" = "a", "true" = "b" }
}

resource "aws_s3_bucket" "number_key" {
  provider = aws.ok[1]
}

resource "aws_s3_bucket" "bool_key" {
  provider = aws.ok[true]
}

resource "aws_s3_bucket" "null_key" {
  provider = aws.ok[null]
  #                 ^^^^ error[invalid-provider-instance-key]: null
}

resource "aws_s3_bucket" "list_key" {
  provider = aws.ok[["1"]]
  #                 ^^^^^ error[invalid-provider-instance-key]
}

provider "aws" {
  alias    = "null_element"
  for_each = toset(["a", null])
  #          ^^^^^^^^^^^^^^^^^^ error[provider-for-each-invalid]: null
}
