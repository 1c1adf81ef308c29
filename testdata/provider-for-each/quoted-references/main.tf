# Legacy quoted references (Terraform 0.11 syntax): OpenTofu reads the string as a reference and only warns; the
# reference inside is checked like an unquoted one.
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1", "eu-west-1"])
  region   = each.key
}

resource "aws_s3_bucket" "quoted" {
  provider = "aws.west"
  #          ^^^^^^^^^^ warning[quoted-provider-reference]
}

resource "aws_s3_bucket" "quoted_default" {
  provider = "aws"
  #          ^^^^^ warning[quoted-provider-reference]
}

resource "aws_s3_bucket" "quoted_key" {
  provider = "aws.by_region[\"eu-west-1\"]"
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[quoted-provider-reference]
}

resource "aws_s3_bucket" "quoted_wrong_key" {
  provider = "aws.by_region[\"ap-south-1\"]"
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[quoted-provider-reference]
  #                         ^^^^^^^^^^^^^^ error[unknown-provider-instance]
}

resource "aws_s3_bucket" "quoted_typo" {
  provider = "aws.wst"
  #          ^^^^^^^^^ warning[quoted-provider-reference]
  #           ^^^^^^^ error[unknown-provider-config]
}

module "child" {
  source = "./child"
  providers = {
    "aws"     = "aws.west"
   #^^^^^ warning[quoted-provider-reference]
    #           ^^^^^^^^^^ warning[quoted-provider-reference]
    "aws.src" = "aws.by_region[\"us-east-1\"]"
   #^^^^^^^^^ warning[quoted-provider-reference]
    #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[quoted-provider-reference]
  }
}
