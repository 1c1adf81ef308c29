variable "known" {
  type = string
}
