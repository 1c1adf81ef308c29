variable "environment" {
  type = string
}

variable "state_bucket" {
  type = string
}

variable "passphrase" {
  type = string
}

locals {
  vpc_version = "5.8.1"
  org         = "acme"
  state_key   = "${local.org}/${var.environment}/network.tfstate"
  module_root = "./modules"
}

terraform {
  required_version = ">= 1.8"

  backend "s3" {
    bucket         = var.state_bucket
    key            = local.state_key
    region         = "eu-west-1"
    dynamodb_table = "${local.org}-locks"
    encrypt        = true

    assume_role {
      role_arn = "arn:aws:iam::123456789012:role/${var.environment}-state"
    }
  }

  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = var.passphrase
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state {
      method = method.aes_gcm.main
    }
  }
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = local.vpc_version
  name    = "${local.org}-${var.environment}"
}

module "tags" {
  source = "git::https://example.com/${local.org}/tags.git?ref=v${local.vpc_version}"
}

module "network" {
  source      = "${local.module_root}/network"
  environment = var.environment
}

module "network_from_path" {
  source      = "${path.module}/modules/network"
  environment = "staging"
}
