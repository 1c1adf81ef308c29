# A module call's `providers` map must pass configurations of the providers the child expects, and a provider
# reference should use a name something declares.
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    google = {
      source = "hashicorp/google"
    }
    myaws = {
      source = "registry.opentofu.org/hashicorp/aws"
    }
    google-beta = {
      source = "hashicorp/google-beta"
    }
  }
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

module "wrong_type" {
  source = "./child"
  providers = {
    aws = google
    #     ^^^^^^ error[provider-type-mismatch]: did you mean `aws`?
  }
}

module "alias_without_name" {
  source = "./child"
  providers = {
    aws = euw1
    #     ^^^^ error[unknown-provider-config]: did you mean `aws.euw1`?
  }
}

module "same_provider_other_name" {
  source = "./child"
  providers = {
    aws = myaws
  }
}

module "alias" {
  source = "./child"
  providers = {
    aws = aws.euw1
  }
}

# Passes `aws` on without declaring it: `hashicorp/aws`, what the child expects.
module "middle" {
  source = "./middle"
}

# Uses `google-beta`, declared only here.
module "beta" {
  source = "./beta"
}

resource "aws_s3_bucket" "typo" {
  provider = awz
  #          ^^^ warning[undeclared-provider]: did you mean `aws`?
}

resource "aws_s3_bucket" "declared" {
  provider = aws
}

# `null2` is declared in versions.tf.json.
resource "null_resource" "json_declared" {
  provider = null2
}

# Far from every declared name: a real provider used without a declaration (OpenTofu installs `hashicorp/tls`).
data "http" "implicit" {
  provider = tls
}
