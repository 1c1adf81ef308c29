provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "b" {
  for_each = var.regions
  provider = aws.by_region[each.key]
  tags     = { for k, v in local.m : k => "${v}-%{ if v != "" }x%{ endif }" }
  x = <<-EOT
    ${a} %{ for i in range(3) ~}${i}%{ endfor }
  EOT
}
