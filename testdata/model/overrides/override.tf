resource "aws_s3_bucket" "b" {
  provider = aws.by_region["ap"]
  #                        ^^^^ error[unknown-provider-instance]
}

variable "not_in_main" {}
#        ^^^^^^^^^^^^^ error[override-without-base]

# A default provider configuration needs no base block (an absent one is an empty configuration); an aliased one does.
provider "google" {
  region = "europe-west1"
}

provider "google" {
#        ^^^^^^^^ error[override-without-base]: `google.west`
  alias  = "west"
  region = "europe-west4"
}
