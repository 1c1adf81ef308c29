variable "vpc_id" {
  type = string
}

output "id" {
  value = var.vpc_id
}
