# Shared by every root module through a symbolic link (`common-variables.tf -> config/common-variables.tf`), as
# in binbashar/le-tf-infra-aws.
variable "regions" {
  type = map(string)
}
