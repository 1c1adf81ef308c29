variable "regions" {
  type = map(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_sns_topic" "t" {
  provider = aws.by_region["apse2"]
  #                        ^^^^^^^ warning[unknown-provider-instance]: with the default of `var.regions`
}
